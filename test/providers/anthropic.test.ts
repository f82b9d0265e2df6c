import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/main/agent/providers/index.js';
import type { TranscriptItem } from '../../src/main/agent/transcript.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { builtinTools, FAST_RETRY, image, observation, signal } from './helpers.js';

let fake: FakeModelServer;
beforeEach(async () => {
  fake = await startFakeModel();
});
afterEach(async () => {
  await fake.close();
});

const claude = (model: string, extra: Record<string, unknown> = {}) =>
  createProvider({ provider: 'anthropic', model, ...extra }, { apiKey: 'k', baseUrl: fake.anthropicBaseUrl, timeoutMs: 5000, retry: FAST_RETRY });

const firstUser: TranscriptItem = { role: 'user', text: 'Open the menu', image: image(1280, 800) };

describe('Anthropic GA computer toolset (computer_toolset_20260801)', () => {
  it('streams a turn with thinking and several member calls, parsed into actions in image pixels', async () => {
    fake.script((req) => ({
      thinking: 'The menu is at the top left.',
      signature: 'sig-A',
      text: `I see a ${req.images[0]!.width}x${req.images[0]!.height} screen.`,
      toolCalls: [
        { id: 'toolu_1', name: 'left_click', toolsetName: 'computer', input: { coordinate: [req.images[0]!.width - 1, 50], text: 'ctrl' } },
        { id: 'toolu_2', name: 'type', toolsetName: 'computer', input: { text: 'hello 👋 wörld' } },
        { id: 'toolu_3', name: 'zoom', toolsetName: 'computer', input: { region: [10, 20, 110, 70] } },
      ],
      usage: { input: 1500, output: 80, cacheRead: 1200, cacheWrite: 300 },
      chunkSize: 4,
    }));
    const deltas: Array<[string, string]> = [];
    const turn = await claude('claude-sonnet-5-5').turn(
      { system: 'You are DeskPilot.', transcript: [firstUser], observation: observation(1280, 800), tools: builtinTools('finish', 'ask_user') },
      signal(),
      { onDelta: (t, k) => deltas.push([k, t]) },
    );
    const req = fake.requests[0]!;
    expect(req.headers['anthropic-beta']).toBeUndefined();
    expect(req.stream).toBe(true);
    expect((req.body.tools as Array<Record<string, unknown>>)[0]).toEqual({ type: 'computer_toolset_20260801' });
    expect(req.toolNames).toEqual(['computer_toolset_20260801', 'finish', 'ask_user']);
    expect(req.images).toEqual([expect.objectContaining({ width: 1280, height: 800, mediaType: 'image/jpeg' })]);
    expect(req.lastUserText).toBe('Open the menu');
    expect((req.body.system as Array<Record<string, unknown>>)[0]).toMatchObject({ text: 'You are DeskPilot.', cache_control: { type: 'ephemeral' } });

    expect(deltas.filter(([k]) => k === 'text').map(([, t]) => t).join('')).toBe('I see a 1280x800 screen.');
    expect(deltas.filter(([k]) => k === 'thinking').map(([, t]) => t).join('')).toBe('The menu is at the top left.');
    expect(turn.stopReason).toBe('tool_use');
    expect(turn.assistant.text).toBe('I see a 1280x800 screen.');
    expect(turn.assistant.thinking).toBe('The menu is at the top left.');
    expect(turn.assistant.calls.map((c) => [c.callId, c.name])).toEqual([['toolu_1', 'left_click'], ['toolu_2', 'type'], ['toolu_3', 'zoom']]);
    expect(turn.assistant.calls[0]!.actions).toEqual([
      { ok: true, action: { type: 'click', x: 1279, y: 50, button: 'left', clicks: 1, modifiers: ['ctrl'] } },
    ]);
    expect(turn.assistant.calls[1]!.actions).toEqual([{ ok: true, action: { type: 'type', text: 'hello 👋 wörld' } }]);
    expect(turn.assistant.calls[2]!.actions).toEqual([{ ok: true, action: { type: 'zoom', region: { x: 10, y: 20, width: 100, height: 50 } } }]);
    expect(turn.usage).toEqual({ inputTokens: 1500, outputTokens: 80, cacheReadTokens: 1200, cacheWriteTokens: 300 });
  });

  it('answers every call id on the next request, replays the signed thinking, sends nothing for a pruned image', async () => {
    fake.script(
      { thinking: 'plan', signature: 'sig-B', toolCalls: [
        { id: 'toolu_a', name: 'left_click', toolsetName: 'computer', input: { coordinate: [5, 5] } },
        { id: 'toolu_b', name: 'key', toolsetName: 'computer', input: { text: 'Return' } },
      ] },
      { text: 'done', toolCalls: [{ id: 'toolu_f', name: 'finish', input: { success: true, summary: 'ok' } }] },
    );
    const p = claude('claude-opus-5-5');
    const obs = observation(1024, 640);
    const transcript: TranscriptItem[] = [{ role: 'user', text: 'go', image: image(1024, 640), imagePruned: true }];
    const t1 = await p.turn({ system: 's', transcript, observation: obs, tools: builtinTools('finish') }, signal());
    transcript.push(t1.assistant);
    // The first call failed, so the runner stopped there and answered only it.
    transcript.push({ role: 'tool_result', callId: 'toolu_a', name: 'left_click', ok: false, text: 'the window moved', image: image(1024, 640) });
    const t2 = await p.turn({ system: 's', transcript, observation: obs, tools: builtinTools('finish') }, signal());

    const req = fake.requests[1]!;
    expect(req.toolResults.map((r) => [r.callId, r.isError])).toEqual([['toolu_a', true], ['toolu_b', true]]);
    expect(req.toolResults[0]!.text).toBe('the window moved');
    expect(req.toolResults[0]!.images[0]).toMatchObject({ width: 1024, height: 640 });
    expect(req.toolResults[1]!.text).toMatch(/Not executed/);
    const messages = req.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    // A pruned image leaves no note behind (issue 19: notes grew every request).
    expect(messages[0]!.content).toEqual([{ type: 'text', text: 'go', cache_control: { type: 'ephemeral' } }]);
    expect(messages[1]!.content[0]).toEqual({ type: 'thinking', thinking: 'plan', signature: 'sig-B' });
    expect(messages[1]!.content[1]).toMatchObject({ type: 'tool_use', id: 'toolu_a', toolset_name: 'computer' });
    expect(messages[2]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_a', toolset_name: 'computer' });
    // Prompt caching: the last two user messages end on a breakpoint.
    expect(messages[2]!.content.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    expect(messages[0]!.content.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    expect(t2.assistant.calls[0]!.actions).toEqual([{ ok: true, action: { type: 'finish', success: true, summary: 'ok' } }]);
  });
});

describe('Anthropic dated beta tools', () => {
  it('computer_20250124 for Sonnet 4.5: beta header, display size = image size, action in input', async () => {
    fake.script({ toolCalls: [{ id: 't', name: 'computer', input: { action: 'scroll', coordinate: [100, 200], scroll_direction: 'down', scroll_amount: 4 } }] });
    const turn = await claude('claude-haiku-4-5').turn({ system: 's', transcript: [firstUser], observation: observation(1280, 800), tools: [] }, signal());
    const req = fake.requests[0]!;
    expect(req.headers['anthropic-beta']).toContain('computer-use-2025-01-24');
    expect((req.body.tools as unknown[])[0]).toEqual({ type: 'computer_20250124', name: 'computer', display_width_px: 1280, display_height_px: 800 });
    expect(turn.assistant.calls[0]!.actions).toEqual([{ ok: true, action: { type: 'scroll', x: 100, y: 200, direction: 'down', amount: 4, modifiers: [] } }]);
  });

  it('computer_20251124 with zoom for Opus 4.6, and profile.toolVersion overrides the choice', async () => {
    fake.script({ text: 'a' }, { text: 'b' });
    await claude('claude-opus-4-6').turn({ system: 's', transcript: [firstUser], observation: observation(1280, 800), tools: [] }, signal());
    await claude('claude-opus-5-5', { toolVersion: 'computer_20250124' }).turn({ system: 's', transcript: [firstUser], observation: observation(1280, 800), tools: [] }, signal());
    expect(fake.requests[0]!.headers['anthropic-beta']).toContain('computer-use-2025-11-24');
    expect((fake.requests[0]!.body.tools as unknown[])[0]).toMatchObject({ type: 'computer_20251124', enable_zoom: true, display_width_px: 1280 });
    expect((fake.requests[1]!.body.tools as unknown[])[0]).toMatchObject({ type: 'computer_20250124' });
  });

  it('thinking: a budget for older models, adaptive + effort for newer ones', async () => {
    fake.script({ text: 'a' }, { text: 'b' });
    await claude('claude-haiku-4-5', { thinking: 'high' }).turn({ system: 's', transcript: [firstUser], observation: observation(1280, 800), tools: [] }, signal());
    await claude('claude-sonnet-5-5', { thinking: 'low' }).turn({ system: 's', transcript: [firstUser], observation: observation(1280, 800), tools: [] }, signal());
    expect(fake.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 24576 });
    expect(fake.requests[0]!.body.max_tokens as number).toBeGreaterThan(24576);
    expect(fake.requests[1]!.body.thinking).toEqual({ type: 'adaptive' });
    expect(fake.requests[1]!.body.output_config).toEqual({ effort: 'low' });
  });

  it('screenshot sizing per model by what grounding needs, through os-control\'s sizing rule', async () => {
    const { targetSize } = await import('../../src/os-control/image.js');
    const patches = (s: { width: number; height: number }) => Math.ceil(s.width / 28) * Math.ceil(s.height / 28);
    const area = (s: { width: number; height: number }) => s.width * s.height;
    const screen = { width: 1920, height: 1080 };
    // computer_20250124 cannot zoom: the XGA area (1024×768) the computer-use docs recommend.
    const older = targetSize(screen.width, screen.height, claude('claude-haiku-4-5').imageTarget(screen));
    expect(area(older)).toBeLessThanOrEqual(1024 * 768);
    expect(area(older)).toBeGreaterThan(0.98 * 1024 * 768);
    expect(patches(older)).toBeLessThanOrEqual(1568);
    // Models that zoom get a 1024×576 overview on 16:9 and ask for detail.
    for (const model of ['claude-sonnet-4-6', 'claude-sonnet-5-5', 'claude-opus-5-5']) {
      expect(targetSize(screen.width, screen.height, claude(model).imageTarget(screen))).toEqual({ width: 1024, height: 576 });
    }
    // A small screen is never upscaled.
    expect(targetSize(800, 600, claude('claude-opus-5-5').imageTarget({ width: 800, height: 600 }))).toEqual({ width: 800, height: 600 });
  });

  it('a profile\'s screenshot caps replace the chosen size; the model\'s own long-edge limit still holds', async () => {
    const { targetSize } = await import('../../src/os-control/image.js');
    const screen = { width: 2560, height: 1440 };
    const wide = claude('claude-sonnet-4-6', { screenshot: { maxLongEdge: 1400, maxPixels: 4_000_000 } }).imageTarget(screen);
    expect(targetSize(screen.width, screen.height, wide)).toEqual({ width: 1400, height: 787 });
    const tooWide = claude('claude-sonnet-4-6', { screenshot: { maxLongEdge: 4000, maxPixels: 60_000_000 } }).imageTarget(screen);
    expect(Math.max(...Object.values(targetSize(screen.width, screen.height, tooWide)))).toBeLessThanOrEqual(1568);
    const { ConfigSchema } = await import('../../src/shared/config.js');
    expect(ConfigSchema.safeParse({ profiles: { c: { provider: 'anthropic', model: 'm', screenshot: { maxLongEdge: 10 } } } }).success).toBe(false);
  });
});

describe('Anthropic malformed tool calls become error entries', () => {
  it('unknown members, missing or hostile coordinates, unknown tools, bad keys', async () => {
    fake.script({
      toolCalls: [
        { name: 'teleport', toolsetName: 'computer', input: {} },
        { name: 'left_click', toolsetName: 'computer', input: { coordinate: [-5, 10] } },
        { name: 'left_click', toolsetName: 'computer', input: { coordinate: ['12', 10] } },
        { name: 'mouse_move', toolsetName: 'computer', input: {} },
        { name: 'key', toolsetName: 'computer', input: { text: 'ctrl+hyperdrive' } },
        { name: 'type', toolsetName: 'computer', input: { text: 'x'.repeat(10_001) } },
        { name: 'rm_rf', input: {} },
        { name: 'left_click', toolsetName: 'computer', input: { coordinate: [1e9, 5] } },
      ],
    });
    const turn = await claude('claude-sonnet-5-5').turn({ system: 's', transcript: [firstUser], observation: observation(1280, 800), tools: [] }, signal());
    const errors = turn.assistant.calls.map((c) => (c.actions[0]!.ok ? 'OK' : c.actions[0]!.error));
    expect(errors[0]).toMatch(/unknown computer action "teleport"/);
    expect(errors[1]).toMatch(/outside the screenshot/);
    expect(errors[2]).toMatch(/two finite numbers/);
    expect(errors[3]).toMatch(/coordinate must be \[x, y\]/);
    expect(errors[4]).toMatch(/invalid keys "ctrl\+hyperdrive"/);
    expect(errors[5]).toMatch(/invalid type action/);
    expect(errors[6]).toMatch(/unknown tool "rm_rf"/);
    expect(errors[7]).toMatch(/outside the screenshot/);
  });

  it("fields the reference executor refuses are refused with the reason, in both wire shapes (issue 26 item 4)", async () => {
    fake.script({
      toolCalls: [
        { name: 'left_mouse_down', toolsetName: 'computer', input: { coordinate: [5, 5] } },
        { name: 'key', toolsetName: 'computer', input: { text: 'Return', coordinate: [5, 5] } },
        { name: 'scroll', toolsetName: 'computer', input: { coordinate: [5, 5], scroll_direction: 'down' } },
        { name: 'left_click', toolsetName: 'computer', input: { action: 'right_click', coordinate: [5, 5] } },
        { name: 'left_click', toolsetName: 'computer', input: { action: 'left_click', coordinate: [5, 5], text: null } },
      ],
    });
    // computer_20250124: one tool "computer", the action inside its input.
    fake.script({
      toolCalls: [
        { name: 'computer', input: { action: 'left_mouse_up', coordinate: [5, 5] } },
        { name: 'computer', input: { action: 'mouse_move', coordinate: [5, 5], text: 'shift' } },
      ],
    });
    const ask = { system: 's', transcript: [firstUser], observation: observation(1280, 800), tools: [] };
    const calls = [...(await claude('claude-sonnet-5-5').turn(ask, signal())).assistant.calls, ...(await claude('claude-sonnet-4-5').turn(ask, signal())).assistant.calls];
    const errors = calls.map((c) => (c.actions[0]!.ok ? 'OK' : c.actions[0]!.error));
    expect(errors).toEqual([
      'left_mouse_down: coordinate is not accepted for left_mouse_down (it takes no other field; it acts at the pointer: move there first with mouse_move)',
      'key: coordinate is not accepted for key (it takes text, repeat; it goes to the focused window: click the field first)',
      'scroll: scroll_amount is required (the number of wheel notches; 0 scrolls nothing)',
      'left_click: action is not accepted for left_click (it takes coordinate, text, key; leave it out)',
      'OK',
      'left_mouse_up: coordinate is not accepted for left_mouse_up (it takes no other field; it acts at the pointer: move there first with mouse_move)',
      'mouse_move: text is not accepted for mouse_move (it takes coordinate; send keys and text with key, hold_key or type)',
    ]);
  });

  it('a click without a coordinate acts at the pointer when the observation knows it', async () => {
    fake.script({ toolCalls: [{ name: 'double_click', toolsetName: 'computer', input: {} }] });
    // cursor at (1280, 800) on a 2560×1600 display → (640, 400) in a 1280×800 image
    const turn = await claude('claude-sonnet-5-5').turn({ system: 's', transcript: [firstUser], observation: observation(1280, 800, { x: 1280, y: 800 }), tools: [] }, signal());
    expect(turn.assistant.calls[0]!.actions).toEqual([{ ok: true, action: { type: 'click', x: 640, y: 400, button: 'left', clicks: 2, modifiers: [] } }]);
  });
});
