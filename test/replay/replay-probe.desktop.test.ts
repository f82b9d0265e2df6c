/**
 * Record, replay, heal — end to end as a user runs them (bin/deskpilot.js), on Xvfb with
 * a private accessibility bus and the probe page in Chromium (named controls whose state
 * the page reports). A scripted model does a 5-step task; `deskpilot replay` repeats it
 * with no model server running and must leave the controls exactly as the model did;
 * a renamed button is refused by --strict at that step (the earlier steps act, it does
 * not); a moved window is refused before anything acts; --heal completes the moved and
 * renamed page with the fake model and writes the healed trajectory.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TrajectorySchema } from '../../src/shared/trajectory.js';
import { startFakeModel, type FakeRequest } from '../harness/fake-model/index.js';
import type { Probe, ScreenRect } from '../harness/probe/probe.js';
import { claude, finish, runCli, toImagePoint } from '../e2e/support.js';
import { SCREEN, useProbeDesktop } from './probe-desktop.js';

/**
 * The renamed c6's label ("Send", centred at x ≈ 290) is in no earlier click's text-near
 * area: that area (text-near.ts AROUND, 600×280 centred on the point, cut to the window;
 * a word counts by its centre) spans x 354–954 around c3 (654, 58) and x 534–1020 around
 * c9 (834, 102), so a replay refuses c6 at its own step, by the tree.
 * With c1 and c7 as targets (180 px from c6) OCR's reading of "Send" decided whether steps
 * 1 or 4 refused first (clean-clone CI: step 4, 1 run in ~10), and that refusal was right by
 * text-near's rules. c3 and c9 themselves are 180 px apart: c9's area holds c3, so the
 * "alpha" typed into c3 is read at step 3 — as the replay's own typing (text-near.ts
 * typedWords) when the recording's screen after step 2 was taken before Chromium drew it.
 */
const TASK = 'write alpha into c3, write beta into c9, press c6';
const desktop = useProbeDesktop();
const env = desktop.env;

const centre = (r: ScreenRect) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });
type Controls = Array<ScreenRect & { id: string }>;
const byId = (controls: Controls, id: string) => centre(controls.find((c) => c.id === id)!);

/** The model's (and the healer's) action for step n (1-based) on this layout. */
function stepAction(n: number, controls: Controls, req: FakeRequest) {
  const at = (id: string) => toImagePoint(req, SCREEN, byId(controls, id));
  switch (n) {
    case 1:
      return claude.click(...at('c3'));
    case 2:
      return claude.type('alpha');
    case 3:
      return claude.click(...at('c9'));
    case 4:
      return claude.type('beta');
    default:
      return claude.click(...at('c6'));
  }
}

const INTENTS = ['Click into the c3 field.', 'Write alpha.', 'Click into the c9 field.', 'Write beta.', 'Press the c6 button.'];
/** Polls `value` until it gives something (each poll reads a file or a process's output: a condition, not a fixed wait). */
async function until<T>(value: () => T | undefined, timeoutMs: number, why: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = value();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((r) => setTimeout(r, 50));
  }
}
const runIdOf = (events: Array<Record<string, unknown>>) => String(events.find((e) => e.type === 'run_started')!.runId);

let recordedRunId = '';
let recordedState: Awaited<ReturnType<Probe['controlValues']>> = [];

describe('deskpilot replay', () => {
  it('a scripted model run replays with no model server running, to the same control state, with no model call', async () => {
    const fake = await startFakeModel();
    try {
      const controls = await desktop.showControls(10);
      fake.script(
        ...[1, 2, 3, 4, 5].map((n) => (req: FakeRequest) => ({ text: INTENTS[n - 1]!, toolCalls: [stepAction(n, controls, req)] })),
        { text: 'Done.', toolCalls: [finish(true, 'all set')] },
      );
      const run = runCli(['run', TASK, '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--json', '--no-agents-md'], env(fake));
      const { code } = await run.exit;
      expect(code, run.stderr()).toBe(0);
      recordedRunId = runIdOf(run.events());
      recordedState = await desktop.probe.controlValues();
      expect(recordedState.filter((c) => c.checked || (c.value && c.value !== '0'))).toEqual([
        { id: 'c3', checked: null, value: 'alpha' },
        { id: 'c6', checked: null, value: '1' },
        { id: 'c9', checked: null, value: 'beta' },
      ]);
      // The element under each click was logged with the action.
      const clicks = run.events().filter((e) => e.type === 'action_executed' && (e.action as { type: string }).type === 'click');
      expect(clicks.map((e) => (e.target as { element?: { name: string } } | undefined)?.element?.name)).toEqual(['c3', 'c9', 'c6']);
    } finally {
      await fake.close();
    }

    // The trajectory export: plain files, the schema, every step's forms.
    const out = path.join(desktop.home, 'export');
    const exported = runCli(['sessions', 'export', recordedRunId, '--format', 'trajectory', '--out', out], env());
    expect((await exported.exit).code, exported.stderr()).toBe(0);
    const trajectory = TrajectorySchema.parse(JSON.parse(readFileSync(path.join(out, 'trajectory.json'), 'utf8')));
    expect(trajectory.steps.map((s) => s.intent)).toEqual(INTENTS);
    const first = trajectory.steps[0]!.actions[0]!.target!;
    expect(first.element?.path).toMatch(/entry "c3"$/);
    expect(first.window?.title).toBeTruthy();
    expect(existsSync(path.join(out, first.patch!.image))).toBe(true);
    const press = trajectory.steps[4]!.actions[0]!.target!;
    // The words OCR read under the point, when it reads them: the probe's 14 px "c6" in the
    // 1024×640 JPEG the model got came out "c6", "cb" or nothing (the other forms carry it then).
    if (press.text) expect(press.text.text).toMatch(/^c\S$/);
    expect(press.element?.name).toBe('c6');

    // Replay on a fresh page: no model server, no key.
    await desktop.showControls(10);
    const replay = runCli(['replay', recordedRunId, '--yes', '--json'], env());
    const { code } = await replay.exit;
    expect(code, replay.stderr()).toBe(0);
    expect(await desktop.probe.controlValues()).toEqual(recordedState);
    expect(replay.stderr()).toContain('5 of 5 steps replayed, 0 healed, 0 model calls');
    // A screen that does not match yet is looked at once more, fully settled (a screenshot
    // action, allowed by rule): on a loaded machine a step's effect can show after the
    // replay's short quiet window (one clean-clone CI run). Such a look names its check.
    const isLookAgain = (e: { action?: unknown }) => (e.action as { type?: string } | undefined)?.type === 'screenshot';
    const lookedAgain = replay.events().filter((e) => e.type === 'model_text' && String(e.text).startsWith('The screen does not match the recording yet'));
    expect(lookedAgain.map((e) => String(e.text))).toEqual(lookedAgain.map(() => expect.stringMatching(/yet \(step \d of 5: .+\): looking again/)));
    const executed = replay.events().filter((e) => e.type === 'action_executed' && !isLookAgain(e));
    expect(replay.events().filter((e) => e.type === 'action_executed' && isLookAgain(e))).toHaveLength(lookedAgain.length);
    // Each replayed action passed the gate: the policy (auto) let it through, like a model's.
    expect(executed.map((e) => [e.ok, (e.by as { kind: string }).kind])).toEqual(Array(5).fill([true, 'mode']));
    expect(replay.events().filter((e) => (e.type === 'approval_requested' || e.type === 'action_proposed') && !isLookAgain(e))).toHaveLength(6);
  }, 240_000);

  it('a replayed action waits in the same approval queue as a model\'s: under --policy ask, "n" keeps it from running and the replay stops', async () => {
    await desktop.showControls(10);
    const since = desktop.probe.nextSeq();
    const replay = runCli(['replay', recordedRunId, '--policy', 'ask', '--json'], env(), { stdin: 'n\n\n' });
    // A replay that hangs (once in a run with another desktop suite beside it) would end in the test's timeout and hide what it printed: show it first.
    const dbg = setTimeout(() => console.error('replay still running after 90 s; stderr so far:\n', replay.stderr(), '\nstdout so far:\n', replay.stdout()), 90_000);
    const { code } = await replay.exit;
    clearTimeout(dbg);
    expect(code, replay.stderr()).toBe(1);
    expect(replay.stderr()).toContain('Allow: click left at');
    expect(replay.stderr()).toMatch(/diverged at step 1 of 5: the replayed action was not run: The person rejected this action/);
    const events = replay.events();
    expect(events.filter((e) => e.type === 'approval_requested')).toHaveLength(1);
    expect(events.find((e) => e.type === 'approval_answered')).toMatchObject({ answer: { decision: 'reject' } });
    expect(events.filter((e) => e.type === 'action_executed')).toEqual([]);
    await desktop.inputBarrier();
    expect(desktop.probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown')).toEqual([]);
  }, 120_000);

  it('--strict refuses a renamed button at its step: the steps before act, that one does not; the report shows expected vs seen', async () => {
    await desktop.showControls(10, undefined, { c6: 'Send' });
    const since = desktop.probe.nextSeq();
    const replay = runCli(['replay', recordedRunId, '--strict', '--yes', '--json'], env());
    const { code } = await replay.exit;
    expect(code, replay.stderr()).toBe(1);
    expect(replay.stderr()).toContain('diverged at step 5 of 5');
    const state = await desktop.probe.controlValues();
    // Steps 1–4 ran; the renamed button was never pressed.
    expect(state.find((c) => c.id === 'c9')!.value).toBe('beta');
    expect(state.find((c) => c.id === 'c6')!.value).toBe('0');
    const downs = desktop.probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown');
    expect(downs.map((e) => e.target)).toEqual(['c3', 'c9']);
    const dir = path.join(desktop.home, 'sessions', runIdOf(replay.events()));
    const report = JSON.parse(readFileSync(path.join(dir, 'divergence.json'), 'utf8')) as { step: number; kind: string; tried: string[] };
    expect(report).toMatchObject({ step: 5, kind: 'target' });
    // The tree answers and the button is not in it: no pixel match may overrule that.
    expect(report.tried).toEqual([expect.stringMatching(/^element: no push button "c6"/)]);
    expect(existsSync(path.join(dir, 'divergence/expected-vs-seen.png'))).toBe(true);
  }, 120_000);

  it('a moved window replays without the model (targets by element path, screens compared inside the window); moved and renamed, --strict refuses that step without acting', async () => {
    const moved = desktop.moveWindow({ x: 200, y: 120 });
    try {
      expect(moved.dx).toBeGreaterThan(100);
      await desktop.showControls(10);
      const clean = runCli(['replay', recordedRunId, '--strict', '--yes', '--json'], env());
      expect((await clean.exit).code, clean.stderr()).toBe(0);
      expect(clean.stderr()).toContain('5 of 5 steps replayed, 0 healed, 0 model calls');
      expect(await desktop.probe.controlValues()).toEqual(recordedState);

      await desktop.showControls(10, undefined, { c6: 'Send' });
      const since = desktop.probe.nextSeq();
      const replay = runCli(['replay', recordedRunId, '--strict', '--yes', '--json'], env());
      const { code } = await replay.exit;
      expect(code, replay.stderr()).toBe(1);
      expect(replay.stderr()).toContain('diverged at step 5 of 5');
      await desktop.inputBarrier();
      expect(desktop.probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown').map((e) => e.target)).toEqual(['c3', 'c9']);
      expect((await desktop.probe.controlValues()).find((c) => c.id === 'c6')!.value).toBe('0');
    } finally {
      desktop.moveWindow({ x: 20, y: 20 });
    }
  }, 180_000);

  it('--heal completes the moved and renamed page with the fake model and writes the healed trajectory (revision 2)', async () => {
    const moved = desktop.moveWindow({ x: 200, y: 120 });
    const fake = await startFakeModel();
    try {
      const shown = await desktop.showControls(10, undefined, { c6: 'Send' });
      // The probe measured its content origin where the window started: shift by the move.
      const controls = shown.map((c) => ({ ...c, x: c.x + moved.dx, y: c.y + moved.dy }));
      const stepOf = (req: FakeRequest) => Number(/at step (\d+) of 5/.exec(req.lastUserText)?.[1] ?? 0);
      const heal = (req: FakeRequest) => ({ text: `Healing step ${stepOf(req)}.`, toolCalls: [stepAction(stepOf(req), controls, req)] });
      // One turn for each step: a step healed that should have replayed then fails the
      // requests' check below by its number, not as "no scripted turn left" at step 5.
      fake.script(...Array.from({ length: 5 }, () => heal));
      const replay = runCli(['replay', recordedRunId, '--heal', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--json'], env(fake));
      const { code } = await replay.exit;
      expect(code, replay.stderr()).toBe(0);
      expect(await desktop.probe.controlValues()).toEqual(recordedState);
      // Steps 1–4 are found again inside the moved window; only the renamed button needs the model.
      expect(fake.requests.map((r) => /at step (\d+) of 5/.exec(r.lastUserText)?.[1])).toEqual(['5']);
      expect(fake.requests[0]!.lastUserText).toContain(INTENTS[4]);
      const healedFile = /healed trajectory \(revision 2\): (.+)/.exec(replay.stderr())?.[1];
      expect(healedFile, replay.stderr()).toBeDefined();
      const healed = TrajectorySchema.parse(JSON.parse(readFileSync(healedFile!.trim(), 'utf8')));
      expect(healed).toMatchObject({ revision: 2, healedFrom: { runId: recordedRunId, revision: 1 } });
      expect(healed.steps.map((s) => s.origin)).toEqual(['replay', 'replay', 'replay', 'replay', 'healed']);
    } finally {
      await fake.close();
      desktop.moveWindow({ x: 20, y: 20 });
    }
  }, 180_000);

  it("deskpilot record: a person's demonstration (xdotool as the person) is saved with a draft SKILL.md and replays exactly", async () => {
    const controls = await desktop.showControls(10);
    const record = runCli(['record', 'tick c1, write beta into c3, tick c7'], env());
    const started = await until(() => /as run (\S+): do the task now/.exec(record.stderr())?.[1], 60_000, () => `record did not start: ${record.stderr()}`);
    // The recorder takes each input in turn: after an action it settles and logs the screen
    // the next one starts from, and only then reads the next input (and the pointer's place).
    // The person acts again once that screenshot is in the log, as a person watching would.
    const events = path.join(desktop.home, 'sessions', started, 'events.jsonl');
    const observations = () => (existsSync(events) ? readFileSync(events, 'utf8').split('\n').filter((l) => l.includes('"type":"observation"')).length : 0);
    let done = observations();
    const recorded = async () => {
      done += 1;
      await until(() => (observations() >= done ? true : undefined), 60_000, () => `the recorder logged ${observations()} screens, waiting for ${done}: ${record.stderr()}`);
    };
    const person = (...args: string[]) => spawnSync('xdotool', args, { env: desktop.bus.env, timeout: 10_000 });
    const clickOn = async (id: string) => {
      const p = byId(controls, id);
      person('mousemove', '--sync', String(Math.round(p.x)), String(Math.round(p.y)));
      person('click', '1');
      await recorded();
    };
    await clickOn('c1');
    await clickOn('c3');
    person('type', '--delay', '40', 'beta');
    // The typed word is one action once the keys pause (record.ts TEXT_GAP_MS).
    await recorded();
    await clickOn('c7');
    person('key', 'Pause');
    const { code } = await record.exit;
    expect(code, record.stderr()).toBe(0);
    const runId = record.stdout().trim();
    expect(runId).toBe(started);
    const state = await desktop.probe.controlValues();
    expect(state.filter((c) => c.checked || c.value === 'beta').map((c) => c.id)).toEqual(['c1', 'c3', 'c7']);
    const skill = readFileSync(path.join(desktop.home, 'sessions', runId, 'SKILL.md'), 'utf8');
    expect(skill).toContain('1. Click the check box "c1"');
    expect(skill).toContain('3. Type "beta".');
    expect(skill).toContain(`deskpilot replay ${runId}`);

    await desktop.showControls(10);
    const replay = runCli(['replay', runId, '--yes', '--json'], env());
    const replayed = await replay.exit;
    expect(replayed.code, replay.stderr()).toBe(0);
    expect(await desktop.probe.controlValues()).toEqual(state);
    expect(replay.stderr()).toContain('4 of 4 steps replayed, 0 healed, 0 model calls');
  }, 180_000);
});
