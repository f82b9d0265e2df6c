import * as acp from '@agentclientprotocol/sdk';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createAcpAgent } from '../../src/main/acp/acp-agent.js';
import { connectMcpServers, type McpToolbox } from '../../src/main/agent/mcp/mcp-servers.js';
import type { RunHandle } from '../../src/main/agent/run-api.js';
import { startRun } from '../../src/main/agent/runner.js';
import { defaultConfig } from '../../src/main/config/index.js';
import { createBridgeService } from '../../src/main/service/index.js';
import { McpServerConfigSchema } from '../../src/shared/config.js';
import { createRunLog } from '../../src/main/sessions/run-log.js';
import { tempHome, testRunOptions } from '../e2e/support.js';
import { createFakeComputer } from '../harness/fake-computer.js';

// Issue 27 item 7: the MCP servers a run was given stop on every path where the run is
// refused or fails to start — checked on the server's process, by its pid. The server is
// a real stdio MCP server (fixtures/pid-server.mjs) started by DeskPilot's own client.

const PID_SERVER = path.join(import.meta.dirname, 'fixtures', 'pid-server.mjs');
const home = tempHome('deskpilot-mcp-lifetime-');
const started: number[] = [];
afterEach(() => {
  // A server the code under test left running must not outlive the test.
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
});
afterAll(() => home.cleanup());

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let seq = 0;
/** A config naming the pid server, and the file its pid lands in once it runs. */
function pidServer() {
  seq += 1;
  const pidFile = path.join(home.home, `server-${seq}.pid`);
  return { pidFile, mcpServers: { pids: McpServerConfigSchema.parse({ command: process.execPath, args: [PID_SERVER, pidFile], approval: 'ask' }) } };
}

/** The server's pid, once it has written it (it writes right after it connects). */
async function serverPid(pidFile: string): Promise<number> {
  await vi.waitFor(() => expect(existsSync(pidFile) && readFileSync(pidFile, 'utf8').length > 0).toBe(true), { timeout: 20_000, interval: 20 });
  const pid = Number(readFileSync(pidFile, 'utf8'));
  started.push(pid);
  return pid;
}

/** No server of this config runs: it never started, or its process is gone. */
async function expectNoServer(pidFile: string): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  started.push(pid);
  await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 10_000, interval: 20 });
}

async function toolbox(): Promise<{ mcp: McpToolbox; pid: number; pidFile: string }> {
  const { pidFile, mcpServers } = pidServer();
  const mcp = await connectMcpServers(mcpServers);
  expect(mcp.problems).toEqual([]);
  const pid = await serverPid(pidFile);
  expect(alive(pid)).toBe(true);
  return { mcp, pid, pidFile };
}

const runOptions = (mcp: McpToolbox, extra: Partial<Parameters<typeof testRunOptions>[0]> = {}) =>
  testRunOptions({
    task: 'never runs',
    profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: 'http://127.0.0.1:9' },
    computer: createFakeComputer(),
    home: home.home,
    config: { ...defaultConfig(), takeover: 'ignore' },
    mcp,
    ...extra,
  });

describe('a run that fails to start stops its MCP servers', () => {
  it('openLog fails (resuming a run that does not exist): the server process is gone', async () => {
    const { mcp, pidFile } = await toolbox();
    await expect(startRun(runOptions(mcp, { resumeRunId: '20260101-000000-nosuch' }))).rejects.toThrow();
    await expectNoServer(pidFile);
  });

  it('restorePoint fails (resuming a log with no run_started): the server process is gone', async () => {
    const empty = await createRunLog({ home: home.home });
    await empty.close();
    const { mcp, pidFile } = await toolbox();
    await expect(startRun(runOptions(mcp, { resumeRunId: empty.runId }))).rejects.toThrow(/no run_started/);
    await expectNoServer(pidFile);
  });
});

describe('deskpilot acp: a prompt refused for a conflict leaves no MCP server running', () => {
  it('another run is active: the prompt is refused and no server of its config runs', async () => {
    const { pidFile, mcpServers } = pidServer();
    writeFileSync(path.join(home.home, 'config.json'), JSON.stringify({ mcpServers, takeover: 'ignore' }));
    const computer = createFakeComputer();
    const service = createBridgeService({ home: home.home, computer });
    // The active run: another front end's, hosted by the same service until the test ends.
    let endActive!: () => void;
    const activeDone = new Promise<void>((resolve) => (endActive = resolve));
    const active = {
      runId: 'active-run',
      dir: home.home,
      done: activeDone.then(() => ({ runId: 'active-run', status: 'stopped', summary: '', steps: 0, usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 } })),
      stop: () => endActive(),
      pause: () => undefined,
      resume: () => undefined,
      answerApproval: () => undefined,
      answerQuestion: () => undefined,
    } as unknown as RunHandle;
    await service.hostRun(async () => active, 'ask');

    const agent = createAcpAgent({
      service,
      computer,
      home: home.home,
      policy: 'ask',
      choices: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: 'http://127.0.0.1:9' },
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
      agentsMd: false,
    });
    const toAgent = new TransformStream<Uint8Array, Uint8Array>();
    const toClient = new TransformStream<Uint8Array, Uint8Array>();
    const connection = agent.connect(acp.ndJsonStream(toClient.writable, toAgent.readable));
    const refused = await acp.client({ name: 'lifetime-test' }).connectWith(acp.ndJsonStream(toAgent.writable, toClient.readable), async (peer) => {
      await peer.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      const { sessionId } = await peer.request(acp.methods.agent.session.new, { cwd: home.home, mcpServers: [] });
      return peer.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'do something' }] }).then(
        () => 'answered',
        (error: unknown) => String((error as Error).message),
      );
    });
    await expectNoServer(pidFile);
    expect(refused).toMatch(/a run is already active/);
    endActive();
    await service.close();
    void connection;
  });
});
