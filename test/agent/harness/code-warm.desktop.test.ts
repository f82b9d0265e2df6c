/**
 * A code run's start warms its interpreter (issue 31, 1d21def), through the real CLI: the
 * fake model holds its first answer until it sees the run's Python driver waiting in the
 * sandbox, then sends a block that prints its own pid. The block ran in that very process
 * (its pid in the sandbox's namespace is the one seen before any block was asked for),
 * so the first block found its interpreter already started. A fact, not a time: on code
 * that starts the interpreter at the first block, no driver exists while the model is
 * still answering its first turn, and the test fails naming that.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer, type FakeRequest } from '../../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../../harness/xvfb.js';
import { finish, runCli, tempHome } from '../../e2e/support.js';
import type { RunEvent } from '../../../src/shared/events.js';
import { alive, driversIn, namespacePid } from './session-processes.js';

let xvfb: Xvfb;
let fake: FakeModelServer;
const home = tempHome();
// The run's workspace (--cd): the Python driver starts there, which is how /proc tells it from other runs'.
const workspace = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-warm-ws-'));

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1024, height: 768 });
  fake = await startFakeModel();
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await xvfb?.stop();
  home.cleanup();
  rmSync(workspace, { recursive: true, force: true });
});

/** What the model saw while composing its first answer: the Python drivers waiting in the run's workspace. */
interface FirstTurnSight {
  toolResults: number;
  drivers: number[];
  /** The one driver's pid inside the sandbox's pid namespace, read while it was alive. */
  namespacePid?: string;
}

/** Polls /proc for the run's Python driver (up to 60 s: its start took up to 8.4 s at load 46–54); answers what it found. */
async function lookForDriver(req: FakeRequest): Promise<FirstTurnSight> {
  const deadline = Date.now() + 60_000;
  let drivers = driversIn(workspace, 'python');
  while (drivers.length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    drivers = driversIn(workspace, 'python');
  }
  const sight: FirstTurnSight = { toolResults: req.toolResults.length, drivers };
  if (drivers.length === 1) sight.namespacePid = namespacePid(drivers[0]!);
  return sight;
}

describe('a code run warms its interpreter before the first block (real CLI, real bubblewrap)', () => {
  it('the first block runs in the Python driver that was already waiting while the model composed its first turn', async () => {
    const key = 'sk-ant-test-key-warm-0123456789';
    writeFileSync(path.join(home.home, 'config.json'), JSON.stringify({ profiles: { p: { provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: fake.anthropicBaseUrl } }, defaultProfile: 'p' }));
    const seen: { first?: FirstTurnSight } = {};
    const first = fake.requests.length;
    fake.script(
      async (req) => {
        seen.first = await lookForDriver(req);
        // Without a waiting driver there is nothing to show: end the run, the assertions below say why.
        if (seen.first.namespacePid === undefined) return { text: 'No interpreter was waiting.', toolCalls: [finish(false, 'no warm interpreter')] };
        return { text: 'Which process am I?', toolCalls: [{ name: 'execute', input: { language: 'python', code: 'import os\nprint("PID", os.getpid())' } }] };
      },
      { text: 'Done.', toolCalls: [finish(true, 'pid printed')] },
    );
    const cli = runCli(
      ['run', 'print your pid', '--harness', 'code', '--policy', 'auto', '--sandbox', 'workspace-write', '--cd', workspace, '--json', '--max-steps', '4', '--no-agents-md'],
      { ...xvfb.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: key },
    );
    // A run that never ends is killed so its output says where it stood.
    const guard = setTimeout(() => cli.child.kill('SIGKILL'), 240_000);
    const exit = await cli.exit.finally(() => clearTimeout(guard));
    const where = `${cli.stderr()}\n${cli.stdout().slice(-3000)}`;

    // While the model composed its first turn (no block asked for yet), exactly one Python driver waited in the workspace.
    expect(seen.first, where).toBeDefined();
    expect(seen.first!.toolResults).toBe(0);
    expect(seen.first!.drivers, 'Python drivers in the workspace during the first model turn').toHaveLength(1);
    expect(exit.code, where).toBe(0);
    const requests = fake.requests.slice(first);
    expect(requests).toHaveLength(2);
    // The first block ran in that process, and the model was not told it started afresh.
    const answer = requests[1]!.toolResults.at(-1)!.text;
    expect(answer).toContain(`PID ${seen.first!.namespacePid}\n`);
    expect(answer).not.toContain('afresh');
    const events = cli.events() as unknown as RunEvent[];
    expect(events.find((e) => e.type === 'run_ended')).toMatchObject({ type: 'run_ended' });
    // The run's end ended it.
    expect(alive(seen.first!.drivers[0]!)).toBe(false);
  }, 300_000);
});
