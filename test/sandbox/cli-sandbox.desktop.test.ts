import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox, resolveSandbox } from '../../src/main/sandbox/index.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { finish, runCli, tempHome } from '../e2e/support.js';

// `deskpilot run`'s sandbox flags as shipped (the real CLI process): bad input is exit 2
// with a clear message, an asked-for sandbox that cannot run here exit 6, the run header
// and the session log state the sandbox, --ask-for-approval names a policy. Windows is a
// platform stub of the probe (no Windows here).

const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dp-cli-sandbox-')));
const fakeHome = path.join(scratch, 'home');
const project = path.join(fakeHome, 'project');
fs.mkdirSync(project, { recursive: true });
fs.mkdirSync(path.join(scratch, 'elsewhere'));
fs.symlinkSync(path.join(scratch, 'elsewhere'), path.join(project, 'link-out'));
const dpHome = tempHome();
let xvfb: Xvfb;
let fake: FakeModelServer;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 640, height: 480, windowManager: false });
  fake = await startFakeModel();
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await xvfb?.stop();
  dpHome.cleanup();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...xvfb.env,
  HOME: fakeHome,
  DESKPILOT_HOME: dpHome.home,
  ANTHROPIC_API_KEY: 'sk-ant-test',
  ANTHROPIC_BASE_URL: fake.anthropicBaseUrl,
  OPENAI_API_KEY: '',
  ...extra,
});
const task = ['run', 'say hi', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--json'];

async function cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  const run = runCli(args, env(extraEnv), { cwd: project });
  const { code } = await run.exit;
  return { code, stderr: run.stderr(), stdout: run.stdout(), events: run.events() };
}

describe('bad sandbox input: exit 2, said clearly, no run started', () => {
  it.each([
    [['--sandbox', 'strict'], "argument 'strict' is invalid. Allowed choices are read-only, workspace-write, danger-full-access"],
    [['--add-dir', path.join(scratch, 'missing')], `--add-dir ${path.join(scratch, 'missing')} does not exist`],
    [['--add-dir', path.join(project, 'link-out')], `--add-dir ${path.join(project, 'link-out')} is a symlink to ${path.join(scratch, 'elsewhere')}`],
    [['--cd', '/'], 'the workspace / is the root of the file system'],
    [['--cd', fakeHome], `the workspace ${fakeHome} is your home folder`],
    [['--ask-for-approval', 'sometimes'], "argument 'sometimes' is invalid"],
  ])('%j', async (flags, message) => {
    const { code, stderr, events } = await cli([...task, '--yes', ...flags]);
    expect(code, stderr).toBe(2);
    expect(stderr).toContain(message);
    expect(events).toEqual([]);
  }, 120_000);
});

describe('no working sandbox', () => {
  it('an asked-for sandboxed mode ends with exit 6 and says why (bubblewrap missing)', async () => {
    const { code, stderr, events } = await cli([...task, '--yes', '--sandbox', 'read-only'], { PATH: path.join(scratch, 'empty-path') });
    expect(code, stderr).toBe(6);
    expect(stderr).toContain('deskpilot: --sandbox read-only was asked for, but the sandbox cannot run here: bubblewrap (bwrap) is not installed');
    expect(events).toEqual([]);
  }, 120_000);

  it('an asked-for sandboxed mode where bubblewrap is installed but cannot make namespaces (a plain chroot, user namespaces off): exit 6, its words and the fix', async () => {
    // A bwrap that fails as bubblewrap 0.8 does when the kernel refuses it user namespaces.
    const broken = path.join(scratch, 'broken-bwrap');
    fs.mkdirSync(broken);
    fs.writeFileSync(path.join(broken, 'bwrap'), "#!/bin/sh\necho 'bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.' >&2\nexit 1\n", { mode: 0o755 });
    const { code, stderr, events } = await cli([...task, '--yes', '--sandbox', 'workspace-write'], { PATH: `${broken}:/usr/bin:/bin` });
    expect(code, stderr).toBe(6);
    expect(stderr).toContain(`deskpilot: --sandbox workspace-write was asked for, but ${path.join(broken, 'bwrap')} failed: bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.; to fix: user namespaces are refused: inside a plain chroot the kernel refuses them`);
    expect(events).toEqual([]);
    // No mode asked: the run goes on unsandboxed, and its header says why.
    fake.script({ toolCalls: [finish(true, 'hi')] });
    const unasked = await cli([...task, '--yes'], { PATH: `${broken}:/usr/bin:/bin` });
    expect(unasked.code, unasked.stderr).toBe(0);
    expect(unasked.stderr).toContain(`no sandbox: ${path.join(broken, 'bwrap')} failed: bwrap: No permissions to create new namespace`);
  }, 180_000);

  it('Windows (probe stubbed by platform): default danger-full-access said in a note, an asked-for mode is an environment error', async () => {
    const probe = await probeSandbox('win32');
    expect(probe).toMatchObject({ works: false, enforcer: 'none' });
    const byDefault = resolveSandbox({ defaultWorkspace: project }, probe, { home: fakeHome });
    expect(byDefault).toMatchObject({ ok: true, policy: { mode: 'danger-full-access', workspace: project, network: true }, note: expect.stringContaining('no sandbox on Windows yet') });
    expect(resolveSandbox({ defaultWorkspace: project, mode: 'workspace-write' }, probe, { home: fakeHome })).toEqual({
      ok: false,
      kind: 'environment',
      message: expect.stringContaining('--sandbox workspace-write was asked for, but no sandbox on Windows yet'),
    });
    expect(resolveSandbox({ defaultWorkspace: project, config: { mode: 'read-only', networkAccess: false, display: false } }, probe, { home: fakeHome })).toMatchObject({ ok: false, kind: 'environment' });
    expect(resolveSandbox({ defaultWorkspace: project, mode: 'danger-full-access' }, probe, { home: fakeHome })).toMatchObject({ ok: true, policy: { mode: 'danger-full-access' } });
    expect(byDefault.ok && byDefault.note).not.toBeUndefined();
  });

  it('Linux with a working bubblewrap: workspace-write by default, config and flags on top', async () => {
    const probe = await probeSandbox('linux');
    expect(probe).toMatchObject({ works: true, enforcer: 'bubblewrap' });
    expect(resolveSandbox({ defaultWorkspace: project }, probe, { home: fakeHome })).toEqual({
      ok: true,
      policy: { mode: 'workspace-write', workspace: project, addDirs: [], network: false, display: false, granted: [] },
    });
    const fromConfig = resolveSandbox({ defaultWorkspace: project, display: true, config: { mode: 'workspace-write', networkAccess: true, display: false } }, probe, { home: fakeHome });
    expect(fromConfig).toMatchObject({ ok: true, policy: { network: true, display: true } });
    expect(resolveSandbox({ defaultWorkspace: project, mode: 'read-only', config: { mode: 'danger-full-access', networkAccess: true, display: false } }, probe, { home: fakeHome })).toMatchObject({
      ok: true,
      policy: { mode: 'read-only', network: false },
    });
  });
});

describe('the run states its sandbox', () => {
  it('run header and run_started: mode, enforcer, workspace, network; --ask-for-approval never is policy auto', async () => {
    fake.script({ toolCalls: [finish(true, 'hi')] });
    const run = runCli(['run', 'say hi', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--ask-for-approval', 'never', '--cd', project], env(), { cwd: scratch });
    const { code } = await run.exit;
    expect(code, run.stderr()).toBe(0);
    const header = `${run.stdout()}\n${run.stderr()}`;
    expect(header).toContain(`sandbox: workspace-write by bubblewrap — writes only in ${project} and a private temp dir; no network; no display; workspace ${project}`);
    expect(header).toContain('policy auto');
    fake.script({ toolCalls: [finish(true, 'hi')] });
    const json = runCli([...task, '--ask-for-approval', 'never', '--sandbox', 'read-only'], env(), { cwd: project });
    expect((await json.exit).code, json.stderr()).toBe(0);
    expect(json.events().find((e) => e.type === 'run_started')).toMatchObject({ policy: 'auto', sandbox: { mode: 'read-only', enforcer: 'bubblewrap', workspace: project, network: false } });
  }, 240_000);

  it("a shell command's approval prompt says where it runs; an escalation's says what it adds", async () => {
    fake.script(
      { toolCalls: [{ name: 'shell', input: { command: 'ls' } }] },
      { toolCalls: [{ name: 'shell', input: { command: 'touch /etc/x', escalate: { write: ['/etc'], network: true }, reason: 'config' } }] },
      { toolCalls: [finish(false, 'refused')] },
    );
    const run = runCli(['run', 'list', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--policy', 'ask', '--sandbox-display'], env(), { cwd: project, stdin: 'n\nn\n' });
    await run.exit;
    const err = run.stderr();
    expect(err).toContain(`Allow: run shell: ls?`);
    expect(err).toContain(`runs in: sandbox: workspace-write by bubblewrap — writes only in ${project} and a private temp dir; no network; the X display is given to commands: they can type into any window; workspace ${project}`);
    expect(err).toContain("Allow: run shell: touch /etc/x — runs OUTSIDE the sandbox's limits with write access to /etc and network access (reason: config)?");
    expect(err).toContain('why it asks: the command asks to run with more than its sandbox allows');
  }, 240_000);
});

describe('sessions resume keeps the run\'s sandbox', () => {
  const extra = path.join(project, 'extra');
  fs.mkdirSync(extra, { recursive: true });
  // A model server of its own: turns an earlier test left unconsumed must not answer these runs.
  let model: FakeModelServer;
  beforeAll(async () => {
    model = await startFakeModel();
  });
  afterAll(async () => model?.close());
  const paused = { fault: 'status' as const, status: 529, headers: { 'retry-after': '3600' } };
  /** The run_started events of a run's log, the latest start last. */
  const logStarts = (runId: string) =>
    fs
      .readFileSync(path.join(dpHome.home, 'sessions', runId, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string })
      .filter((e) => e.type === 'run_started');
  const resume = (runId: string, flags: string[], cwd: string) => runCli(['sessions', 'resume', runId, '--yes', '--base-url', model.anthropicBaseUrl, ...flags], env({ ANTHROPIC_BASE_URL: model.anthropicBaseUrl }), { cwd });
  async function pausedRun(flags: string[]): Promise<string> {
    model.script(paused);
    const first = runCli([...task, '--yes', ...flags], env({ ANTHROPIC_BASE_URL: model.anthropicBaseUrl }), { cwd: scratch });
    expect((await first.exit).code, first.stderr()).toBe(4);
    return (first.events().find((e) => e.type === 'run_started') as unknown as { runId: string }).runId;
  }

  it('read-only, its workspace and --add-dir come back from the log (not the folder resume runs in); --sandbox changes the mode', async () => {
    // 1. A read-only run in the project that pauses at once (the provider is overloaded).
    const runId = await pausedRun(['--sandbox', 'read-only', '--cd', project, '--add-dir', extra]);

    // 2. Resumed from another folder with no sandbox flag: its command runs read-only in the project, then it pauses again.
    let output: string | undefined;
    model.script({ toolCalls: [{ name: 'shell', input: { command: 'pwd; echo x > resumed-ro.txt' } }] }, (req) => ((output = req.toolResults.at(-1)?.text), paused));
    const again = resume(runId, [], path.join(scratch, 'elsewhere'));
    expect((await again.exit).code, again.stderr()).toBe(4);
    expect(logStarts(runId).at(-1)).toMatchObject({ sandbox: { mode: 'read-only', workspace: project, writable: [], network: false } });
    expect(`${again.stdout()}\n${again.stderr()}`).toContain(`sandbox: read-only by bubblewrap — writes nowhere but a private temp dir; no network; no display; workspace ${project}`);
    expect(fs.existsSync(path.join(project, 'resumed-ro.txt'))).toBe(false);
    expect(output).toContain(`${project}\n`);
    expect(output).toContain('Read-only file system');

    // 3. Resumed with --sandbox workspace-write: the same workspace, the logged --add-dir now writable, the writes land.
    model.script({ toolCalls: [{ name: 'shell', input: { command: 'echo x > resumed-ww.txt && echo y > extra/in-extra.txt' } }] }, { toolCalls: [finish(true, 'written')] });
    const third = resume(runId, ['--sandbox', 'workspace-write'], path.join(scratch, 'elsewhere'));
    expect((await third.exit).code, third.stderr()).toBe(0);
    expect(logStarts(runId).at(-1)).toMatchObject({ sandbox: { mode: 'workspace-write', workspace: project, writable: [extra] } });
    expect(fs.readFileSync(path.join(project, 'resumed-ww.txt'), 'utf8')).toBe('x\n');
    expect(fs.readFileSync(path.join(extra, 'in-extra.txt'), 'utf8')).toBe('y\n');
  }, 360_000);

  it('a logged workspace that is gone is exit 2 naming it; --cd gives another', async () => {
    const gone = path.join(scratch, 'gone');
    fs.mkdirSync(gone);
    const runId = await pausedRun(['--cd', gone]);
    fs.rmSync(gone, { recursive: true });
    const refused = resume(runId, [], scratch);
    expect((await refused.exit).code, refused.stderr()).toBe(2);
    expect(refused.stderr()).toContain(`the workspace ${gone} does not exist`);
    model.script({ toolCalls: [finish(true, 'moved')] });
    const moved = resume(runId, ['--cd', project], scratch);
    expect((await moved.exit).code, moved.stderr()).toBe(0);
    expect(logStarts(runId).at(-1)).toMatchObject({ sandbox: { mode: 'workspace-write', workspace: project } });
  }, 240_000);
});
