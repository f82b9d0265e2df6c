import * as acp from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesktop, type Desktop } from '../harness/desktop.js';
import { BIN, REPO_ROOT, claude, finish, tempHome, toImagePoint } from '../e2e/support.js';

// `deskpilot acp` driven by the ACP SDK's client side over stdio, as an editor runs it:
// a prompt starts a desktop task on a private X display (probe page + fake model);
// each held action is a session/request_permission the client answers; the session
// updates carry the steps and the screenshots; nothing reaches the probe before the
// permission, and a rejected action never does.

const SCREEN = { width: 1280, height: 800 };
let desktop: Desktop;
const home = tempHome('deskpilot-acp-');

beforeAll(async () => {
  desktop = await startDesktop(SCREEN);
}, 60_000);

afterAll(async () => {
  await desktop?.stop();
  home.cleanup();
});

describe('deskpilot acp', () => {
  it('starts a task from a prompt; permissions answer the approval queue; updates carry steps and screenshots', async () => {
    const { probe, fake } = desktop;
    await probe.reset();
    fake.script(
      (req) => ({ text: 'Clicking the field.', toolCalls: [claude.click(...toImagePoint(req, SCREEN, probe.fieldCenter()))] }),
      { text: 'Typing.', toolCalls: [claude.type('never typed')] },
      (req) => ({ text: 'The person said no.', toolCalls: [finish(false, `refused: ${req.toolResults.at(-1)?.text ?? ''}`)] }),
    );
    const child = spawn(
      process.execPath,
      [BIN, 'acp', '--policy', 'ask', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl],
      {
        cwd: REPO_ROOT,
        env: { ...desktop.xvfb.env, PATH: process.env.PATH, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'sk-ant-test', OPENAI_API_KEY: '' },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    const updates: acp.SessionUpdate[] = [];
    const asked: Array<{ title: string; inputEventsBefore: number }> = [];
    const inputEvents = () => probe.events().filter((e) => /pointer(down|up)|key(down|up)|input/.test(String(e.type))).length;
    const since = inputEvents();
    const app = acp
      .client({ name: 'deskpilot-acp-test' })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        updates.push(params.update);
      })
      .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
        // Give a held action time to leak: nothing may reach the probe before this answer.
        await new Promise((r) => setTimeout(r, 500));
        asked.push({ title: params.toolCall.title ?? '', inputEventsBefore: inputEvents() - since });
        const optionId = asked.length === 1 ? 'approve' : 'reject';
        expect(params.options.map((o) => o.optionId)).toEqual(['approve', 'approve_similar', 'reject']);
        return { outcome: { outcome: 'selected', optionId } };
      });
    const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
    const stopReason = await app.connectWith(stream, async (agent) => {
      const init = await agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      expect(init.agentInfo?.name).toBe('deskpilot');
      const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd: REPO_ROOT, mcpServers: [] });
      const response = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'type into the field' }] });
      return response.stopReason;
    });
    child.stdin.end();
    expect(await exited, stderr).toBe(0);

    expect(stopReason).toBe('end_turn');
    expect(asked.map((a) => a.title)).toEqual([expect.stringMatching(/^click left at/), 'type "never typed" (11 characters)']);
    // Before the first permission nothing had reached the probe; the approved click did, the rejected typing did not.
    expect(asked[0]!.inputEventsBefore).toBe(0);
    await probe.expectClickAt(probe.fieldCenter().x, probe.fieldCenter().y);
    expect(await probe.textValue()).toBe('');

    const calls = updates.filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call' }> => u.sessionUpdate === 'tool_call');
    const shots = calls.filter((c) => c.kind === 'read' && c.content?.[0]?.type === 'content' && c.content[0].content.type === 'image');
    expect(shots.length).toBeGreaterThanOrEqual(2);
    expect(calls.map((c) => c.title)).toEqual(expect.arrayContaining([expect.stringMatching(/^click left at/), 'type "never typed" (11 characters)']));
    const results = updates.filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call_update' }> => u.sessionUpdate === 'tool_call_update');
    expect(results.map((r) => r.status)).toEqual(expect.arrayContaining(['completed', 'failed']));
    const said = updates.flatMap((u) => (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? [u.content.text] : [])).join('');
    expect(said).toContain('Clicking the field.');
    expect(said).toMatch(/failed: refused: .*rejected/);
  }, 150_000);
});
