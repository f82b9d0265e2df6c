import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunOptions } from '../../src/main/agent/run-api.js';
import { createBridgeService } from '../../src/main/service/index.js';
import type { ClientInfo } from '../../src/main/service/types.js';
import { finish, tempHome } from '../e2e/support.js';
import { startFakeModel } from '../harness/fake-model/index.js';
import { createFakeComputer } from '../harness/fake-computer.js';

// The app's and serve's runs (the bridge service's run.start) get the sandbox of
// config.json: in ~/DeskPilot by default (made on first use), in sandbox.workspace when
// set; a workspace of / refuses the start with the reason. The run itself is not needed:
// the service's startRun is replaced by one that keeps the options it was given.

const home = tempHome('deskpilot-service-sandbox-');
const client: ClientInfo = { id: 'ws:1', kind: 'ws' };
// A home folder of the test's own (os.homedir() reads HOME): ~/DeskPilot is made there.
const userHome = fs.mkdtempSync('/var/tmp/deskpilot-service-home-');
const realHome = process.env.HOME;
process.env.HOME = userHome;
afterAll(() => {
  process.env.HOME = realHome;
  home.cleanup();
  fs.rmSync(userHome, { recursive: true, force: true });
});

async function startWith(config: object): Promise<RunOptions | Error> {
  fs.writeFileSync(path.join(home.home, 'config.json'), JSON.stringify(config));
  let given: RunOptions | undefined;
  const service = createBridgeService({
    home: home.home,
    computer: createFakeComputer(),
    env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    startRun: async (options) => {
      given = options;
      throw new Error('not started: the test only reads the options');
    },
  });
  try {
    await service.call('run.start', { task: 'do it' }, client);
  } catch (error) {
    if (!given) return error as Error;
  } finally {
    await service.close();
  }
  return given!;
}

describe('the service starts runs in the sandbox of config.json', () => {
  it('workspace-write in ~/DeskPilot by default', async () => {
    const options = await startWith({});
    expect(os.homedir()).toBe(userHome);
    expect(options).toMatchObject({ sandbox: { mode: 'workspace-write', workspace: path.join(userHome, 'DeskPilot'), network: false } });
    expect(fs.statSync(path.join(userHome, 'DeskPilot')).isDirectory()).toBe(true);
  });

  it('sandbox.workspace and sandbox.mode from config; a workspace of / refuses the start', async () => {
    const project = fs.mkdtempSync('/var/tmp/deskpilot-service-project-');
    try {
      expect(await startWith({ sandbox: { mode: 'read-only', workspace: project } })).toMatchObject({ sandbox: { mode: 'read-only', workspace: project } });
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
    const refused = await startWith({ sandbox: { workspace: '/' } });
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toContain('the workspace / is the root of the file system');
  });
});

describe('run details: the sandbox is in the run the app and serve show', () => {
  it("a run the service starts logs its mode, enforcer, workspace and network in run_started, and sessions.open (History, run details) returns it", async () => {
    fs.writeFileSync(path.join(home.home, 'config.json'), JSON.stringify({ sandbox: { networkAccess: true } }));
    const fake = await startFakeModel();
    const service = createBridgeService({ home: home.home, computer: createFakeComputer(), env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseUrl } });
    try {
      fake.script({ toolCalls: [finish(true, 'nothing to do')] });
      const { runId } = (await service.call('run.start', { task: 'say hi', provider: 'anthropic', model: 'claude-haiku-4-5', policy: 'auto' }, client)) as { runId: string };
      // The run's log as History and the run details read it, once the run has ended (polled: no fixed wait).
      let events: Array<{ type: string }> = [];
      for (const deadline = Date.now() + 30_000; !events.some((e) => e.type === 'run_ended'); await new Promise((r) => setTimeout(r, 50))) {
        if (Date.now() > deadline) throw new Error(`the run did not end: ${JSON.stringify(events.map((e) => e.type))}`);
        ({ events } = (await service.call('sessions.open', { runId }, client)) as { events: Array<{ type: string }> });
      }
      expect(events.find((e) => e.type === 'run_started')).toMatchObject({
        sandbox: { mode: 'workspace-write', enforcer: 'bubblewrap', workspace: path.join(userHome, 'DeskPilot'), network: true, display: false },
      });
    } finally {
      await service.close();
      await fake.close();
    }
  });
});
