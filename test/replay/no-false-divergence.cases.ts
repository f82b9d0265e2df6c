/**
 * Issue 28 item 4 on the probe desktop: click a plain text field, type "Replay ✓ Grüße 7"
 * (characters typed through remapped keycodes), press Return, then `deskpilot replay
 * --strict` it `replays` times in a row: every one exits 0 with the text typed. CI runs
 * one replay (replay-trust.desktop.test.ts); the opt-in file runs 10 in a row, which took
 * ~245 s of CI's 2 cores (the Debian root run of 2026-12-04).
 */
import { describe, expect, it } from 'vitest';
import { startFakeModel, type FakeRequest } from '../harness/fake-model/index.js';
import { claude, finish, runCli, toImagePoint } from '../e2e/support.js';
import { SCREEN, type useProbeDesktop } from './probe-desktop.js';

type ProbeDesktop = ReturnType<typeof useProbeDesktop>;
export type RecordedStep = (req: FakeRequest) => ReturnType<typeof claude.click>;

const runIdOf = (events: Array<Record<string, unknown>>) => String(events.find((e) => e.type === 'run_started')!.runId);
const centre = (r: { x: number; y: number; width: number; height: number }) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });

/** A fake-model run of `steps` (each a function of the request), then finish; its run id. */
export async function recordRunOn(desktop: ProbeDesktop, task: string, steps: RecordedStep[]): Promise<string> {
  const fake = await startFakeModel();
  try {
    fake.script(...steps.map((step, i) => (req: FakeRequest) => ({ text: `Step ${i + 1}.`, toolCalls: [step(req)] })), { text: 'Done.', toolCalls: [finish(true, 'done')] });
    const run = runCli(['run', task, '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--json', '--no-agents-md'], desktop.env(fake));
    const { code } = await run.exit;
    expect(code, run.stderr()).toBe(0);
    return runIdOf(run.events());
  } finally {
    await fake.close();
  }
}

export function noFalseDivergence(desktop: ProbeDesktop, replays: number): void {
  describe('no false divergence (item 4)', () => {
    it(`click a text field, type "Replay ✓ Grüße 7", press Return: --strict replays it ${replays === 1 ? 'and exits 0' : `${replays} times in a row, every one exits 0`} with the text typed`, async () => {
      const TEXT = 'Replay ✓ Grüße 7';
      // c3 is a plain <input type=text>: Return changes nothing in it.
      const fieldOf = (controls: Array<{ id: string; x: number; y: number; width: number; height: number }>) => centre(controls.find((c) => c.id === 'c3')!);
      const field = fieldOf(await desktop.probe.showControls(10));
      const valueNow = async () => (await desktop.probe.controlValues()).find((c) => c.id === 'c3')!.value;
      const recorded = await recordRunOn(desktop, 'write into the field', [(req) => claude.click(...toImagePoint(req, SCREEN, field)), () => claude.type(TEXT), () => claude.key('Return')]);
      expect(await valueNow()).toBe(TEXT);
      const outcomes: Array<{ code: number | null; value: string | null; stderr: string }> = [];
      for (let i = 0; i < replays; i++) {
        expect(fieldOf(await desktop.probe.showControls(10))).toEqual(field);
        const replay = runCli(['replay', recorded, '--strict', '--yes', '--json'], desktop.env());
        const { code } = await replay.exit;
        outcomes.push({ code, value: await valueNow(), stderr: code === 0 ? '' : replay.stderr() });
      }
      expect(outcomes).toEqual(Array.from({ length: replays }, () => ({ code: 0, value: TEXT, stderr: '' })));
    }, 120_000 + replays * 48_000);
  });
}
