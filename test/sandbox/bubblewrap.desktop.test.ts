import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareCommand, RunSandbox, sandboxPolicy, sandboxRefusal, type SandboxPolicy } from '../../src/main/sandbox/index.js';
import type { SandboxMode } from '../../src/shared/sandbox.js';
import { requirePrograms } from '../harness/requirements.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

// The sandbox against the real bubblewrap, in every mode, as root (CI) and as an
// unprivileged user this test makes (bwrap then needs unprivileged user namespaces).
// Each case is one probe a command runs inside the sandbox — and again from a child
// interpreter it starts — and each is checked on the host: the file written or not, the
// request the loopback server received or not, the secret printed or not.

requirePrograms(['bwrap', '/usr/bin/python3', 'useradd', 'xdpyinfo']);

interface Runner {
  label: string;
  uid: number;
  gid: number;
  home: string;
}

interface Stage {
  base: string;
  workspace: string;
  outside: string;
  runtimeDir: string;
  xauthority: string;
  secrets: Record<string, string>;
}

const id = crypto.randomBytes(4).toString('hex');
const base = fs.mkdtempSync('/var/tmp/deskpilot-sandbox-test-');
fs.chmodSync(base, 0o755);
const received: string[] = [];
let server: http.Server;
let port = 0;
let xvfb: Xvfb;
let madeUser: string | undefined;
const madeRuntimeDirs: string[] = [];

function chownTree(p: string, uid: number, gid: number): void {
  fs.chownSync(p, uid, gid);
  if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) chownTree(path.join(p, e), uid, gid);
}

function stageFor(runner: Runner): Stage {
  const root = path.join(base, runner.label);
  const workspace = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  fs.mkdirSync(workspace, { recursive: true });
  fs.mkdirSync(outside, { recursive: true });
  fs.mkdirSync(path.join(runner.home, '.ssh'), { recursive: true });
  fs.mkdirSync(path.join(runner.home, '.deskpilot'), { recursive: true });
  const secrets: Record<string, string> = {
    ssh: path.join(runner.home, '.ssh', 'id_test'),
    deskpilot: path.join(runner.home, '.deskpilot', 'secrets.json'),
    homeCookie: path.join(runner.home, '.Xauthority'),
  };
  const xauthority = path.join(root, 'xauth-cookie');
  secrets.xauthority = xauthority;
  const runtimeDir = `/run/user/${runner.uid}`;
  // /run/user itself as logind makes it, 0755: a machine without logind (a clean Debian root)
  // has none, and one made root-only — by `recursive` with mode 0700 here before, or by another
  // process's mkdir -p of some /run/user/<uid> (the clean-root run of test/sandbox had one, made
  // while run-sandbox.desktop ran beside this file) — leaves the user's own runtime folder
  // unreachable (Permission denied) in danger-full-access, where it should be readable.
  fs.mkdirSync('/run/user', { recursive: true, mode: 0o755 }); // nothing if it exists
  const runUser = fs.statSync('/run/user');
  if (process.getuid!() === 0 && runUser.uid === 0 && (runUser.mode & 0o111) !== 0o111) fs.chmodSync('/run/user', 0o755);
  if (!fs.existsSync(runtimeDir)) {
    fs.mkdirSync(runtimeDir, { mode: 0o700 });
    fs.chownSync(runtimeDir, runner.uid, runner.gid);
    madeRuntimeDirs.push(runtimeDir);
  }
  secrets.runtime = path.join(runtimeDir, `deskpilot-sandbox-test-${id}`);
  for (const [name, file] of Object.entries(secrets)) fs.writeFileSync(file, `SECRET-${name}-${id}\n`);
  chownTree(root, runner.uid, runner.gid);
  chownTree(runner.home, runner.uid, runner.gid);
  fs.chownSync(secrets.runtime, runner.uid, runner.gid);
  return { base: root, workspace, outside, runtimeDir, xauthority, secrets };
}

const staged = new Map<string, Stage>();
/** Each runner's stage, made once and kept for its later cases. */
function stageOf(runner: Runner): Stage {
  let stage = staged.get(runner.label);
  if (!stage) staged.set(runner.label, (stage = stageFor(runner)));
  return stage;
}

/** The probes, as one bash script; each prints "<name>=<ok|fail>" on a line of its own. */
function probeScript(stage: Stage, tag: string): string {
  const cat = Object.entries(stage.secrets)
    .map(([name, file]) => `cat '${file}' 2>&1 && echo 'read-${name}=ok' || echo 'read-${name}=fail'`)
    .join('\n');
  return [
    `echo in > '${stage.workspace}/in-${tag}' && echo write-in=ok || echo write-in=fail`,
    `echo out > '${stage.outside}/out-${tag}' && echo write-out=ok || echo write-out=fail`,
    // This run's id in the name: with no sandbox (danger-full-access) this is the real /tmp,
    // where a file left by an earlier run's user (since deleted) is not ours to overwrite
    // (sticky bit) — CI failed on exactly that.
    `echo tmp > "$TMPDIR/tmp-${id}-${tag}" && cat "$TMPDIR/tmp-${id}-${tag}" >/dev/null && echo write-tmp=ok || echo write-tmp=fail`,
    cat,
    `(exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET /${tag} HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3 && echo) && echo net=ok || echo net=fail`,
    `echo "env-display=\${DISPLAY:-unset}"`,
    `DISPLAY=${xvfb.display} xdpyinfo >/dev/null && echo display=ok || echo display=fail`,
  ].join('\n');
}

/** A child interpreter started by the command tries to write outside and reach the server. */
function childScript(stage: Stage, tag: string): string {
  const py = [
    'import socket, sys',
    'try:',
    `    open('${stage.outside}/child-${tag}', 'w').write('x'); print('child-write-out=ok')`,
    'except OSError as e:',
    "    print(e); print('child-write-out=fail')",
    'try:',
    `    s = socket.create_connection(('127.0.0.1', ${port}), timeout=5); s.sendall(b'GET /child-${tag} HTTP/1.0\\r\\n\\r\\n'); s.recv(100); print('child-net=ok')`,
    'except OSError as e:',
    "    print(e); print('child-net=fail')",
  ].join('\n');
  return `/usr/bin/python3 -c "${py.replace(/"/g, '\\"')}"`;
}

/** How a command reaches bubblewrap: one of its own (escalations, and the path before sessions), or the run's session (what a run's commands get). */
type Via = 'one-off' | 'session';

function run(runner: Runner, stage: Stage, policy: SandboxPolicy, script: string, via: Via = 'one-off'): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: runner.home,
    LANG: 'C.UTF-8',
    DISPLAY: xvfb.display,
    XAUTHORITY: stage.xauthority,
    XDG_RUNTIME_DIR: stage.runtimeDir,
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${stage.runtimeDir}/bus`,
    TMPDIR: '/tmp',
  };
  const plain = { file: 'bash', args: ['-c', script], cwd: stage.workspace, env };
  if (via === 'session') return inSession(runner, policy, plain);
  const { spawn: spec, dispose } = prepareCommand(policy, plain, { platform: 'linux', env, home: runner.home });
  return new Promise((resolve) => {
    const child = spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, uid: runner.uid, gid: runner.gid, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => {
      dispose();
      resolve({ code, output });
    });
  });
}

/** The command in a run's sandbox session of its own, as the runner's user; the session closed after, nothing of it left. */
async function inSession(runner: Runner, policy: SandboxPolicy, plain: { file: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number | null; output: string }> {
  const session = new RunSandbox(policy, { platform: 'linux', env: plain.env, home: runner.home, ...(runner.uid !== process.getuid!() ? { uid: runner.uid, gid: runner.gid } : {}) });
  let output = '';
  const end = await session.launch(plain, 100_000, (text) => (output += text)).done;
  expect(session.started, session.fallbackReason).toBe(1);
  expect(await session.close()).toBe(true);
  return { code: end.exitCode, output: output + (end.note ?? '') };
}

const results = (output: string) => Object.fromEntries([...output.matchAll(/^([A-Za-z-]+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));

interface Expectation {
  writeIn: boolean;
  writeOut: boolean;
  secrets: boolean;
  net: boolean;
  display: boolean;
}

const CASES: Array<{ name: string; mode: SandboxMode; networkAccess?: boolean; display?: boolean; expect: Expectation }> = [
  { name: 'read-only', mode: 'read-only', expect: { writeIn: false, writeOut: false, secrets: false, net: false, display: false } },
  { name: 'workspace-write', mode: 'workspace-write', expect: { writeIn: true, writeOut: false, secrets: false, net: false, display: false } },
  // With network on, the X server's abstract socket (@/tmp/.X11-unix/X<n>) is reachable:
  // DISPLAY is unset and the cookie hidden, but this Xvfb checks no cookie, so a command
  // that names the display gets it — what describeSandbox and docs/CONFIG.md warn of.
  { name: 'workspace-write + network', mode: 'workspace-write', networkAccess: true, expect: { writeIn: true, writeOut: false, secrets: false, net: true, display: true } },
  { name: 'workspace-write + display', mode: 'workspace-write', display: true, expect: { writeIn: true, writeOut: false, secrets: false, net: false, display: true } },
  { name: 'danger-full-access', mode: 'danger-full-access', expect: { writeIn: true, writeOut: true, secrets: true, net: true, display: true } },
];

const RUNNERS: Runner[] = [];

beforeAll(async () => {
  xvfb = await startXvfb({ windowManager: false });
  server = http.createServer((req, res) => {
    received.push(req.url ?? '');
    res.end('served');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const uid = process.getuid!();
  RUNNERS.push({ label: uid === 0 ? 'root' : 'self', uid, gid: process.getgid!(), home: path.join(base, 'home-self') });
  if (uid === 0) {
    // An unprivileged user of its own: bwrap as such a user needs unprivileged user namespaces.
    madeUser = `dpsb${id}`;
    const home = path.join(base, 'home-user');
    execFileSync('useradd', ['--no-create-home', '--home-dir', home, '--shell', '/bin/bash', madeUser]);
    const userUid = Number(execFileSync('id', ['-u', madeUser], { encoding: 'utf8' }).trim());
    const userGid = Number(execFileSync('id', ['-g', madeUser], { encoding: 'utf8' }).trim());
    RUNNERS.push({ label: 'user', uid: userUid, gid: userGid, home });
  }
  for (const r of RUNNERS) fs.mkdirSync(r.home, { recursive: true });
});

afterAll(async () => {
  await xvfb?.stop();
  server?.close();
  if (madeUser) execFileSync('userdel', [madeUser]);
  for (const dir of madeRuntimeDirs) fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(base, { recursive: true, force: true });
});

describe.each([
  ['first runner', 'one-off'],
  ['second runner', 'one-off'],
  ['first runner', 'session'],
  ['second runner', 'session'],
] as const)('bubblewrap sandbox, %s, %s', (which, via) => {
  // danger-full-access has no sandbox, so no session: a run makes none for it (start-run.ts).
  for (const c of CASES.filter((c) => via === 'one-off' || c.mode !== 'danger-full-access')) {
    it(`${c.name}: allows and refuses what the mode says, for the command and its child`, async () => {
      const runner = RUNNERS[which === 'first runner' ? 0 : 1];
      // Not root: the only runner is this (unprivileged) process's user, run once.
      if (!runner) return expect(process.getuid!()).not.toBe(0);
      const stage = stageOf(runner);
      const tag = `${runner.label}-${via}-${c.name.replace(/\W+/g, '-')}`;
      const policy = sandboxPolicy({ mode: c.mode, workspace: stage.workspace, networkAccess: c.networkAccess, display: c.display });
      const { output } = await run(runner, stage, policy, `${probeScript(stage, tag)}\n${childScript(stage, tag)}\nexit 0`, via);
      const got = results(output);
      const want = c.expect;
      const okIf = (b: boolean) => (b ? 'ok' : 'fail');
      expect(got, output).toMatchObject({
        'write-in': okIf(want.writeIn),
        'write-out': okIf(want.writeOut),
        'write-tmp': 'ok',
        'read-ssh': okIf(want.secrets),
        'read-deskpilot': okIf(want.secrets),
        'read-homeCookie': okIf(want.secrets || c.display === true),
        'read-xauthority': okIf(want.secrets || c.display === true),
        'read-runtime': okIf(want.secrets),
        net: okIf(want.net),
        'env-display': c.mode === 'danger-full-access' || c.display ? xvfb.display : 'unset',
        display: okIf(want.display),
        'child-write-out': okIf(want.writeOut),
        'child-net': okIf(want.net),
      });
      // What the host saw: the files, the requests, the secrets printed.
      expect(fs.existsSync(path.join(stage.workspace, `in-${tag}`))).toBe(want.writeIn);
      expect(fs.existsSync(path.join(stage.outside, `out-${tag}`))).toBe(want.writeOut);
      expect(fs.existsSync(path.join(stage.outside, `child-${tag}`))).toBe(want.writeOut);
      const hostTmp = `/tmp/tmp-${id}-${tag}`;
      const onHost = fs.existsSync(hostTmp);
      fs.rmSync(hostTmp, { force: true });
      expect(onHost).toBe(c.mode === 'danger-full-access');
      expect(received.includes(`/${tag}`)).toBe(want.net);
      expect(received.includes(`/child-${tag}`)).toBe(want.net);
      expect(output.includes(`SECRET-ssh-${id}`)).toBe(want.secrets);
      expect(output.includes(`SECRET-deskpilot-${id}`)).toBe(want.secrets);
      expect(output.includes(`SECRET-runtime-${id}`)).toBe(want.secrets);
    });
  }
});

describe('refusals reach the model as possible sandbox refusals', () => {
  it('a write outside the workspace and a connection with network off are marked; a plain failure is not', async () => {
    const runner = RUNNERS[RUNNERS.length - 1]!;
    const stage = stageOf(runner);
    const policy = sandboxPolicy({ mode: 'workspace-write', workspace: stage.workspace });
    const write = await run(runner, stage, policy, `echo x > '${stage.outside}/refused'`);
    expect(write.code).not.toBe(0);
    expect(sandboxRefusal(write.output, write.code, policy)).toBe(`read-only file system at ${stage.outside}/refused`);
    const net = await run(runner, stage, policy, `exec 3<>/dev/tcp/127.0.0.1/${port}`);
    expect(net.code).not.toBe(0);
    expect(sandboxRefusal(net.output, net.code, policy)).toContain('network unreachable');
    const child = await run(runner, stage, policy, `/usr/bin/python3 -c "open('${stage.outside}/py', 'w')"`);
    expect(sandboxRefusal(child.output, child.code, policy)).toBe(`read-only file system at ${stage.outside}/py`);
    const plain = await run(runner, stage, policy, 'ls /no-such-folder-here');
    expect(plain.code).not.toBe(0);
    expect(sandboxRefusal(plain.output, plain.code, policy)).toBeUndefined();
  });
});
