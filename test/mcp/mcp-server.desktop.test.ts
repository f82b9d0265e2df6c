import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalAnswer } from '../../src/shared/approvals.js';
import type { PushMessage } from '../../src/shared/bridge.js';
import type { RunEvent } from '../../src/shared/events.js';
import { startDesktop, type Desktop } from '../harness/desktop.js';
import { heldState } from '../harness/native-apps.js';
import { claude, finish, tempHome, toImagePoint, until } from '../e2e/support.js';
import { connectPage, spawnMcp, textOf, type McpUnderTest } from './support.js';

// `deskpilot mcp` as an MCP client starts it: the real bin spawned by the official SDK's
// stdio client, on a private X display with the probe page (Chromium, records every
// input event). What is asserted is what the probe received, the tool results the
// client got, the supervision page's approvals and the session written to history.

const SCREEN = { width: 1280, height: 800 };
const TEXT = 'Grüße 👋 — Ωμέγα “quotes” 日本';
let desktop: Desktop;
const home = tempHome('deskpilot-mcp-');

beforeAll(async () => {
  desktop = await startDesktop(SCREEN);
}, 60_000);

afterAll(async () => {
  await desktop?.stop();
  home.cleanup();
});

const env = (): Record<string, string> => ({
  ...(desktop.xvfb.env as Record<string, string>),
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  DESKPILOT_HOME: home.home,
  ANTHROPIC_API_KEY: 'sk-ant-test-key',
  OPENAI_API_KEY: '',
});

const inputEvents = (since: number) => desktop.probe.events().filter((e) => e.seq >= since && /pointer(down|up)|key(down|up)|input|click/.test(String(e.type)));

function sessionEvents(runId: string): RunEvent[] {
  return readFileSync(path.join(home.home, 'sessions', runId, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RunEvent);
}

function mcpSessions(): string[] {
  return readdirSync(path.join(home.home, 'sessions')).filter((id) => {
    const started = sessionEvents(id).find((e) => e.type === 'run_started');
    return started?.type === 'run_started' && started.labels.source === 'mcp';
  });
}

describe('deskpilot mcp (policy auto)', () => {
  let mcp: McpUnderTest;
  afterAll(async () => mcp?.close());

  it('lists its tools with JSON Schemas, takes a screenshot, clicks and types exact Unicode into the probe', async () => {
    const { probe } = desktop;
    await probe.reset();
    mcp = await spawnMcp(['--policy', 'auto'], env());
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['click', 'double_click', 'drag', 'element_tree', 'find_element', 'find_text', 'ground', 'key', 'move', 'run_task', 'screenshot', 'scroll', 'type', 'wait'].sort(),
    );
    const click = tools.find((t) => t.name === 'click')!;
    expect(click.inputSchema).toMatchObject({ type: 'object', required: ['x', 'y'] });
    expect(Object.keys(click.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['x', 'y', 'button', 'modifiers']));

    const shot = (await mcp.client.callTool({ name: 'screenshot', arguments: {} })) as CallToolResult;
    expect(shot.isError ?? false).toBe(false);
    const image = shot.content.find((c) => c.type === 'image');
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/jpeg' });
    const jpeg = Buffer.from((image as { data: string }).data, 'base64');
    expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(textOf(shot)).toContain('1280×800');

    const since = probe.nextSeq();
    const field = probe.fieldCenter();
    const clicked = (await mcp.client.callTool({ name: 'click', arguments: { x: field.x, y: field.y } })) as CallToolResult;
    expect(clicked.isError ?? false, textOf(clicked)).toBe(false);
    await probe.expectClickAt(field.x, field.y);
    // An action answers with the screenshot after it, as image content, and says its size.
    const after = clicked.content.find((c) => c.type === 'image') as { data: string; mimeType: string } | undefined;
    expect(after?.mimeType).toBe('image/jpeg');
    expect(Buffer.from(after!.data, 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(textOf(clicked)).toMatch(/The screenshot after it, 1280×800 pixels/);
    const typed = (await mcp.client.callTool({ name: 'type', arguments: { text: TEXT } })) as CallToolResult;
    expect(typed.isError ?? false, textOf(typed)).toBe(false);
    expect(await probe.textValue()).toBe(TEXT);
    expect(inputEvents(since).length).toBeGreaterThan(0);
    // Nothing but the protocol came on stdout: the client's transport parsed every line.
    expect(mcp.transportErrors).toEqual([]);
  }, 120_000);

  it('answers a point outside the screenshot with a tool error that names the range, and clicks nothing', async () => {
    const since = desktop.probe.nextSeq();
    const result = (await mcp.client.callTool({ name: 'click', arguments: { x: 5000, y: 10 } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/1280/);
    expect(inputEvents(since)).toEqual([]);
  }, 60_000);

  it('runs a whole task with its own model (run_task) and returns the summary and the session id', async () => {
    const { probe, fake } = desktop;
    await probe.reset();
    fake.script(
      (req) => ({ text: 'Clicking the field.', toolCalls: [claude.click(...toImagePoint(req, SCREEN, probe.fieldCenter()))] }),
      { text: 'Typing.', toolCalls: [claude.type('from run_task ✓')] },
      { text: 'Done.', toolCalls: [finish(true, 'typed it')] },
    );
    await mcp.close();
    mcp = await spawnMcp(['--policy', 'auto', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl], env());
    // A whole run in one call: the SDK's 60 s default is not a run's length on a loaded 2-core machine.
    const result = (await mcp.client.callTool({ name: 'run_task', arguments: { task: 'type into the field' } }, undefined, { timeout: 110_000 })) as CallToolResult;
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const text = textOf(result);
    expect(text).toMatch(/^done: typed it/);
    const runId = /session id: (\S+)/.exec(text)?.[1];
    expect(runId).toBeTruthy();
    expect(sessionEvents(runId!).find((e) => e.type === 'run_ended')).toMatchObject({ status: 'done', summary: 'typed it' });
    expect(await probe.textValue()).toBe('from run_task ✓');
  }, 120_000);

  it("run_task's own clicks and keys do not pause the session that hosts it: the next tool call acts at once (issue 27 item 2)", async () => {
    const { probe, fake } = desktop;
    await probe.reset();
    await mcp.close();
    mcp = await spawnMcp(['--policy', 'auto', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl], env());
    // The session exists (and its takeover watch runs) before the hosted run moves the pointer and types.
    const shot = (await mcp.client.callTool({ name: 'screenshot', arguments: {} })) as CallToolResult;
    expect(shot.isError ?? false, textOf(shot)).toBe(false);
    fake.script(
      (req) => ({ text: 'Clicking the field.', toolCalls: [claude.click(...toImagePoint(req, SCREEN, probe.fieldCenter()))] }),
      { text: 'Typing.', toolCalls: [claude.type('hosted')] },
      { text: 'Done.', toolCalls: [finish(true, 'typed it')] },
    );
    const task = (await mcp.client.callTool({ name: 'run_task', arguments: { task: 'type into the field' } }, undefined, { timeout: 110_000 })) as CallToolResult;
    expect(task.isError ?? false, textOf(task)).toBe(false);
    expect(await probe.textValue()).toBe('hosted');
    // The session's next call: a paused session would hold it and say so in a progress note
    // (and hang until a person resumed); the call ends at the first such note.
    const notes: string[] = [];
    let paused: (note: string) => void = () => {};
    const pausedNote = new Promise<string>((resolve) => (paused = resolve));
    const since = probe.nextSeq();
    const call = mcp.client.callTool({ name: 'type', arguments: { text: ' then the session' } }, undefined, {
      onprogress: (p: Progress) => {
        notes.push(String(p.message ?? ''));
        if (/paused/.test(String(p.message ?? ''))) paused(String(p.message));
      },
      timeout: 110_000,
    }) as Promise<CallToolResult>;
    const first = await Promise.race([call.then((r) => ({ result: r })), pausedNote.then((note) => ({ note }))]);
    expect(first, `the call was held: ${notes.join(' | ')}`).toHaveProperty('result');
    const result = (first as { result: CallToolResult }).result;
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(notes.filter((n) => /paused/.test(n))).toEqual([]);
    expect(await probe.textValue()).toBe('hosted then the session');
    expect(inputEvents(since).length).toBeGreaterThan(0);
  }, 300_000);

  it('logs the MCP session in the history: its actions, and done when the client closes', async () => {
    await mcp.close();
    // The session of the first test: its click and typing, as a run's are.
    const ids = await until(() => {
      const found = mcpSessions().filter((id) => sessionEvents(id).some((e) => e.type === 'run_ended'));
      return found.length ? found : undefined;
    }, 30_000, 'an ended MCP session in the history');
    const events = ids.flatMap((id) => sessionEvents(id));
    const executed = events.filter((e): e is Extract<RunEvent, { type: 'action_executed' }> => e.type === 'action_executed');
    expect(executed.map((e) => e.action.type)).toEqual(expect.arrayContaining(['click', 'type']));
    expect(executed.find((e) => e.action.type === 'type')).toMatchObject({ ok: true, action: { text: TEXT }, by: { kind: 'mode', detail: 'auto' } });
    expect(events.find((e) => e.type === 'run_ended')).toMatchObject({ status: 'done' });
  }, 60_000);
});

describe('deskpilot mcp (policy ask): approvals on the supervision page', () => {
  it('nothing reaches the probe until the page approves; a rejection is a tool error with the reason', async () => {
    const { probe } = desktop;
    await probe.reset();
    const mcp = await spawnMcp(['--policy', 'ask'], env());
    const page = await connectPage(await mcp.pageUrl());
    try {
      const requested = (after: number) =>
        until(
          () => page.pushes.slice(after).find((m): m is Extract<PushMessage, { kind: 'event' }> => m.kind === 'event' && m.event.type === 'approval_requested'),
          60_000,
          'an approval request on the page',
        );
      const answer = async (after: number, reply: ApprovalAnswer) => {
        const push = await requested(after);
        const event = push.event as Extract<RunEvent, { type: 'approval_requested' }>;
        const result = await page.call('approval.answer', { runId: event.runId, proposalId: event.proposalId, answer: reply });
        expect(result).toMatchObject({ ok: true, output: { accepted: true } });
      };

      const field = probe.fieldCenter();
      const since = probe.nextSeq();
      let mark = page.pushes.length;
      // The client asks for progress (the SDK sends a progressToken and resets its 60 s timeout on each note).
      const notes: Progress[] = [];
      const clicking = mcp.client.callTool({ name: 'click', arguments: { x: field.x, y: field.y } }, undefined, {
        onprogress: (p) => notes.push(p),
        resetTimeoutOnProgress: true,
      }) as Promise<CallToolResult>;
      await requested(mark);
      // Held: the client hears why at once, and again while it waits (every 10 s); the probe has seen nothing.
      await until(() => (notes.length >= 2 ? true : undefined), 30_000, `two progress notes (${JSON.stringify(notes)})`);
      expect(notes[0]!.message).toMatch(/^waiting for a person to approve click .* in DeskPilot/);
      expect(notes[1]!.message).toMatch(/^still waiting for approval \(\d+ s\)/);
      expect(inputEvents(since)).toEqual([]);
      await answer(mark, { decision: 'approve' });
      const clicked = await clicking;
      expect(clicked.isError ?? false, textOf(clicked)).toBe(false);
      await probe.expectClickAt(field.x, field.y);
      expect(notes.at(-1)!.message).toBe('approved: running it');
      // Progress only rises, and no note carries the page's token (it answers approvals).
      expect(notes.map((n) => n.progress)).toEqual(notes.map((_, i) => i + 1));
      const token = new URL(await mcp.pageUrl()).searchParams.get('token')!;
      for (const n of notes) expect(n.message).not.toContain(token);

      mark = page.pushes.length;
      const typeSince = probe.nextSeq();
      const rejectedNotes: Progress[] = [];
      const typing = mcp.client.callTool({ name: 'type', arguments: { text: 'never typed' } }, undefined, { onprogress: (p) => rejectedNotes.push(p) }) as Promise<CallToolResult>;
      await answer(mark, { decision: 'reject', feedback: 'not this text' });
      const refused = await typing;
      expect(rejectedNotes.map((n) => n.message)).toEqual([expect.stringMatching(/^waiting for a person to approve type/), 'rejected']);
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('rejected');
      expect(textOf(refused)).toContain('not this text');
      expect(inputEvents(typeSince)).toEqual([]);
      expect(await probe.textValue()).toBe('');
      expect(mcp.transportErrors).toEqual([]);
    } finally {
      page.close();
      await mcp.close();
    }
  }, 150_000);
});

describe('deskpilot mcp (policy ask): run_task', () => {
  it("tells the client while the task's own action waits for approval on the page", async () => {
    const { probe, fake } = desktop;
    await probe.reset();
    fake.script(
      (req) => ({ text: 'Clicking the field.', toolCalls: [claude.click(...toImagePoint(req, SCREEN, probe.fieldCenter()))] }),
      { text: 'Done.', toolCalls: [finish(true, 'clicked it')] },
    );
    const mcp = await spawnMcp(['--policy', 'ask', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl], env());
    const page = await connectPage(await mcp.pageUrl());
    try {
      const notes: Progress[] = [];
      const running = mcp.client.callTool({ name: 'run_task', arguments: { task: 'click the field' } }, undefined, { onprogress: (p) => notes.push(p), resetTimeoutOnProgress: true }) as Promise<CallToolResult>;
      const push = await until(
        () => page.pushes.find((m): m is Extract<PushMessage, { kind: 'event' }> => m.kind === 'event' && m.event.type === 'approval_requested'),
        60_000,
        'the task\'s approval request on the page',
      );
      await until(() => (notes.length >= 1 ? true : undefined), 30_000, 'a progress note');
      expect(notes[0]!.message).toMatch(/^waiting for a person to approve click/);
      const event = push.event as Extract<RunEvent, { type: 'approval_requested' }>;
      expect(await page.call('approval.answer', { runId: event.runId, proposalId: event.proposalId, answer: { decision: 'approve' } })).toMatchObject({ ok: true });
      const result = await running;
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(textOf(result)).toMatch(/^done: clicked it/);
      expect(notes.at(-1)!.message).toBe('approved: running it');
      await probe.expectClickAt(probe.fieldCenter().x, probe.fieldCenter().y);
    } finally {
      page.close();
      await mcp.close();
    }
  }, 150_000);
});

describe('deskpilot mcp: the kill switch', () => {
  it('Stop on the page ends the call in flight (a run stop: everything held is released), and the next call starts a new session', async () => {
    const { probe, xvfb } = desktop;
    await probe.reset();
    const mcp = await spawnMcp(['--policy', 'auto'], env());
    const page = await connectPage(await mcp.pageUrl());
    try {
      // A call in flight for as long as the test needs (55 s unless stopped; the client's request timeout is 60 s).
      const waiting = mcp.client.callTool({ name: 'wait', arguments: { ms: 55_000 } }) as Promise<CallToolResult>;
      const executing = await until(
        () => page.pushes.find((m): m is Extract<PushMessage, { kind: 'event' }> => m.kind === 'event' && m.event.type === 'action_proposed'),
        60_000,
        'the wait on the page',
      );
      expect(await page.call('run.stop', { runId: executing.event.runId })).toMatchObject({ ok: true });
      const stopped = await waiting;
      expect(stopped.isError).toBe(true);
      expect(textOf(stopped)).toMatch(/stopped by the person/);
      expect(heldState(xvfb)).toMatchObject({ keys: [], buttons: [] });
      // The next call works, in a new DeskPilot session.
      const shot = (await mcp.client.callTool({ name: 'screenshot', arguments: {} })) as CallToolResult;
      expect(shot.isError ?? false, textOf(shot)).toBe(false);
      const runIds = new Set(page.pushes.flatMap((m) => (m.kind === 'run_state' && m.runId ? [m.runId] : [])));
      expect(runIds.size).toBe(2);
    } finally {
      page.close();
      await mcp.close();
    }
  }, 150_000);
});
