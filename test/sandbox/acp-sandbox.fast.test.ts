import * as acp from '@agentclientprotocol/sdk';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAcpAgent } from '../../src/main/acp/acp-agent.js';
import { createBridgeService } from '../../src/main/service/index.js';
import { finish, tempHome } from '../e2e/support.js';
import { createFakeComputer } from '../harness/fake-computer.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';

// ACP's `cwd` is the workspace of the session's commands (issue 30): a shell command runs
// there in the sandbox and a write outside is refused; a session
// whose cwd is / is refused with the sandbox's message.

const home = tempHome('deskpilot-acp-sandbox-');
const project = fs.mkdtempSync('/var/tmp/deskpilot-acp-project-');
const outside = fs.mkdtempSync('/var/tmp/deskpilot-acp-outside-');
let fake: FakeModelServer;
beforeEach(async () => {
  fake = await startFakeModel();
});
afterEach(async () => {
  await fake?.close();
});
afterAll(() => {
  home.cleanup();
  fs.rmSync(project, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

async function prompt(cwd: string, policy: 'auto' | 'ask' = 'auto') {
  const computer = createFakeComputer();
  const service = createBridgeService({ home: home.home, computer });
  const agent = createAcpAgent({
    service,
    computer,
    home: home.home,
    policy,
    choices: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl },
    env: { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-test' },
    agentsMd: false,
  });
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  agent.connect(acp.ndJsonStream(toClient.writable, toAgent.readable));
  const updates: acp.SessionUpdate[] = [];
  const asked: acp.RequestPermissionRequest[] = [];
  try {
    const stopReason = await acp
      .client({ name: 'sandbox-test' })
      .onNotification(acp.methods.client.session.update, ({ params }) => void updates.push(params.update))
      .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
        asked.push(params);
        return { outcome: { outcome: 'selected', optionId: 'reject' } };
      })
      .connectWith(acp.ndJsonStream(toAgent.writable, toClient.readable), async (peer) => {
        await peer.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
        const { sessionId } = await peer.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
        return (await peer.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'run it' }] })).stopReason;
      });
    return { stopReason, updates, asked };
  } finally {
    await service.close();
  }
}

describe('ACP: the session cwd is the sandbox workspace', () => {
  it('commands start there and write there; a write outside is refused and marked for the model', async () => {
    let seen = '';
    fake.script(
      { toolCalls: [{ name: 'shell', input: { command: `pwd > here.txt; echo x > ${outside}/nope` } }] },
      (req) => {
        seen = req.toolResults.at(-1)?.text ?? '';
        return { toolCalls: [finish(true, 'done')] };
      },
    );
    const { stopReason } = await prompt(project);
    expect(stopReason).toBe('end_turn');
    expect(fs.readFileSync(path.join(project, 'here.txt'), 'utf8').trim()).toBe(fs.realpathSync(project));
    expect(fs.existsSync(path.join(outside, 'nope'))).toBe(false);
    expect(seen).toContain('[the sandbox may have refused this: read-only file system at');
  });

  it('the editor is asked with where the command runs: the run\'s sandbox in describeSandbox\'s words (issue 30 item 7)', async () => {
    fake.script({ toolCalls: [{ name: 'shell', input: { command: 'touch asked.txt' } }] }, { toolCalls: [finish(true, 'done')] });
    const { stopReason, asked } = await prompt(project, 'ask');
    expect(stopReason).toBe('end_turn');
    expect(asked).toHaveLength(1);
    const texts = (asked[0]!.toolCall.content ?? []).map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : ''));
    const real = fs.realpathSync(project);
    expect(texts).toEqual(['run shell: touch asked.txt', `runs in: sandbox: workspace-write by bubblewrap — writes only in ${real} and a private temp dir; no network; no display; workspace ${real}`]);
    expect(fs.existsSync(path.join(project, 'asked.txt'))).toBe(false); // rejected: never ran
  });

  it('a session whose cwd is / is refused with the reason', async () => {
    await expect(prompt('/')).rejects.toThrow('the workspace / is the root of the file system');
  });
});
