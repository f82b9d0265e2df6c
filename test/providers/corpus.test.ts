import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseKeyCombo } from '../../src/os-control/keys.js';
import { parseClaudeAction } from '../../src/main/agent/providers/parse/claude-computer.js';
import { parseOpenAIAction } from '../../src/main/agent/providers/parse/openai-computer.js';
import { extractTextToolCalls, parseQwenAction, qwenCoordinates } from '../../src/main/agent/providers/parse/qwen-vl.js';
import { parseUiTars, uiTarsCoordinates } from '../../src/main/agent/providers/parse/ui-tars.js';
import { fail, type ActionEntry, type ParseContext } from '../../src/main/agent/providers/parse/validate.js';

// The conformance corpus (issue 14): model outputs as the makers and peer agents write,
// read and execute them, each case citing the public file it comes from (`source`:
// "owner/repo path"), and what DeskPilot must make of it. A case where DeskPilot is
// deliberately safer than the peers says so in `deliberate`, with the reason. A broken
// output must become an error entry whose message names the problem. Key combinations
// are compared by the keys they press (the key table's canonical spelling), so an alias
// spelled differently still agrees.

interface Case {
  name: string;
  source: string;
  deliberate?: string;
  model?: string;
  image: [number, number];
  cursor?: [number, number];
  input: unknown;
  expect: Array<{ ok: true; action: Record<string, unknown> } | { error: string }>;
  /** UI-TARS only: whether the whole reply is unreadable (never the end of a run). */
  unreadable?: boolean;
}

const load = (file: string): Case[] => JSON.parse(readFileSync(new URL(`./corpus/${file}`, import.meta.url), 'utf8')) as Case[];

interface Parsed {
  entries: ActionEntry[];
  unreadable?: boolean;
}

const PARSERS: Record<string, (c: Case, ctx: ParseContext) => Parsed> = {
  'ui-tars.json': (c, ctx) => {
    const reply = parseUiTars(String(c.input), uiTarsCoordinates(c.model!), ctx);
    return { entries: reply.calls.flatMap((call) => call.actions), unreadable: reply.unreadable !== undefined };
  },
  'qwen-vl.json': (c, ctx) => {
    if (typeof c.input !== 'string') return { entries: [parseQwenAction(c.input, qwenCoordinates(c.model!), ctx)] };
    return { entries: extractTextToolCalls(c.input).calls.map((t) => (t.error ? fail(t.error) : parseQwenAction(t.args, qwenCoordinates(c.model!), ctx))) };
  },
  'claude.json': (c, ctx) => ({ entries: [parseClaudeAction((c.input as { action?: unknown } | null)?.action, c.input, ctx)] }),
  'openai.json': (c, ctx) => ({ entries: parseOpenAIAction(c.input, ctx) }),
};

/** The keys a combo presses, in the key table's spelling; unknown names stay as written (and fail the comparison). */
function canonicalKeys(combo: unknown): unknown {
  if (typeof combo !== 'string') return combo;
  try {
    return parseKeyCombo(combo).canonical;
  } catch {
    return combo;
  }
}

function comparable(action: Record<string, unknown>): Record<string, unknown> {
  const out = { ...action };
  if (typeof out.keys === 'string') out.keys = canonicalKeys(out.keys);
  if (Array.isArray(out.modifiers)) out.modifiers = (out.modifiers as string[]).map(canonicalKeys);
  return out;
}

const tally: Record<string, { cases: number; deliberate: number }> = {};

afterAll(() => {
  const total = Object.values(tally).reduce((a, t) => ({ cases: a.cases + t.cases, deliberate: a.deliberate + t.deliberate }), { cases: 0, deliberate: 0 });
  const rows = Object.entries(tally).map(([file, t]) => `${file} ${t.cases} (${t.deliberate} deliberate)`);
  console.log(`conformance corpus: ${total.cases} cases, ${total.cases - total.deliberate} agree with the peers, ${total.deliberate} deliberate differences — ${rows.join(', ')}`);
});

describe.each(Object.keys(PARSERS))('corpus %s', (file) => {
  const cases = load(file);
  tally[file] = { cases: cases.length, deliberate: cases.filter((c) => c.deliberate).length };

  it('has good and broken samples, each citing a public source', () => {
    expect(cases.filter((c) => c.name.startsWith('BROKEN')).length).toBeGreaterThanOrEqual(6);
    expect(cases.filter((c) => !c.name.startsWith('BROKEN')).length).toBeGreaterThanOrEqual(6);
    for (const c of cases) {
      expect(c.source, c.name).toMatch(/^[\w.-]+\/[\w.-]+ [\w./-]+\.\w+$/);
      if (c.deliberate !== undefined) expect(c.deliberate.length, c.name).toBeGreaterThan(20);
    }
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const ctx: ParseContext = { image: { width: c.image[0], height: c.image[1] }, ...(c.cursor ? { cursor: { x: c.cursor[0], y: c.cursor[1] } } : {}) };
    const got = PARSERS[file]!(c, ctx);
    expect(got.entries.map((e) => (e.ok ? e.action.type : `error: ${e.error}`))).toHaveLength(c.expect.length);
    c.expect.forEach((want, i) => {
      const entry = got.entries[i]!;
      if ('error' in want) {
        expect(entry.ok, `entry ${i} should be an error`).toBe(false);
        expect((entry as { error: string }).error).toContain(want.error);
      } else {
        expect(entry.ok, entry.ok ? '' : (entry as { error: string }).error).toBe(true);
        expect(comparable((entry as { action: Record<string, unknown> }).action)).toEqual(comparable(want.action));
      }
    });
    if (c.unreadable !== undefined) expect(got.unreadable).toBe(c.unreadable);
  });
});
