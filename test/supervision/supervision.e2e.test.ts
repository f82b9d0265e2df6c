/**
 * Supervision end to end: the real runner (startRun), the real Anthropic SDK talking
 * to the loopback fake model, real input on Xvfb into the Chromium probe and xterm.
 * What is asserted is what the probe and the model server received.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { heldState, startXterm, type NativeApp } from '../harness/native-apps.js';
import { startProbe, type Probe } from '../harness/probe/probe.js';
import { startFakeModel, type FakeModelServer, type FakeRequest, type FakeToolCall } from '../harness/fake-model/index.js';
import { ConfigSchema, type Config } from '../../src/shared/config.js';
import type { PolicyMode } from '../../src/shared/approvals.js';
import type { RunEvent, RunEventOf } from '../../src/shared/events.js';
import type { Computer } from '../../src/os-control/types.js';
import type { RunHandle } from '../../src/main/agent/run-api.js';

const SCREEN = { width: 1280, height: 800 };
let xvfb: Xvfb;
let probe: Probe;
let xterm: NativeApp;
let fake: FakeModelServer;
let computer: Computer;
let startRun: typeof import('../../src/main/agent/runner.js').startRun;
let home: string;

beforeAll(async () => {
  xvfb = await startXvfb(SCREEN);
  process.env.DISPLAY = xvfb.display;
  ({ startRun } = await import('../../src/main/agent/runner.js'));
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = createComputer();
  probe = await startProbe(xvfb, { x: 0, y: 0, width: 900, height: 650 });
  xterm = await startXterm(xvfb, { cols: 40, rows: 10, x: 930, y: 420 });
  fake = await startFakeModel();
  home = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-supervision-'));
});
afterAll(async () => {
  await fake?.close();
  await xterm?.stop();
  await probe?.close();
  await xvfb?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A screen point in the pixel space of the screenshot in this request, as a model would compute it. */
function img(req: FakeRequest, p: { x: number; y: number }): [number, number] {
  const image = req.images[req.images.length - 1];
  if (!image) throw new Error(`request #${req.index} carries no image`);
  return [Math.round((p.x * image.width) / SCREEN.width), Math.round((p.y * image.height) / SCREEN.height)];
}

const claude = {
  click: (req: FakeRequest, p: { x: number; y: number }): FakeToolCall => ({ name: 'computer', input: { action: 'left_click', coordinate: img(req, p) } }),
  type: (text: string): FakeToolCall => ({ name: 'computer', input: { action: 'type', text } }),
  key: (text: string): FakeToolCall => ({ name: 'computer', input: { action: 'key', text } }),
};
const shell = (command: string): FakeToolCall => ({ name: 'shell', input: { command } });
/** OpenAI Responses GA computer tool. */
const openai = {
  click: (req: FakeRequest, p: { x: number; y: number }, safetyChecks?: FakeToolCall['safetyChecks']): FakeToolCall => {
    const [x, y] = img(req, p);
    return { name: 'computer', input: { actions: [{ type: 'click', button: 'left', x, y }] }, ...(safetyChecks ? { safetyChecks } : {}) };
  },
  drag: (req: FakeRequest, path: Array<{ x: number; y: number }>): FakeToolCall => ({
    name: 'computer',
    input: { actions: [{ type: 'drag', path: path.map((p) => { const [x, y] = img(req, p); return { x, y }; }) }] },
  }),
};
const finish = (summary: string): FakeToolCall => ({ name: 'finish', input: { success: true, summary } });

function configWith(policy: Partial<Config['policy']> = {}, extra: Record<string, unknown> = {}): Config {
  return ConfigSchema.parse({ policy: { mode: 'ask', rules: [], ...policy }, ...extra });
}

interface Started {
  handle: RunHandle;
  events: RunEvent[];
  /** Resolves with the first event of this type (after `from`) matching the predicate. */
  next<T extends RunEvent['type']>(type: T, predicate?: (e: RunEventOf<T>) => boolean, timeoutMs?: number): Promise<RunEventOf<T>>;
}

async function start(task: string, policy: PolicyMode, config: Config, family: 'anthropic' | 'openai' = 'anthropic'): Promise<Started> {
  const events: RunEvent[] = [];
  const handle = await startRun({
    task,
    profile:
      family === 'anthropic'
        ? { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl }
        : { provider: 'openai', model: 'gpt-5.4', baseUrl: fake.openaiBaseUrl },
    apiKey: 'test-key',
    policy,
    limits: { maxSteps: 20, maxWallMs: 120_000, maxCostUsd: 5 },
    config,
    computer,
    home,
    onEvent: (e) => events.push(e),
  });
  const seen = new Set<RunEvent>();
  return {
    handle,
    events,
    async next(type, predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = events.find((e) => !seen.has(e) && e.type === type && (!predicate || predicate(e as RunEventOf<typeof type>)));
        if (hit) {
          seen.add(hit);
          return hit as RunEventOf<typeof type>;
        }
        if (Date.now() > deadline) throw new Error(`no ${type} event within ${timeoutMs} ms; last: ${events.slice(-5).map((e) => e.type).join(', ')}`);
        await sleep(20);
      }
    },
  };
}

function activate(windowId: string): void {
  spawnSync('xdotool', ['windowactivate', '--sync', windowId], { env: xvfb.env });
}

describe('policy ask', () => {
  it('the probe receives nothing until approval; edit runs the edited action; reject sends the feedback to the model', async () => {
    await probe.reset();
    activate(probe.windowId);
    const field = probe.fieldCenter();
    let feedbackRequest: FakeRequest | undefined;
    fake.script(
      (req) => ({ toolCalls: [claude.click(req, field)] }),
      () => ({ toolCalls: [claude.type('hello from the model')] }),
      () => ({ toolCalls: [claude.key('ctrl+a')] }),
      (req) => {
        feedbackRequest = req;
        return { toolCalls: [finish('done')] };
      },
    );
    const run = await start('type into the field', 'ask', configWith());
    const since = probe.nextSeq();

    // 1. The click waits: nothing reaches the probe until a person approves.
    const click = await run.next('approval_requested');
    expect(click.decision).toMatchObject({ verdict: 'ask', rule: 'mode:ask' });
    await sleep(600);
    expect(probe.events().filter((e) => e.seq >= since && e.type.startsWith('pointer') && e.type !== 'pointermove')).toEqual([]);
    // Two clients answer at once (same tick, and a third from another async path): exactly one wins.
    const late = Promise.resolve().then(() => run.handle.answerApproval(click.proposalId, { decision: 'reject', feedback: 'late' }, 'ws:3'));
    const answers = [
      run.handle.answerApproval(click.proposalId, { decision: 'approve' }, 'test-client'),
      run.handle.answerApproval(click.proposalId, { decision: 'reject', feedback: 'no' }, 'ws:2'),
      await late,
    ];
    expect(answers).toEqual([true, false, false]);
    await probe.expectClickAt(field.x, field.y, { sinceSeq: since, tolerance: 2 });
    const executedClick = await run.next('action_executed');
    expect(executedClick.by).toEqual({ kind: 'person', detail: 'test-client' });
    expect(run.events.filter((e) => e.type === 'approval_answered' && e.proposalId === click.proposalId)).toHaveLength(1);

    // 2. Edit: the probe receives the person's text, not the model's.
    const typed = await run.next('approval_requested');
    expect(run.handle.answerApproval(typed.proposalId, { decision: 'edit', action: { type: 'type', text: 'edited by a person' } }, 'test-client')).toBe(true);
    await probe.waitForText('edited by a person', 10_000);

    // 3. Reject with feedback: nothing happens, the next model request carries the feedback.
    const key = await run.next('approval_requested');
    expect(run.handle.answerApproval(key.proposalId, { decision: 'reject', feedback: 'please do not select everything' }, 'test-client')).toBe(true);
    const result = await run.handle.done;
    expect(result.status).toBe('done');
    expect(await probe.textValue()).toBe('edited by a person');
    expect(feedbackRequest!.toolResults.map((t) => t.text).join('\n')).toContain('please do not select everything');
  });
});

describe('policy risky', () => {
  it('a click runs unattended; ctrl+q, typing into xterm and a shell command wait', async () => {
    await probe.reset();
    activate(probe.windowId);
    const field = probe.fieldCenter();
    const xg = xterm.geometry();
    const inXterm = { x: xg.x + xg.width / 2, y: xg.y + xg.height / 2 };
    fake.script(
      (req) => ({ toolCalls: [claude.click(req, field)] }),
      () => ({ toolCalls: [claude.key('ctrl+q')] }),
      (req) => ({ toolCalls: [claude.click(req, inXterm)] }),
      () => ({ toolCalls: [claude.type('echo risky')] }),
      () => ({ toolCalls: [shell('echo from-shell')] }),
      () => ({ toolCalls: [finish('done')] }),
    );
    const since = probe.nextSeq();
    const run = await start('risky things', 'risky', configWith({ mode: 'risky' }));

    // The click at the probe ran without asking.
    await probe.expectClickAt(field.x, field.y, { sinceSeq: since, tolerance: 2 });
    const first = await run.next('action_executed');
    expect(first.by).toEqual({ kind: 'mode', detail: 'risky' });

    const quit = await run.next('approval_requested');
    expect(quit.decision.rule).toBe('risk:destructive-combo');
    run.handle.answerApproval(quit.proposalId, { decision: 'reject' }, 'test-client');

    // The click into xterm runs unattended; the typing there waits.
    const intoTerminal = await run.next('approval_requested');
    expect(intoTerminal.decision.rule).toBe('risk:terminal-type');
    const executed = run.events.filter((e): e is RunEventOf<'action_executed'> => e.type === 'action_executed');
    expect(executed.map((e) => e.action.type)).toEqual(['click', 'click']);
    run.handle.answerApproval(intoTerminal.proposalId, { decision: 'reject' }, 'test-client');

    const sh = await run.next('approval_requested');
    expect(sh.decision.rule).toBe('risk:shell');
    run.handle.answerApproval(sh.proposalId, { decision: 'reject' }, 'test-client');
    expect((await run.handle.done).status).toBe('done');
    // Nothing of the rejected actions ran.
    expect(run.events.filter((e) => e.type === 'action_executed')).toHaveLength(2);
  });
});

describe('user deny rules', () => {
  it('block an action even in auto mode; the model is told it was refused', async () => {
    await probe.reset();
    activate(probe.windowId);
    const field = probe.fieldCenter();
    let after: FakeRequest | undefined;
    fake.script(
      (req) => ({ toolCalls: [claude.click(req, field), claude.type('transfer all money')] }),
      (req) => {
        after = req;
        return { toolCalls: [finish('done')] };
      },
    );
    const run = await start('deny', 'auto', configWith({ mode: 'auto', rules: [{ effect: 'deny', textPattern: 'transfer', reason: 'no money transfers' }] }));
    const denied = await run.next('action_denied');
    expect(denied.decision).toMatchObject({ verdict: 'deny', rule: 'user:deny:0', reason: 'no money transfers' });
    expect((await run.handle.done).status).toBe('done');
    expect(await probe.textValue()).toBe('');
    expect(after!.toolResults.map((t) => t.text).join('\n')).toContain('no money transfers');
  });
});

describe('human takeover', () => {
  it('moving the pointer during a run pauses it and says why', async () => {
    await probe.reset();
    activate(probe.windowId);
    const field = probe.fieldCenter();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    fake.script(
      (req) => ({ toolCalls: [claude.click(req, field)] }),
      // While the "model thinks", the person grabs the mouse.
      async () => {
        spawnSync('xdotool', ['mousemove', '--sync', '700', '500'], { env: xvfb.env });
        await gate;
        return { toolCalls: [finish('done')] };
      },
    );
    const run = await start('takeover', 'auto', configWith({ mode: 'auto' }, { takeover: 'pause' }));
    const paused = await run.next('state', (e) => e.state === 'paused');
    expect(paused.reason).toMatch(/^human takeover: pointer moved from \(\d+, \d+\) to \(700, 500\)$/);
    release();
    run.handle.stop();
    expect((await run.handle.done).status).toBe('stopped');
  });
});

describe('kill switch', () => {
  it('stop during a 2,000-character type ends the run "stopped" fast, leaves a strict prefix and nothing held', async () => {
    await probe.reset();
    activate(probe.windowId);
    const field = probe.fieldCenter();
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789 ';
    const text = Array.from({ length: 2_000 }, (_, i) => alphabet[(i * 31) % alphabet.length]).join('');
    fake.script((req) => ({ toolCalls: [claude.click(req, field), claude.type(text)] }));
    const run = await start('type a lot', 'auto', configWith({ mode: 'auto' }));
    // The probe answers late while Chromium works through a burst of keys, so the stop
    // is timed from the run's own events: 400 ms into the typing (which takes ~2.5 s).
    await run.next('action_proposed', (e) => e.action.type === 'type');
    await sleep(400);
    expect(run.events.some((e) => e.type === 'action_executed' && e.action.type === 'type')).toBe(false);
    const stopAt = performance.now();
    const stopEpoch = Date.now();
    run.handle.stop('stopped with the kill hotkey');
    const ended = await run.next('run_ended', undefined, 5_000);
    const ms = performance.now() - stopAt;
    console.log(`[stop] run ended "${ended.status}" ${ms.toFixed(1)} ms after the stop request (2,000-char type)`);
    expect(ended.status).toBe('stopped');
    await run.handle.done;
    // Let the page drain the keys sent before the stop, then check it stays put.
    let later = await probe.textValue();
    for (let settled = false; !settled; ) {
      await sleep(700);
      const again = await probe.textValue();
      settled = again === later;
      later = again;
    }
    const keydowns = probe.events().filter((e) => e.type === 'keydown');
    const lastKey = keydowns[keydowns.length - 1];
    const afterStop = keydowns.filter((e) => e.t > stopEpoch).length;
    console.log(
      `[stop] the probe holds ${later.length} of ${text.length} characters; ${afterStop} keys were still being delivered by X/Chromium after the stop, ` +
        `the last ${lastKey ? Math.round(lastKey.t - stopEpoch) : 0} ms after it`,
    );
    expect(later.length).toBeGreaterThan(0);
    expect(later.length).toBeLessThan(text.length);
    expect(text.startsWith(later)).toBe(true);
    expect(heldState(xvfb)).toEqual({ keys: [], keycodes: [], buttons: [] });
  });

  it('stop during a drag ends the run "stopped" fast and releases the button', async () => {
    await probe.reset();
    activate(probe.windowId);
    const pad = probe.padRect();
    // 40 waypoints zig-zagging across the pad: several seconds of dragging.
    const path = Array.from({ length: 40 }, (_, i) => ({
      x: pad.x + 20 + (i % 2 ? pad.width - 40 : 0),
      y: pad.y + 20 + Math.round(((pad.height - 40) * i) / 39),
    }));
    fake.script((req) => ({ toolCalls: [openai.drag(req, path)] }));
    const since = probe.nextSeq();
    const run = await start('drag a lot', 'auto', configWith({ mode: 'auto' }), 'openai');
    await run.next('action_proposed', (e) => e.action.type === 'drag');
    await probe.waitFor((e) => e.seq >= since && e.type === 'pointerdown' && e.button === 0, { timeoutMs: 10_000 });
    await sleep(200);
    expect(run.events.some((e) => e.type === 'action_executed')).toBe(false);
    const stopAt = performance.now();
    run.handle.stop('stopped with the kill hotkey');
    const ended = await run.next('run_ended', undefined, 5_000);
    const ms = performance.now() - stopAt;
    console.log(`[stop] run ended "${ended.status}" ${ms.toFixed(1)} ms after the stop request (drag)`);
    expect(ended.status).toBe('stopped');
    await run.handle.done;
    await probe.waitFor((e) => e.seq >= since && e.type === 'pointerup' && e.button === 0, { timeoutMs: 5_000 });
    expect(heldState(xvfb)).toEqual({ keys: [], keycodes: [], buttons: [] });
    await sleep(300);
    const quiet = probe.nextSeq();
    await sleep(500);
    expect(probe.events().filter((e) => e.seq >= quiet && e.type === 'pointermove')).toEqual([]);
    // It did not get to the end of the path.
    const last = path[path.length - 1]!;
    const moves = probe.events().filter((e) => e.seq >= since && e.type === 'pointermove').map((e) => probe.screenPos(e));
    expect(moves.some((p) => Math.abs(p.x - last.x) <= 2 && Math.abs(p.y - last.y) <= 2)).toBe(false);
  });
});

describe('provider safety checks', () => {
  it('are held for a person even in auto mode, never auto-approved, and the acknowledgement reaches the model', async () => {
    await probe.reset();
    activate(probe.windowId);
    const target = probe.fieldCenter();
    let next: FakeRequest | undefined;
    const checks = [{ id: 'sc_1', code: 'malicious_instructions', message: 'The page contains instructions to the agent.' }];
    fake.script(
      (req) => ({ toolCalls: [openai.click(req, target, checks)] }),
      (req) => {
        next = req;
        return { toolCalls: [finish('done')] };
      },
    );
    const since = probe.nextSeq();
    const run = await start('safety', 'auto', configWith({ mode: 'auto', countdownSeconds: 1 }), 'openai');
    const held = await run.next('approval_requested');
    expect(held.decision).toMatchObject({ rule: 'provider-safety-check', humanOnly: true });
    expect(held.countdownMs).toBeUndefined();
    await sleep(1_500); // longer than the configured countdown
    expect(probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown')).toEqual([]);
    expect(run.handle.answerApproval(held.proposalId, { decision: 'approve' }, 'test-client')).toBe(true);
    await probe.expectClickAt(target.x, target.y, { sinceSeq: since, tolerance: 2 });
    expect((await run.handle.done).status).toBe('done');
    expect(run.events.find((e) => e.type === 'action_executed')).toMatchObject({ by: { kind: 'person', detail: 'test-client' } });
    expect(next!.toolResults[0]!.acknowledgedSafetyChecks?.map((c) => c.id)).toEqual(['sc_1']);
  });
});
