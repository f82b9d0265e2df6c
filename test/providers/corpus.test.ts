import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseClaudeAction } from '../../src/main/agent/providers/parse/claude-computer.js';
import { parseOpenAIAction } from '../../src/main/agent/providers/parse/openai-computer.js';
import { extractTextToolCalls, parseQwenAction, qwenCoordinates } from '../../src/main/agent/providers/parse/qwen-vl.js';
import { parseUiTars, uiTarsCoordinates } from '../../src/main/agent/providers/parse/ui-tars.js';
import { fail, type ActionEntry, type ParseContext } from '../../src/main/agent/providers/parse/validate.js';

// Real-looking model outputs of each format, good and broken, and what each must
// parse into. A broken one must become an error entry whose message names the problem.

interface Case {
  name: string;
  model?: string;
  image: [number, number];
  cursor?: [number, number];
  input: unknown;
  expect: Array<{ ok: true; action: unknown } | { error: string }>;
}

const load = (file: string): Case[] => JSON.parse(readFileSync(new URL(`./corpus/${file}`, import.meta.url), 'utf8')) as Case[];

const PARSERS: Record<string, (c: Case, ctx: ParseContext) => ActionEntry[]> = {
  'ui-tars.json': (c, ctx) => parseUiTars(String(c.input), uiTarsCoordinates(c.model!), ctx).calls.flatMap((call) => call.actions),
  'qwen-vl.json': (c, ctx) => {
    if (typeof c.input !== 'string') return [parseQwenAction(c.input, qwenCoordinates(c.model!), ctx)];
    return extractTextToolCalls(c.input).calls.map((t) => (t.error ? fail(t.error) : parseQwenAction(t.args, qwenCoordinates(c.model!), ctx)));
  },
  'claude.json': (c, ctx) => [parseClaudeAction((c.input as { action?: unknown } | null)?.action, c.input, ctx)],
  'openai.json': (c, ctx) => [parseOpenAIAction(c.input, ctx)],
};

describe.each(Object.keys(PARSERS))('corpus %s', (file) => {
  const cases = load(file);
  it('has good and broken samples', () => {
    expect(cases.filter((c) => c.name.startsWith('BROKEN')).length).toBeGreaterThanOrEqual(6);
    expect(cases.filter((c) => !c.name.startsWith('BROKEN')).length).toBeGreaterThanOrEqual(6);
  });
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const ctx: ParseContext = { image: { width: c.image[0], height: c.image[1] }, ...(c.cursor ? { cursor: { x: c.cursor[0], y: c.cursor[1] } } : {}) };
    const got = PARSERS[file]!(c, ctx);
    expect(got).toHaveLength(c.expect.length);
    c.expect.forEach((want, i) => {
      if ('error' in want) {
        expect(got[i]!.ok).toBe(false);
        expect((got[i] as { error: string }).error).toContain(want.error);
      } else {
        expect(got[i]).toEqual(want);
      }
    });
  });
});
