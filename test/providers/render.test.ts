import { describe, expect, it } from 'vitest';
import { renderMessages } from '../../src/main/agent/providers/anthropic/render.js';
import { renderChat } from '../../src/main/agent/providers/openai-compatible/render.js';
import { renderInput } from '../../src/main/agent/providers/openai/render.js';
import type { TranscriptItem } from '../../src/main/agent/transcript.js';
import { image } from './helpers.js';

// Rendering rules that keep every API's pairing invariant: each tool call answered
// exactly once, right after its turn, tool results before other user content.

const turn: TranscriptItem[] = [
  { role: 'user', text: 'task' },
  {
    role: 'assistant',
    text: 'two things',
    calls: [
      { callId: 'a', name: 'computer', input: { action: 'left_click', coordinate: [1, 1] }, actions: [] },
      { callId: 'b', name: 'computer', input: { action: 'key', text: 'Return' }, actions: [] },
    ],
  },
  { role: 'tool_result', callId: 'b', name: 'computer', ok: true, text: 'pressed' },
  { role: 'user', text: 'The person says: use the second tab', image: image(64, 40) },
  { role: 'tool_result', callId: 'zzz', name: 'computer', ok: true, text: 'answer to nothing' },
];

describe('Anthropic messages', () => {
  it('tool results first, then the user text, in one user message; missing answers filled; strays dropped', async () => {
    const m = await renderMessages(turn, 'computer_20250124', []);
    expect(m.map((x) => x.role)).toEqual(['user', 'assistant', 'user']);
    const content = m[2]!.content as unknown as Array<Record<string, unknown>>;
    expect(content.map((b) => b.type)).toEqual(['tool_result', 'tool_result', 'text', 'image']);
    expect(content.map((b) => b.tool_use_id).slice(0, 2)).toEqual(['b', 'a']);
    expect(content[1]).toMatchObject({ is_error: true, content: expect.stringMatching(/Not executed/) });
    expect(JSON.stringify(m)).not.toContain('answer to nothing');
  });

  it('a transcript ending on an unanswered turn (resumed after a crash) answers every call', async () => {
    const m = await renderMessages(turn.slice(0, 2), 'computer_20250124', []);
    const content = m.at(-1)!.content as unknown as Array<Record<string, unknown>>;
    expect(m.at(-1)!.role).toBe('user');
    expect(content.map((b) => [b.tool_use_id, b.is_error])).toEqual([['a', true], ['b', true]]);
  });
});

describe('Chat Completions messages', () => {
  it('tool messages for every call right after the turn, then one user message', async () => {
    const m = await renderChat('sys', turn);
    expect(m.map((x) => x.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(m.slice(3, 5).map((x) => x.tool_call_id)).toEqual(['b', 'a']);
    expect(m[4]!.content).toMatch(/Not executed/);
  });
});

describe('Responses input', () => {
  it('chained: only the tail after the last response, every call answered, notes after outputs', async () => {
    const chained = structuredClone(turn.slice(0, 3).map((t) => ({ ...t }))) as TranscriptItem[];
    (chained[1] as { providerState?: unknown }).providerState = { responseId: 'resp_1' };
    (chained[1] as { calls: Array<{ name: string }> }).calls.forEach((c) => (c.name = 'ask_user'));
    (chained[2] as { name: string }).name = 'ask_user';
    const r = await renderInput(chained, 'original');
    expect(r.previousResponseId).toBe('resp_1');
    expect(r.input).toEqual([
      { type: 'function_call_output', call_id: 'b', output: 'pressed' },
      { type: 'function_call_output', call_id: 'a', output: expect.stringMatching(/Not executed/) },
    ]);
  });
});

describe('Anthropic prompt caching', () => {
  it('a long run still carries exactly two message breakpoints, on the two newest user messages', async () => {
    const items: TranscriptItem[] = [{ role: 'user', text: 'task' }];
    for (let i = 0; i < 30; i++) {
      items.push({ role: 'assistant', text: '', calls: [{ callId: `c${i}`, name: 'computer', input: {}, actions: [] }] });
      items.push({ role: 'tool_result', callId: `c${i}`, name: 'computer', ok: true, text: `step ${i}` });
    }
    const m = await renderMessages(items, 'computer_20250124', []);
    const marked = m.flatMap((msg, i) =>
      (msg.content as unknown as Array<Record<string, unknown>>).filter((b) => b.cache_control).map(() => i),
    );
    expect(marked).toEqual([m.length - 3, m.length - 1]);
  });
});

describe('Anthropic replay without provider state (a transcript rebuilt from an old log)', () => {
  it('synthesises text and tool_use blocks, marking toolset members', async () => {
    const items: TranscriptItem[] = [
      { role: 'user', text: 'task' },
      {
        role: 'assistant',
        text: 'ok',
        thinking: 'unsigned thinking cannot be replayed',
        calls: [
          { callId: 'm', name: 'left_click', input: { coordinate: [1, 2] }, actions: [] },
          { callId: 'f', name: 'finish', input: { success: true, summary: '' }, actions: [] },
        ],
      },
    ];
    const m = await renderMessages(items, 'computer_toolset_20260801', []);
    expect(m[1]!.content).toEqual([
      { type: 'text', text: 'ok' },
      { type: 'tool_use', id: 'm', name: 'left_click', input: { coordinate: [1, 2] }, toolset_name: 'computer' },
      { type: 'tool_use', id: 'f', name: 'finish', input: { success: true, summary: '' } },
    ]);
  });
});
