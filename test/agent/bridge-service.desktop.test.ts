import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Computer } from '../../src/os-control/types.js';
import type { PushMessage } from '../../src/shared/bridge.js';
import type { RunEvent } from '../../src/shared/events.js';
import type { BridgeService, ClientInfo } from '../../src/main/service/types.js';
import { BridgeError } from '../../src/main/service/types.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startProbe, type Probe } from '../harness/probe/probe.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { claude, finish, tempHome, toImagePoint, until } from '../e2e/support.js';

// The bridge service behind both UI transports, with the real runner, a real screen
// (Xvfb + probe) and the fake model: contract validation, one run at a time, two
// clients answering one approval, live frames only while watched, run files.

const SCREEN = { width: 1280, height: 800 };
let xvfb: Xvfb;
let probe: Probe;
let fake: FakeModelServer;
let computer: Computer;
let service: BridgeService;
const home = tempHome();
const alice: ClientInfo = { id: 'ws:1', kind: 'ws' };
const bob: ClientInfo = { id: 'ws:2', kind: 'ws' };

beforeAll(async () => {
  xvfb = await startXvfb(SCREEN);
  process.env.DISPLAY = xvfb.display;
  probe = await startProbe(xvfb);
  fake = await startFakeModel();
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = await createComputer();
  const { createBridgeService } = await import('../../src/main/service/index.js');
  service = createBridgeService({
    home: home.home,
    computer,
    // The fake model is the configured endpoint (run.start may not send the key elsewhere).
    env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseUrl },
    fps: 5,
  });
}, 60_000);

afterAll(async () => {
  await service?.close();
  await fake?.close();
  await probe?.close();
  await xvfb?.stop();
  home.cleanup();
});

function collect(client: ClientInfo) {
  const messages: PushMessage[] = [];
  const unsubscribe = service.subscribe(client, (m) => messages.push(m));
  const events = () => messages.flatMap((m) => (m.kind === 'event' ? [m.event] : []));
  return { messages, events, unsubscribe };
}

const startInput = (task: string) => ({
  task,
  provider: 'anthropic' as const,
  model: 'claude-haiku-4-5',
  baseUrl: fake.anthropicBaseUrl,
  policy: 'ask' as const,
});

async function expectBridgeError(promise: Promise<unknown>, code: BridgeError['code']) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeError);
  expect((error as BridgeError).code).toBe(code);
}

describe('bridge service', () => {
  it('refuses invalid input with BridgeError("invalid") and changes nothing', async () => {
    await expectBridgeError(service.call('run.start', { task: '' }, alice), 'invalid');
    await expectBridgeError(service.call('run.start', { task: 'x', policy: 'yolo' }, alice), 'invalid');
    await expectBridgeError(service.call('run.start', { task: 'x', extra: 1 }, alice), 'invalid');
    await expectBridgeError(service.call('nope' as never, {}, alice), 'invalid');
    await expectBridgeError(service.call('approval.answer', { runId: 'r', proposalId: 'p', answer: { decision: 'maybe' } }, alice), 'invalid');
    await expectBridgeError(service.call('run.stop', { runId: 'no-such-run' }, alice), 'not_found');
    expect((await service.call('sessions.list', {}, alice)).sessions).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it('runs one run at a time; two clients answer one approval and exactly one wins', async () => {
    const a = collect(alice);
    const b = collect(bob);
    const pad = probe.padRect();
    const target = { x: Math.round(pad.x + pad.width / 2), y: Math.round(pad.y + pad.height / 2) };
    fake.script(
      (req) => ({ text: 'Clicking the pad.', toolCalls: [claude.click(...toImagePoint(req, SCREEN, target))] }),
      { text: 'Done.', toolCalls: [finish(true, 'clicked')] },
    );
    const since = probe.nextSeq();
    const { runId } = await service.call('run.start', startInput('click the pad'), alice);
    await expectBridgeError(service.call('run.start', startInput('another'), bob), 'conflict');

    const asked = await until(() => b.events().find((e) => e.type === 'approval_requested'), 20_000, 'an approval request');
    const proposalId = asked.type === 'approval_requested' ? asked.proposalId : '';
    // Nothing ran before the answer.
    expect(probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown')).toEqual([]);
    const answers = await Promise.all([
      service.call('approval.answer', { runId, proposalId, answer: { decision: 'approve' } }, alice),
      service.call('approval.answer', { runId, proposalId, answer: { decision: 'approve' } }, bob),
    ]);
    expect(answers.filter((r) => r.accepted)).toHaveLength(1);
    expect(answers.find((r) => !r.accepted)?.reason).toBeTruthy();

    const ended = await until(() => a.events().find((e) => e.type === 'run_ended'), 20_000, 'the run to end');
    expect(ended).toMatchObject({ status: 'done' });
    await probe.expectClickAt(target.x, target.y, { sinceSeq: since, tolerance: 2 });
    expect(probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown')).toHaveLength(1);
    // Both clients saw the same events, and the run state went back to none.
    expect(b.events().map((e) => e.seq)).toEqual(a.events().map((e) => e.seq));
    await until(() => a.messages.at(-1)?.kind === 'run_state' && (a.messages.at(-1) as { runId: string | null }).runId === null, 5_000, 'run_state null');

    // Its files are served, but nothing outside the run folder.
    const observation = a.events().find((e): e is Extract<RunEvent, { type: 'observation' }> => e.type === 'observation')!;
    const file = await service.readRunFile(runId, observation.image);
    expect(file.mediaType).toBe('image/jpeg');
    expect(file.data.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    await expectBridgeError(service.readRunFile(runId, '../../config.json'), 'invalid');

    const listed = await service.call('sessions.list', {}, alice);
    expect(listed.sessions.map((s) => [s.runId, s.status])).toEqual([[runId, 'done']]);
    const opened = await service.call('sessions.open', { runId }, alice);
    expect(opened.events.length).toBe(a.events().length);
    a.unsubscribe();
    b.unsubscribe();
  }, 60_000);

  it('tells the person why an edit was refused, and the edited action is checked like model output', async () => {
    const a = collect(alice);
    fake.script({ text: 'Clicking.', toolCalls: [claude.click(10, 10)] }, { text: 'ok', toolCalls: [finish(false, 'rejected')] });
    const { runId } = await service.call('run.start', startInput('click somewhere'), alice);
    const asked = await until(() => a.events().find((e) => e.type === 'approval_requested'), 20_000, 'an approval request');
    const proposalId = asked.type === 'approval_requested' ? asked.proposalId : '';
    const edited = await service.call('approval.answer', { runId, proposalId, answer: { decision: 'edit', action: { type: 'click', x: 99_999, y: 10 } } }, alice);
    expect(edited.accepted).toBe(false);
    expect(edited.reason).toMatch(/outside the screenshot/);
    // Still waiting: a valid answer wins now.
    expect(await service.call('approval.answer', { runId, proposalId, answer: { decision: 'reject', feedback: 'no' } }, bob)).toEqual({ accepted: true });
    await until(() => a.events().find((e) => e.type === 'run_ended'), 20_000, 'the run to end');
    a.unsubscribe();
  }, 60_000);

  it('routes a question to the person once, and pause / resume / stop reach the run', async () => {
    const a = collect(alice);
    fake.script(
      { text: 'I need to ask.', toolCalls: [{ name: 'ask_user', input: { question: 'Which file?' } }] },
      { fault: 'hang' },
    );
    const { runId } = await service.call('run.start', startInput('ask me'), alice);
    const asked = await until(() => a.events().find((e) => e.type === 'question_asked'), 20_000, 'the question');
    const questionId = asked.type === 'question_asked' ? asked.questionId : '';
    expect(a.messages.some((m) => m.kind === 'run_state' && m.state === 'waiting_user')).toBe(true);
    const answers = await Promise.all([
      service.call('question.answer', { runId, questionId, answer: 'report.pdf' }, alice),
      service.call('question.answer', { runId, questionId, answer: 'other.pdf' }, bob),
    ]);
    expect(answers.map((r) => r.accepted).sort()).toEqual([false, true]);
    // The model's next request (it hangs) carries the winning answer.
    await until(() => fake.requests.at(-1)?.toolResults.at(-1)?.text.includes('.pdf'), 20_000, 'the answer at the model');
    expect(a.events().find((e) => e.type === 'question_answered')).toMatchObject({ answer: expect.stringMatching(/\.pdf$/) });

    await service.call('run.pause', { runId }, bob);
    await until(() => a.messages.some((m) => m.kind === 'run_state' && m.state === 'paused'), 5_000, 'paused');
    await service.call('run.resume', { runId }, bob);
    await until(() => a.events().some((e) => e.type === 'state' && e.state === 'running' && e.seq > asked.seq + 3), 5_000, 'running again');
    await service.call('run.stop', { runId }, bob);
    const ended = await until(() => a.events().find((e) => e.type === 'run_ended'), 10_000, 'the run to end');
    expect(ended).toMatchObject({ status: 'stopped' });
    a.unsubscribe();
  }, 60_000);

  it('streams live frames only while a client watches, and only to that client', async () => {
    const c = collect(alice);
    const other = collect(bob);
    await new Promise((r) => setTimeout(r, 700));
    expect(c.messages.filter((m) => m.kind === 'frame')).toHaveLength(0);
    await service.call('screen.watch', { on: true }, alice);
    const frame = await until(() => c.messages.find((m) => m.kind === 'frame'), 10_000, 'a frame');
    expect(frame.kind === 'frame' && Buffer.from(frame.jpegBase64, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    await until(() => c.messages.filter((m) => m.kind === 'frame').length >= 2, 10_000, 'a second frame');
    expect(other.messages.filter((m) => m.kind === 'frame')).toHaveLength(0);
    other.unsubscribe();
    await service.call('screen.watch', { on: false }, alice);
    await new Promise((r) => setTimeout(r, 500));
    const count = c.messages.filter((m) => m.kind === 'frame').length;
    await new Promise((r) => setTimeout(r, 800));
    expect(c.messages.filter((m) => m.kind === 'frame').length).toBe(count);
    c.unsubscribe();
  }, 30_000);

  it('lists the skills a run can use, the built-in qa skill among them', async () => {
    const { skills, errors } = await service.call('skills.list', {}, alice);
    expect(skills).toContainEqual(expect.objectContaining({ name: 'qa', source: 'builtin' }));
    expect(skills.find((s) => s.name === 'qa')?.description.length).toBeGreaterThan(10);
    expect(errors).toEqual([]);
  });

  it('cancels an auto-approve countdown: the action then waits for a person', async () => {
    const { saveConfig, loadConfig } = await import('../../src/main/config/index.js');
    const original = await loadConfig(home.home);
    await saveConfig({ ...original, policy: { ...original.policy, countdownSeconds: 3 } }, home.home);
    try {
      const a = collect(alice);
      const pad = probe.padRect();
      const target = { x: Math.round(pad.x + pad.width / 2), y: Math.round(pad.y + pad.height / 2) };
      fake.script((req) => ({ text: 'Clicking the pad.', toolCalls: [claude.click(...toImagePoint(req, SCREEN, target))] }));
      const since = probe.nextSeq();
      const { runId } = await service.call('run.start', startInput('click the pad'), alice);
      const asked = await until(
        () => a.events().find((e) => e.type === 'approval_requested' && e.countdownMs !== undefined),
        20_000,
        'an approval with a countdown',
      );
      const proposalId = asked.type === 'approval_requested' ? asked.proposalId : '';
      expect(await service.call('approval.cancelCountdown', { runId, proposalId }, alice)).toEqual({ cancelled: true });
      const again = await until(
        () => a.events().find((e) => e.type === 'approval_requested' && e.seq > asked.seq && e.proposalId === proposalId),
        5_000,
        'the item held again',
      );
      expect(again.type === 'approval_requested' && again.countdownMs).toBeUndefined();
      // Well past the 3 s countdown: nothing was approved, nothing reached the probe.
      await new Promise((r) => setTimeout(r, 4_000));
      expect(a.events().some((e) => e.type === 'approval_answered' || e.type === 'action_executed')).toBe(false);
      expect(probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown')).toEqual([]);
      expect(await service.call('approval.cancelCountdown', { runId, proposalId }, alice)).toEqual({ cancelled: false });
      await service.call('run.stop', { runId }, alice);
      await until(() => a.events().find((e) => e.type === 'run_ended'), 10_000, 'the run to end');
      a.unsubscribe();
    } finally {
      await saveConfig(original, home.home);
    }
  }, 60_000);

  it('shows settings with where keys come from, never the keys', async () => {
    const view = await service.call('settings.get', {}, alice);
    expect(view.keys.ANTHROPIC_API_KEY).toEqual({ stored: false, fromEnv: true });
    expect(JSON.stringify(view)).not.toContain('sk-ant-test');
    await expectBridgeError(service.call('settings.save', { config: view.config, apiKeys: { ANTHROPIC_API_KEY: 'x' } }, alice), 'unavailable');
  });
});
