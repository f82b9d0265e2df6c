import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESCALATED_NOTE } from '../../src/main/agent/harness/code/run-block.js';
import { defaultConfig } from '../../src/main/config/index.js';
import { sandboxPolicy } from '../../src/main/sandbox/index.js';
import type { Computer } from '../../src/os-control/types.js';
import type { RunEvent } from '../../src/shared/events.js';
import { finish, tempHome, testRunOptions, until } from '../e2e/support.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { requirePrograms } from '../harness/requirements.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

// The code harness's execute in a sandboxed run (issue 30 item 9), end to end: the real
// SDK asks the fake model, the Python block runs under the real bubblewrap. A block the
// sandbox refuses (no network: a loopback server on the host is not reached) comes back
// marked, with how to ask again; the block asked again with escalate waits for a person
// under --policy auto and an allow rule for every shell command, runs nothing when the
// person refuses, and runs in a fresh interpreter with the network when one approves.

requirePrograms(['bwrap', 'python3']);

const base = fs.mkdtempSync('/var/tmp/deskpilot-code-escalation-');
const workspace = path.join(base, 'ws');
fs.mkdirSync(workspace);
const hits: string[] = [];
const server = http.createServer((req, res) => {
  hits.push(req.url ?? '');
  res.end('from the host');
});
let xvfb: Xvfb;
let fake: FakeModelServer;
let computer: Computer;
const home = tempHome();

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  xvfb = await startXvfb({ width: 800, height: 600 });
  process.env.DISPLAY = xvfb.display;
  fake = await startFakeModel();
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = await createComputer();
}, 60_000);

afterAll(async () => {
  server.close();
  await fake?.close();
  await xvfb?.stop();
  home.cleanup();
  fs.rmSync(base, { recursive: true, force: true });
});

describe('execute in a sandboxed run: a refused block, its escalation held for a person', () => {
  it('marks the refusal, runs nothing when the person refuses the escalation, and runs it in a fresh interpreter when one approves', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fetch = (what: string) => `import urllib.request\nurllib.request.urlopen(${JSON.stringify(`${url}/${what}`)}, timeout=10).read().decode()`;
    const escalated = (what: string) => ({ name: 'execute', input: { language: 'python', code: fetch(what), escalate: { network: true }, reason: 'the task reads a local server' } });
    const toolResults: string[] = [];
    const offered: string[][] = [];
    fake.script(
      (req) => {
        offered.push(req.toolNames);
        return { toolCalls: [{ name: 'execute', input: { language: 'python', code: `seen = 1\n${fetch('plain')}` } }] };
      },
      (req) => {
        toolResults.push(req.toolResults.at(-1)?.text ?? '');
        return { toolCalls: [escalated('refused')] };
      },
      (req) => {
        toolResults.push(req.toolResults.at(-1)?.text ?? '');
        return { toolCalls: [escalated('approved')] };
      },
      (req) => {
        toolResults.push(req.toolResults.at(-1)?.text ?? '');
        return { toolCalls: [{ name: 'execute', input: { language: 'python', code: 'seen + 1' } }] };
      },
      (req) => {
        toolResults.push(req.toolResults.at(-1)?.text ?? '');
        return { toolCalls: [finish(true, 'read it')] };
      },
    );
    const { startRun } = await import('../../src/main/agent/runner.js');
    const events: RunEvent[] = [];
    const handle = await startRun(
      testRunOptions({
        task: 'read the local server',
        profile: { provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: fake.anthropicBaseUrl, harness: 'code' },
        policy: 'auto',
        config: { ...defaultConfig(), policy: { mode: 'auto', rules: [{ effect: 'allow', actions: ['shell'] }] } },
        limits: { maxSteps: 10, maxWallMs: 120_000, maxCostUsd: 5 },
        computer,
        home: home.home,
        sandbox: sandboxPolicy({ mode: 'workspace-write', workspace }),
        onEvent: (e) => events.push(e),
      }),
    );
    const asked = () => events.filter((e): e is Extract<RunEvent, { type: 'approval_requested' }> => e.type === 'approval_requested');
    const first = await until(() => asked()[0], 60_000, 'the first escalation to be held');
    // The plain block ran unattended (allow rule) in the sandbox, and its refusal reached the model.
    expect(toolResults[0]).toContain('[the sandbox may have refused this: network unreachable (the sandbox has no network).');
    expect(toolResults[0]).toContain('call execute again with the same code, escalate: {write: [absolute paths], network: true}');
    expect(first).toMatchObject({ decision: { verdict: 'ask', rule: 'sandbox-escalation', humanOnly: true } });
    const proposed = events.find((e) => e.type === 'action_proposed' && e.proposalId === first.proposalId);
    expect(proposed).toMatchObject({ action: { type: 'shell', language: 'python', escalate: { network: true }, reason: 'the task reads a local server' } });
    handle.answerApproval(first.proposalId, { decision: 'reject' }, 'tester');
    const second = await until(() => asked()[1], 60_000, 'the second escalation to be held');
    // Refused: the block never ran, the server saw nothing.
    expect(hits).toEqual([]);
    expect(toolResults[1]).not.toContain('from the host');
    handle.answerApproval(second.proposalId, { decision: 'approve' }, 'tester');
    expect(await handle.done).toMatchObject({ status: 'done' });
    expect(hits).toEqual(['/approved']);
    expect(toolResults[2]).toContain("value: 'from the host'");
    expect(toolResults[2]).toContain(ESCALATED_NOTE);
    expect(toolResults[2]).not.toContain('the sandbox may have refused');
    // The persistent session kept its variables: the escalated block ran beside it, not in it.
    expect(toolResults[3]).toContain('value: 2');
    // A sandboxed run's execute offers escalate: the declaration the model got.
    expect(offered[0]).toContain('execute');
    const executed = events.filter((e) => e.type === 'action_executed').map((e) => (e.type === 'action_executed' ? e.ok : undefined));
    expect(executed).toEqual([false, true, true]);
  }, 180_000);
});
