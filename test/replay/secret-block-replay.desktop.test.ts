/**
 * A replayed code block never types a mask (issue 28 item 6, for blocks): a Python block of
 * `deskpilot run --harness code` clicks the probe page's <input type=password> (c4) and
 * writes a password it holds as a literal. Once the field makes that word a secret the
 * log masks it, so the block is logged — and its trajectory step derived — with
 * `[masked secret]` in its code. Replayed as is, the block would type the mask into the
 * field. The replay now takes the secret from the step's secretRef variable (the block
 * runs with the word in its code, logged masked), and without it stops at the step with a
 * secret divergence that names the variable, the field untouched.
 *
 * Real Chromium (accessibility on), python3, the real CLI; the fake model only records.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Rect } from '../../src/shared/actions.js';
import { codeBlockOf } from '../../src/shared/code-block.js';
import { TrajectorySchema } from '../../src/shared/trajectory.js';
import { MASKED_SECRET } from '../../src/main/sessions/scrub.js';
import { startFakeModel, type FakeRequest } from '../harness/fake-model/index.js';
import { finish, runCli, toImagePoint } from '../e2e/support.js';
import { SCREEN, useProbeDesktop } from './probe-desktop.js';

const desktop = useProbeDesktop();
const centre = (r: Rect) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });
/** Letters and a digit: the detectors let it through as text, only the password field makes it a secret. */
const WORD = 'tulip7';

/** The key presses the password field got since `since` (the page never reports a password's value). */
function pressedInto(since: number, id: string): string {
  return desktop.probe
    .events()
    .filter((e) => e.seq >= since && e.type === 'keydown' && e.target === id)
    .map((e) => e.key ?? '')
    .join('');
}

describe('deskpilot replay of a code block that typed a password literal', () => {
  it('types the secret from its variable, or stops naming it; never the mask', async () => {
    const controls = await desktop.showControls(10);
    const field = controls.find((c) => c.id === 'c4')!;
    const fake = await startFakeModel();
    let runId: string;
    try {
      fake.script(
        (req: FakeRequest) => {
          const [x, y] = toImagePoint(req, SCREEN, centre(field));
          const code = [`computer.mouse.click(${x}, ${y})`, `computer.keyboard.write(${JSON.stringify(WORD)})`].join('\n');
          return { text: 'Log in.', toolCalls: [{ name: 'execute', input: { language: 'python', code } }] };
        },
        { text: 'Done.', toolCalls: [finish(true, 'typed')] },
      );
      const run = runCli(
        ['run', 'log in', '--harness', 'code', '--provider', 'anthropic', '--model', 'claude-sonnet-5-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--json', '--no-agents-md', '--sandbox', 'danger-full-access'],
        desktop.env(fake),
      );
      expect((await run.exit).code, run.stderr()).toBe(0);
      runId = String(run.events().find((e) => e.type === 'run_started')!.runId);
    } finally {
      await fake.close();
    }

    // The trajectory's one step is the block, with the mask where the word was and a variable to take it from.
    const out = path.join(desktop.home, 'export-secret-block');
    const exported = runCli(['sessions', 'export', runId, '--format', 'trajectory', '--out', out], desktop.env());
    expect((await exported.exit).code, exported.stderr()).toBe(0);
    const trajectory = TrajectorySchema.parse(JSON.parse(readFileSync(path.join(out, 'trajectory.json'), 'utf8')));
    expect(trajectory.steps).toHaveLength(1);
    const [recorded] = trajectory.steps[0]!.actions;
    expect(codeBlockOf(recorded!.action)?.code).toContain(`computer.keyboard.write("${MASKED_SECRET}")`);
    expect(recorded!.secretRef).toEqual({ env: 'DESKPILOT_SECRET_1' });

    // Without the variable (and no terminal to ask at): a secret divergence at step 1 naming it; the field gets no key.
    await desktop.showControls(10);
    const before = desktop.probe.nextSeq();
    const refused = runCli(['replay', runId, '--strict', '--yes', '--json'], desktop.env());
    expect((await refused.exit).code, refused.stderr()).toBe(1);
    const refusedId = String(refused.events().find((e) => e.type === 'run_started')!.runId);
    const report = JSON.parse(readFileSync(path.join(desktop.home, 'sessions', refusedId, 'divergence.json'), 'utf8')) as { step: number; kind: string; message: string };
    expect([report.step, report.kind]).toEqual([1, 'secret']);
    expect(report.message).toContain('set the environment variable DESKPILOT_SECRET_1');
    await desktop.inputBarrier();
    expect(pressedInto(before, 'c4')).toBe('');

    // With it: the block runs again with the word in its code; the field gets the word, the replay's log never holds it.
    await desktop.showControls(10);
    const since = desktop.probe.nextSeq();
    const replay = runCli(['replay', runId, '--strict', '--yes', '--json'], { ...desktop.env(), DESKPILOT_SECRET_1: WORD });
    expect((await replay.exit).code, replay.stderr()).toBe(0);
    expect(pressedInto(since, 'c4')).toBe(WORD);
    const replayId = String(replay.events().find((e) => e.type === 'run_started')!.runId);
    const log = readFileSync(path.join(desktop.home, 'sessions', replayId, 'events.jsonl'), 'utf8');
    expect(log).not.toContain(WORD);
    expect(log).toContain(`computer.keyboard.write(\\"${MASKED_SECRET}\\")`);
  }, 600_000);
});
