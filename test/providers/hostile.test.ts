import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionSchema, actionPoints } from '../../src/shared/actions.js';
import { createProvider } from '../../src/main/agent/providers/index.js';
import { parseClaudeAction } from '../../src/main/agent/providers/parse/claude-computer.js';
import { parseOpenAIAction } from '../../src/main/agent/providers/parse/openai-computer.js';
import { parseQwenAction } from '../../src/main/agent/providers/parse/qwen-vl.js';
import { parseUiTars } from '../../src/main/agent/providers/parse/ui-tars.js';
import type { ActionEntry } from '../../src/main/agent/providers/parse/validate.js';
import type { ModelCall } from '../../src/main/agent/transcript.js';
import { startFakeModel, type FakeModelServer, type FakeToolCall } from '../harness/fake-model/index.js';
import { builtinTools, FAST_RETRY, image, observation, signal } from './helpers.js';

// 200 hostile tool calls in a row per format: random actions, coordinates like -5,
// 1e9, NaN, strings, 1 MB text. Nothing may throw; every call must come out as a
// valid action inside the screenshot or as an error entry with a short message.

const W = 1280;
const H = 800;
const MB = 'x'.repeat(1_000_000);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const NUMBERS: unknown[] = [-5, 1e9, -1e9, NaN, Infinity, '12', '', null, undefined, 12.5, 0, W - 1, H - 1, W, 640, true, [], {}];
const TEXTS: unknown[] = ['hello', '', MB, 42, null, 'ctrl+alt+Delete', '💥'.repeat(6000), 'a\u0000b', '+++', 'F13', 'Return'];
const coord = (r: () => number): unknown => (r() < 0.2 ? pick(r, NUMBERS) : [pick(r, NUMBERS), pick(r, NUMBERS)]);

function hostileClaude(r: () => number): { name: string; input: Record<string, unknown> } {
  const name = pick(r, ['left_click', 'right_click', 'double_click', 'mouse_move', 'left_click_drag', 'scroll', 'type', 'key', 'hold_key', 'wait', 'zoom', 'screenshot', 'launch_missiles', '', '__proto__', 'constructor']);
  return {
    name,
    input: {
      coordinate: coord(r),
      start_coordinate: coord(r),
      text: pick(r, TEXTS),
      scroll_direction: pick(r, ['up', 'down', 'sideways', 5, null]),
      scroll_amount: pick(r, NUMBERS),
      duration: pick(r, NUMBERS),
      repeat: pick(r, NUMBERS),
      region: r() < 0.5 ? [pick(r, NUMBERS), pick(r, NUMBERS), pick(r, NUMBERS), pick(r, NUMBERS)] : pick(r, NUMBERS),
    },
  };
}

function hostileOpenAI(r: () => number): Record<string, unknown> {
  return {
    type: pick(r, ['click', 'double_click', 'drag', 'keypress', 'move', 'scroll', 'type', 'wait', 'screenshot', 'hover', 42]),
    button: pick(r, ['left', 'right', 'wheel', 'thumb', null]),
    x: pick(r, NUMBERS),
    y: pick(r, NUMBERS),
    scroll_x: pick(r, NUMBERS),
    scroll_y: pick(r, NUMBERS),
    text: pick(r, TEXTS),
    keys: r() < 0.5 ? [pick(r, TEXTS), pick(r, TEXTS)] : pick(r, TEXTS),
    path: r() < 0.5 ? [{ x: pick(r, NUMBERS), y: pick(r, NUMBERS) }, { x: pick(r, NUMBERS), y: pick(r, NUMBERS) }] : pick(r, NUMBERS),
  };
}

function hostileUiTars(r: () => number): string {
  const n = () => String(pick(r, NUMBERS));
  const name = pick(r, ['click', 'left_double', 'right_single', 'drag', 'hotkey', 'type', 'scroll', 'wait', 'finished', 'explode']);
  const body = pick(r, [
    `start_box='(${n()},${n()})'`,
    `start_box='<bbox>${n()} ${n()} ${n()} ${n()}</bbox>'`,
    `point='<point>${n()} ${n()}</point>'`,
    `content='${r() < 0.1 ? MB : 'hi\\n'}'`,
    `key='${String(pick(r, TEXTS)).slice(0, 50)}'`,
    `start_box='(1,1)', end_box='(${n()},${n()})'`,
    `direction='${pick(r, ['up', 'down', 'diagonal'])}', start_box='(5,5)'`,
    `start_box='(((`,
  ]);
  return `${name}(${body})`;
}

function checkEntry(e: ActionEntry): void {
  if (e.ok) {
    expect(ActionSchema.safeParse(e.action).success).toBe(true);
    for (const p of actionPoints(e.action)) {
      expect(p.x).toBeGreaterThanOrEqual(0);
      expect(p.y).toBeGreaterThanOrEqual(0);
      expect(p.x).toBeLessThanOrEqual(W);
      expect(p.y).toBeLessThanOrEqual(H);
    }
  } else {
    expect(e.error.length).toBeGreaterThan(0);
    expect(e.error.length).toBeLessThan(1000);
  }
}

describe('parsers under 200 hostile calls each (JS values incl. NaN and Infinity)', () => {
  const ctx = { image: { width: W, height: H } };
  it('claude', () => {
    const r = rng(1);
    const entries = Array.from({ length: 200 }, () => {
      const h = hostileClaude(r);
      return parseClaudeAction(h.name, h.input, ctx);
    });
    entries.forEach(checkEntry);
    expect(entries.some((e) => !e.ok)).toBe(true);
  });
  it('openai', () => {
    const r = rng(2);
    Array.from({ length: 200 }, () => parseOpenAIAction(hostileOpenAI(r), ctx)).flat().forEach(checkEntry);
  });
  it('qwen', () => {
    const r = rng(3);
    Array.from({ length: 200 }, () => {
      const h = hostileClaude(r);
      return parseQwenAction({ ...h.input, action: pick(r, ['left_click', 'key', 'type', 'scroll', 'hscroll', 'wait', 'terminate', 'answer', 'left_click_drag', 'nope']), keys: [pick(r, TEXTS)], pixels: pick(r, NUMBERS), time: pick(r, NUMBERS) }, r() < 0.5 ? 'absolute' : 'relative1000', ctx);
    }).forEach(checkEntry);
  });
  it('ui-tars', () => {
    const r = rng(4);
    const text = `Thought: chaos\nAction: ${Array.from({ length: 200 }, () => hostileUiTars(r)).join('\n')}`;
    const reply = parseUiTars(text, 'absolute', ctx);
    expect(reply.calls.length).toBeGreaterThan(100);
    reply.calls.flatMap((c) => c.actions).forEach(checkEntry);
  });
});

describe('200 hostile calls through each provider and SDK', () => {
  let fake: FakeModelServer;
  beforeEach(async () => {
    fake = await startFakeModel();
  });
  afterEach(async () => {
    await fake.close();
  });
  const req = { system: 's', transcript: [{ role: 'user' as const, text: 'x', image: image(W, H) }], observation: observation(W, H), tools: builtinTools('finish', 'shell', 'ask_user') };
  // Streamed in 64 KB deltas: the Anthropic SDK re-parses the partial tool JSON on every
  // delta, so a megabyte in 7-character deltas would test the SDK, not us.
  // JSON cannot carry NaN/Infinity/undefined (they arrive as null or vanish); 1 MB
  // strings are kept for a handful of calls so one request stays a few MB.
  let megabytes = 0;
  const jsonSafe = (v: unknown) =>
    JSON.parse(JSON.stringify(v ?? null, (_k, val: unknown) => (val === MB ? (megabytes++ < 2 ? MB : 'trimmed') : val))) as unknown;
  beforeEach(() => {
    megabytes = 0;
  });
  const checkCalls = (calls: ModelCall[], expected: number) => {
    expect(calls).toHaveLength(expected);
    for (const c of calls) {
      expect(c.actions.length).toBeGreaterThan(0);
      c.actions.forEach(checkEntry);
    }
  };

  it('anthropic toolset members', async () => {
    const r = rng(5);
    const toolCalls: FakeToolCall[] = Array.from({ length: 200 }, () => {
      const h = hostileClaude(r);
      const input = jsonSafe(h.input) as Record<string, unknown>;
      return r() < 0.1 ? { name: 'shell', input: { command: pick(r, TEXTS) } } : { name: h.name || 'x', toolsetName: 'computer', input };
    });
    fake.script({ toolCalls, chunkSize: 65_536 });
    const p = createProvider({ provider: 'anthropic', model: 'claude-sonnet-5-5' }, { apiKey: 'k', baseUrl: fake.anthropicBaseUrl, retry: FAST_RETRY });
    const turn = await p.turn(req, signal());
    checkCalls(turn.assistant.calls, 200);
  });

  it('openai GA batch of 200 actions', async () => {
    const r = rng(6);
    const actions = Array.from({ length: 200 }, () => jsonSafe(hostileOpenAI(r)) as Record<string, unknown>);
    fake.script({ toolCalls: [{ name: 'computer', input: { actions } }], chunkSize: 65_536 });
    const p = createProvider({ provider: 'openai', model: 'gpt-5.4' }, { apiKey: 'k', baseUrl: fake.openaiBaseUrl, retry: FAST_RETRY });
    const turn = await p.turn(req, signal());
    expect(turn.assistant.calls[0]!.actions.length).toBeGreaterThanOrEqual(200); // a diagonal scroll is two actions
    turn.assistant.calls[0]!.actions.forEach(checkEntry);
  });

  it('openai-compatible tool_calls incl. broken JSON arguments', async () => {
    const r = rng(7);
    const toolCalls: FakeToolCall[] = Array.from({ length: 200 }, () => {
      const h = hostileClaude(r);
      if (r() < 0.15) return { name: 'computer', rawArguments: `{"action": "left_click", "coordinate": [NaN, ${pick(r, ['1', '"2"', ''])}]`, input: null };
      const input = jsonSafe({ ...h.input, action: h.name }) as Record<string, unknown>;
      return { name: pick(r, ['computer', 'computer', 'computer', 'finish', 'nonsense']), input };
    });
    fake.script({ toolCalls, chunkSize: 65_536 });
    const p = createProvider({ provider: 'openai-compatible', model: 'llava' }, { baseUrl: fake.openaiBaseUrl, retry: FAST_RETRY });
    const turn = await p.turn(req, signal());
    checkCalls(turn.assistant.calls, 200);
  });
});
