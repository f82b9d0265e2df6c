/**
 * A replay invents no verdict and no divergence (issue 28), on a real desktop: Xvfb, a
 * private accessibility bus, the probe page in Chromium with accessibility on, the real
 * `deskpilot` command line, and the fake model only for the run that is recorded.
 *   - item 2: a confirmation dialog recorded as "Remove 1 item?" and shown again as
 *     "Remove all 532 items?" — same dialog name, same button, same pixels under the
 *     point — is refused by --strict before the click, saying the text changed;
 *   - item 4: click a plain text field, type "Replay ✓ Grüße 7" (characters typed through
 *     remapped keycodes), press Return: replayed with --strict exits 0 with the text typed
 *     (10 times in a row in the opt-in file: `npm run test:opt-in`).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { startFakeModel, type FakeRequest } from '../harness/fake-model/index.js';
import { claude, finish, runCli, toImagePoint } from '../e2e/support.js';
import { SCREEN, useProbeDesktop } from './probe-desktop.js';
import { noFalseDivergence, recordRunOn, type RecordedStep } from './no-false-divergence.cases.js';

const desktop = useProbeDesktop();
const env = desktop.env;
const runIdOf = (events: Array<Record<string, unknown>>) => String(events.find((e) => e.type === 'run_started')!.runId);
const centre = (r: { x: number; y: number; width: number; height: number }) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });

const recordRun = (task: string, steps: RecordedStep[]) => recordRunOn(desktop, task, steps);

describe('a changed sentence in a dialog (item 2)', () => {
  it('--strict refuses the recorded click when the question changed, names the check, and clicks nothing; the same question replays', async () => {
    const button = centre(await desktop.probe.showDialog('Remove 1 item?'));
    const recorded = await recordRun('confirm the removal', [(req) => claude.click(...toImagePoint(req, SCREEN, button))]);
    expect(await desktop.probe.dialogClicks()).toBe(1);

    // The same dialog name, the same button at the same place: only the question differs.
    expect(centre(await desktop.probe.showDialog('Remove all 532 items?'))).toEqual(button);
    const replay = runCli(['replay', recorded, '--strict', '--yes', '--json'], env());
    const { code } = await replay.exit;
    expect(code, replay.stderr()).toBe(1);
    expect(replay.stderr()).toMatch(/diverged at step 1 of 1: the text around the target changed: recorded "[^"]*remove 1 item\?[^"]*", now "[^"]*remove all 532 items\?/);
    expect(await desktop.probe.dialogClicks()).toBe(0);
    const report = JSON.parse(readFileSync(path.join(desktop.home, 'sessions', runIdOf(replay.events()), 'divergence.json'), 'utf8')) as { kind: string };
    expect(report.kind).toBe('screen');

    await desktop.probe.showDialog('Remove 1 item?');
    const same = runCli(['replay', recorded, '--strict', '--yes', '--json'], env());
    expect((await same.exit).code, same.stderr()).toBe(0);
    expect(await desktop.probe.dialogClicks()).toBe(1);
  }, 240_000);
});

// Item 4 with one replay here; 10 in a row in replay-trust.opt-in.desktop.test.ts (~25 s each on CI's 2 cores).
noFalseDivergence(desktop, 1);

describe('no secret is written or typed as a mask (items 5, 6, 7) — a real password field (<input type=password>, c4)', () => {
  const sessionFile = (runId: string, name: string) => readFileSync(path.join(desktop.home, 'sessions', runId, name), 'utf8');
  const keysSince = (since: number) => desktop.probe.events().filter((e) => e.seq >= since && e.type === 'keydown' && e.target === 'c4').map((e) => String(e.key));

  it('a --grounding pixels run that types into it keeps the password out of every event; replay types it from DESKPILOT_SECRET_1 or stops saying so', async () => {
    const field = centre((await desktop.probe.showControls(10)).find((c) => c.id === 'c4')!);
    const fake = await startFakeModel();
    let runId: string;
    try {
      fake.script(
        (req: FakeRequest) => ({ text: 'Click the password field.', toolCalls: [claude.click(...toImagePoint(req, SCREEN, field))] }),
        () => ({ text: 'Type it.', toolCalls: [claude.type('hunter2')] }),
        { text: 'Done.', toolCalls: [finish(true, 'done')] },
      );
      const run = runCli(['run', 'log in', '--grounding', 'pixels', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--json', '--no-agents-md'], env(fake));
      expect((await run.exit).code, run.stderr()).toBe(0);
      runId = runIdOf(run.events());
    } finally {
      await fake.close();
    }
    const log = sessionFile(runId, 'events.jsonl');
    expect(log).not.toContain('hunter2');
    expect(log).toContain('[masked secret]');

    await desktop.probe.showControls(10);
    const unset = runCli(['replay', runId, '--strict', '--yes', '--json'], env());
    expect((await unset.exit).code).toBe(1);
    expect(unset.stderr()).toContain('a mask is never typed: set the environment variable DESKPILOT_SECRET_1 to it');

    await desktop.probe.showControls(10);
    const since = desktop.probe.nextSeq();
    const replay = runCli(['replay', runId, '--strict', '--yes', '--json'], { ...env(), DESKPILOT_SECRET_1: 'hunter2' });
    expect((await replay.exit).code, replay.stderr()).toBe(0);
    expect(keysSince(since).join('')).toBe('hunter2');
    expect(sessionFile(runIdOf(replay.events()), 'events.jsonl')).not.toContain('hunter2');
  }, 300_000);

  it('deskpilot record: what a person types into it is masked in events.jsonl, the trajectory and the draft SKILL.md', async () => {
    const field = centre((await desktop.showControls(10)).find((c) => c.id === 'c4')!);
    const record = runCli(['record', 'log in'], env());
    const deadline = Date.now() + 60_000;
    const startedAs = () => /as run (\S+): do the task now/.exec(record.stderr())?.[1];
    while (!startedAs()) {
      if (Date.now() > deadline) throw new Error(`record did not start: ${record.stderr()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // The recorder's screens so far (events.jsonl): one before anything, then one after each action it logged.
    const events = path.join(desktop.home, 'sessions', startedAs()!, 'events.jsonl');
    const screens = () => (existsSync(events) ? readFileSync(events, 'utf8').split('\n').filter((l) => l.includes('"type":"observation"')).length : 0);
    const person = (...args: string[]) => spawnSync('xdotool', args, { env: desktop.bus.env, timeout: 10_000 });
    const since = desktop.probe.nextSeq();
    person('mousemove', '--sync', String(Math.round(field.x)), String(Math.round(field.y)));
    person('click', '1');
    await desktop.probe.waitFor((e) => e.type === 'pointerup' && e.target === 'c4', { sinceSeq: since });
    person('type', '--delay', '40', 'swordfish');
    await desktop.probe.waitFor((e) => e.type === 'keyup' && e.target === 'c4' && e.key === 'h', { sinceSeq: since });
    // The typed word is one action once the recorder's 800 ms gap has passed: the stop key comes once it is logged (its screen after it is).
    while (screens() < 3) {
      if (Date.now() > deadline + 60_000) throw new Error(`the recorder logged ${screens()} screens, not 3 (start, click, typed word): ${record.stderr()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    person('key', 'Pause');
    expect((await record.exit).code, record.stderr()).toBe(0);
    const runId = record.stdout().trim();
    const out = path.join(desktop.home, 'export-secret');
    const exported = runCli(['sessions', 'export', runId, '--format', 'trajectory', '--out', out], env());
    expect((await exported.exit).code, exported.stderr()).toBe(0);
    const trajectory = readFileSync(path.join(out, 'trajectory.json'), 'utf8');
    for (const text of [sessionFile(runId, 'events.jsonl'), sessionFile(runId, 'SKILL.md'), trajectory]) {
      expect(text).not.toContain('swordfish');
      expect(text).toContain('[masked secret]');
    }
    expect(JSON.parse(trajectory)).toMatchObject({ steps: expect.arrayContaining([expect.objectContaining({ actions: [expect.objectContaining({ secretRef: { env: 'DESKPILOT_SECRET_1' } })] })]) });
    // Item 8: the screenshot stored after the typing has the field filled with one colour (the recorder's only copy).
    const shots = sessionFile(runId, 'events.jsonl').split('\n').filter((l) => l.includes('"type":"observation"')).map((l) => JSON.parse(l) as { image: string; secretRegions?: unknown[]; observation: { region: { x: number; y: number; width: number; height: number }; image: { width: number } } });
    const last = shots.at(-1)!;
    expect(last.secretRegions).toHaveLength(1);
    const s = last.observation.image.width / last.observation.region.width;
    const inside = { left: Math.ceil((field.x - 65 - last.observation.region.x) * s), top: Math.ceil((field.y - 10 - last.observation.region.y) * s), width: Math.floor(130 * s), height: Math.floor(20 * s) };
    const { data, info } = await sharp(readFileSync(path.join(desktop.home, 'sessions', runId, last.image))).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const values: number[] = [];
    for (let y = inside.top; y < inside.top + inside.height; y++) for (let x = inside.left; x < inside.left + inside.width; x++) values.push(data[(y * info.width + x) * info.channels]!);
    // JPEG leaves a few levels on a flat fill; the dots on white were ~200 apart.
    expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(12);
  }, 240_000);
});
