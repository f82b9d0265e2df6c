/**
 * A replayed code block runs in its recorded language (issue 31): `deskpilot run
 * --harness code` with the fake model, whose one Python block clicks into the probe's c3,
 * types into it and appends a line to a file in the workspace; then `deskpilot replay`
 * of that run on a fresh page with no model server. The replay runs the block again in a
 * python3 session under the run's sandbox (the file gets its second line: as a shell
 * command the Python text is a bash syntax error and writes nothing), and its computer
 * calls are made once, by the block (the trajectory holds the block, not the block's
 * clicks and typing as steps of their own: the field would read the text twice).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Rect } from '../../src/shared/actions.js';
import { TrajectorySchema } from '../../src/shared/trajectory.js';
import { startFakeModel, type FakeRequest } from '../harness/fake-model/index.js';
import { finish, runCli, toImagePoint } from '../e2e/support.js';
import { SCREEN, useProbeDesktop } from './probe-desktop.js';

const desktop = useProbeDesktop();
const workspace = mkdtempSync(path.join(os.tmpdir(), 'dp-replay-block-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const centre = (r: Rect) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });
const TEXT = 'Grüße ✓ 7';
const LOG = 'blocks.txt';
/** The file the block appends to, as lines (none yet: empty). */
const logLines = () => {
  try {
    return readFileSync(path.join(workspace, LOG), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};
type Event = Record<string, unknown> & { type: string };

describe('deskpilot replay of a code-harness run', () => {
  it('runs the recorded Python block in python3 under the sandbox, its computer calls once', async () => {
    const controls = await desktop.showControls(10);
    const c3 = controls.find((c) => c.id === 'c3')!;
    const fake = await startFakeModel();
    let runId: string;
    try {
      fake.script(
        (req: FakeRequest) => {
          const [x, y] = toImagePoint(req, SCREEN, centre(c3));
          const code = [
            `computer.mouse.click(${x}, ${y})`,
            `computer.keyboard.write(${JSON.stringify(TEXT)})`,
            `with open(${JSON.stringify(LOG)}, "a") as f:`,
            `    f.write("ran in python %d\\n" % (6 * 7))`,
          ].join('\n');
          return { text: 'Fill c3 and note it.', toolCalls: [{ name: 'execute', input: { language: 'python', code } }] };
        },
        { text: 'Done.', toolCalls: [finish(true, 'filled')] },
      );
      const run = runCli(
        ['run', 'fill c3', '--harness', 'code', '--provider', 'anthropic', '--model', 'claude-sonnet-5-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--json', '--no-agents-md', '--sandbox', 'workspace-write'],
        desktop.env(fake),
        { cwd: workspace },
      );
      expect((await run.exit).code, run.stderr()).toBe(0);
      runId = String(run.events().find((e) => e.type === 'run_started')!.runId);
    } finally {
      await fake.close();
    }
    expect(logLines()).toEqual(['ran in python 42']);
    expect((await desktop.probe.controlValues()).find((c) => c.id === 'c3')?.value).toBe(TEXT);

    // The trajectory: one step, the block alone (its click and typing are the block's to make again).
    const out = path.join(desktop.home, 'export-block');
    const exported = runCli(['sessions', 'export', runId, '--format', 'trajectory', '--out', out], desktop.env());
    expect((await exported.exit).code, exported.stderr()).toBe(0);
    const trajectory = TrajectorySchema.parse(JSON.parse(readFileSync(path.join(out, 'trajectory.json'), 'utf8')));
    expect(trajectory.steps).toHaveLength(1);
    expect(trajectory.steps[0]!.intent).toBe('Fill c3 and note it.');
    expect(trajectory.steps[0]!.actions.map((a) => [a.action.type, a.action.type === 'shell' ? a.action.language : undefined])).toEqual([['shell', 'python']]);

    // Replay on a fresh page, no model server: the block runs again, in Python, in the workspace.
    await desktop.showControls(10);
    const replay = runCli(['replay', runId, '--yes', '--json'], desktop.env(), { cwd: workspace });
    const { code } = await replay.exit;
    expect(code, replay.stderr()).toBe(0);
    expect(replay.stderr()).toContain('1 of 1 steps replayed, 0 healed, 0 model calls');
    expect(logLines()).toEqual(['ran in python 42', 'ran in python 42']);
    expect((await desktop.probe.controlValues()).find((c) => c.id === 'c3')?.value).toBe(TEXT);
    const events = replay.events() as Event[];
    // Under the same sandbox as the run it replays.
    expect((events.find((e) => e.type === 'run_started')!.sandbox as { mode?: string } | undefined)?.mode).toBe('workspace-write');
    // The block was proposed once as the Python block it is, and its calls each passed the gate under it.
    // (A screenshot is the replay's own second look at a screen that was slow to match, finish its end: not actions of the step.)
    const proposed = events
      .filter((e) => e.type === 'action_proposed')
      .map((e) => e.action as { type: string; language?: string })
      .filter((a) => a.type !== 'screenshot' && a.type !== 'finish');
    expect(proposed.map((a) => (a.type === 'shell' ? `shell:${a.language}` : a.type))).toEqual(['shell:python', 'click', 'type']);
    const executed = events.filter((e) => e.type === 'action_executed');
    expect(executed.every((e) => e.ok === true), JSON.stringify(executed)).toBe(true);
  }, 400_000);
});
