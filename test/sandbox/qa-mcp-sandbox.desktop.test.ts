import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Stream } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/shared/events.js';
import { startFakeModel, type FakeModelServer, type FakeRequest } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { BIN, finish, runCli, tempHome } from '../e2e/support.js';
import { call, qaModel } from '../qa/qa-support.js';

// `deskpilot qa` and `deskpilot mcp` (run_task) run the model's shell commands in the
// sandbox `run` gives them (issue 30): the real CLI as shipped, real bubblewrap, the fake
// model asking for one command that writes in the workspace and outside it. What is
// asserted is the file system afterwards and the tool result the model got back.
//
// The scratch folder is under /var/tmp: a write to a folder under /tmp would land in the
// sandbox's private /tmp and vanish, instead of being refused.

const scratch = fs.realpathSync(fs.mkdtempSync('/var/tmp/dp-qa-mcp-sandbox-'));
const fakeHome = path.join(scratch, 'home');
const project = path.join(fakeHome, 'project');
const outside = path.join(scratch, 'outside');
for (const dir of [project, outside]) fs.mkdirSync(dir, { recursive: true });
const dpHome = tempHome('dp-qa-mcp-sandbox-home-');
let xvfb: Xvfb;
let fake: FakeModelServer;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 800, height: 600, windowManager: false });
  fake = await startFakeModel();
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await xvfb?.stop();
  dpHome.cleanup();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const env = (): Record<string, string> => ({
  ...(xvfb.env as Record<string, string>),
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: fakeHome,
  DESKPILOT_HOME: dpHome.home,
  ANTHROPIC_API_KEY: 'sk-ant-test',
  ANTHROPIC_BASE_URL: '',
  OPENAI_API_KEY: '',
});
const model = () => ['--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl];

/** One command: a file in the workspace, one outside it; each reports how it went. */
const writeBoth = (tag: string) => `echo in > ${tag}-inside.txt && echo wrote-inside; echo out > ${outside}/${tag}-escaped.txt && echo wrote-outside`;
const shell = (command: string) => ({ name: 'shell', input: { command } });

function expectContained(tag: string, result: string | undefined, workspace = project): void {
  expect(fs.readFileSync(path.join(workspace, `${tag}-inside.txt`), 'utf8')).toBe('in\n');
  expect(fs.existsSync(path.join(outside, `${tag}-escaped.txt`))).toBe(false);
  expect(result).toContain('wrote-inside');
  expect(result).not.toContain('wrote-outside');
  expect(result).toContain('Read-only file system');
  expect(result).toContain('[the sandbox may have refused this');
}

function runStarted(runId: string): Extract<RunEvent, { type: 'run_started' }> {
  const events = fs
    .readFileSync(path.join(dpHome.home, 'sessions', runId, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RunEvent);
  return events.find((e): e is Extract<RunEvent, { type: 'run_started' }> => e.type === 'run_started')!;
}

/** The sessions whose run_started has this label value. */
function sessionsLabelled(key: string, value: string): string[] {
  return fs.readdirSync(path.join(dpHome.home, 'sessions')).filter((id) => fs.existsSync(path.join(dpHome.home, 'sessions', id, 'events.jsonl')) && runStarted(id).labels[key] === value);
}

const PLAN = `# Sandbox QA

## App
- Launch: \`xcalc -geometry 200x280+10+10\`
- Window: Calculator
- Start timeout: 15s

## Defaults
- Timeout: 60s
- Max steps: 4

## Case: Writes files
Steps:
1. Write the two files.
Expected:
- The files are written.
`;

describe('deskpilot qa: the model\'s shell commands run in the sandbox', () => {
  const planFile = path.join(scratch, 'sandbox.plan.md');
  fs.writeFileSync(planFile, PLAN);

  async function qaWith(tag: string, extra: string[]): Promise<{ code: number | null; stdout: string; stderr: string; result: string | undefined }> {
    let result: string | undefined;
    fake.setFallback(
      qaModel({
        'Writes files': [
          () => ({ text: 'Writing.', toolCalls: [shell(writeBoth(tag))] }),
          (req: FakeRequest) => {
            result = req.toolResults.at(-1)?.text;
            return { text: 'Done.', toolCalls: [call.verdict('pass', 'written')] };
          },
        ],
      }),
    );
    const run = runCli(['qa', planFile, ...model(), ...extra], env(), { cwd: project });
    const { code } = await run.exit;
    return { code, stdout: run.stdout(), stderr: run.stderr(), result };
  }

  it('workspace-write by default in the current folder: the write inside lands, the one outside is refused and said so', async () => {
    const { code, stdout, stderr, result } = await qaWith('qa', []);
    expect([0, 1], stderr).toContain(code);
    expect(stdout).toContain(`sandbox: workspace-write by bubblewrap — writes only in ${project} and a private temp dir; no network; no display; workspace ${project}`);
    expectContained('qa', result);
    const [runId] = sessionsLabelled('qaCase', 'Writes files');
    expect(runStarted(runId!).sandbox).toMatchObject({ mode: 'workspace-write', enforcer: 'bubblewrap', workspace: project, network: false });
  }, 240_000);

  it('--workers 1: the worker on its own display gets the same sandbox from its parent', async () => {
    const { code, stdout, stderr, result } = await qaWith('worker', ['--workers', '1', '--cd', project]);
    expect([0, 1], stderr).toContain(code);
    expect(stdout).toContain('1 virtual display');
    expectContained('worker', result);
  }, 300_000);

  it('bad sandbox input is exit 2 before any app starts; --sandbox read-only refuses the write inside too', async () => {
    const bad = runCli(['qa', planFile, ...model(), '--cd', fakeHome], env(), { cwd: project });
    expect((await bad.exit).code, bad.stderr()).toBe(2);
    expect(bad.stderr()).toContain(`deskpilot qa: the workspace ${fakeHome} is your home folder`);
    const { result } = await qaWith('ro', ['--sandbox', 'read-only']);
    expect(fs.existsSync(path.join(project, 'ro-inside.txt'))).toBe(false);
    expect(fs.existsSync(path.join(outside, 'ro-escaped.txt'))).toBe(false);
    expect(result).toContain('[the sandbox may have refused this');
  }, 240_000);
});

interface Mcp {
  client: Client;
  stderr(): string;
}

async function spawnMcp(args: string[], cwd: string): Promise<Mcp> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], env: env(), cwd, stderr: 'pipe' });
  let err = '';
  (transport.stderr as Stream | null)?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const client = new Client({ name: 'sandbox-test-client', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err };
}

const textOf = (r: CallToolResult) => r.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');

describe('deskpilot mcp: run_task runs its shell commands in the sandbox', () => {
  async function runTask(mcp: Mcp, tag: string): Promise<{ text: string; result: string | undefined }> {
    let result: string | undefined;
    fake.script(
      { text: 'Writing.', toolCalls: [shell(writeBoth(tag))] },
      (req: FakeRequest) => {
        result = req.toolResults.at(-1)?.text;
        return { text: 'Done.', toolCalls: [finish(true, 'written')] };
      },
    );
    const answer = (await mcp.client.callTool({ name: 'run_task', arguments: { task: 'write the files' } })) as CallToolResult;
    return { text: textOf(answer), result };
  }

  it('in the folder the client started it in: the write outside is refused, said on stderr and in the session log', async () => {
    const mcp = await spawnMcp(['--policy', 'auto', ...model()], project);
    try {
      const { text, result } = await runTask(mcp, 'mcp');
      expect(text, mcp.stderr()).toMatch(/^done: written/);
      expectContained('mcp', result);
      expect(mcp.stderr()).toContain(`deskpilot mcp: sandbox: workspace-write by bubblewrap — writes only in ${project} and a private temp dir`);
      const runId = /session id: (\S+)/.exec(text)![1]!;
      expect(runStarted(runId).sandbox).toMatchObject({ mode: 'workspace-write', workspace: project });
    } finally {
      await mcp.client.close();
    }
  }, 240_000);

  it('started in / (as Claude Desktop starts servers): commands work in ~/DeskPilot, said so', async () => {
    const mcp = await spawnMcp(['--policy', 'auto', ...model()], '/');
    const fallback = path.join(fakeHome, 'DeskPilot');
    try {
      const { text, result } = await runTask(mcp, 'root');
      expect(text, mcp.stderr()).toMatch(/^done: written/);
      expect(mcp.stderr()).toContain(`deskpilot mcp: the workspace / is the root of the file system; commands work in ${fallback} instead (give --cd to choose)`);
      expectContained('root', result, fallback);
    } finally {
      await mcp.client.close();
    }
  }, 240_000);

  it('a --cd of the home folder is exit 2, an asked-for sandbox without bubblewrap exit 6: nothing served', async () => {
    const home = runCli(['mcp', '--cd', fakeHome], env(), { cwd: project });
    expect((await home.exit).code, home.stderr()).toBe(2);
    expect(home.stderr()).toContain(`deskpilot mcp: the workspace ${fakeHome} is your home folder`);
    const noBwrap = runCli(['mcp', '--sandbox', 'read-only'], { ...env(), PATH: path.join(scratch, 'empty-path') }, { cwd: project });
    expect((await noBwrap.exit).code, noBwrap.stderr()).toBe(6);
    expect(noBwrap.stderr()).toContain('--sandbox read-only was asked for, but the sandbox cannot run here: bubblewrap (bwrap) is not installed');
  }, 120_000);
});
