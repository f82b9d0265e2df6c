import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sandboxPolicy, SandboxSession, type SandboxPlan } from '../../src/main/sandbox/index.js';
import type { LaunchEnd } from '../../src/main/sandbox/launch.js';
import { requirePrograms } from '../harness/requirements.js';

// A sandbox session (sandbox/session.ts) against supervisors that misbehave — a real Node
// program standing where bubblewrap would (the plan's file), speaking the supervisor's
// protocol or breaking it on purpose: what the session says when it ends before ready
// (its exit, bubblewrap's last words, the environment and user it was started with), a
// message for a command it never sent, a kill after the end, a supervisor that does not
// answer a kill or the end of its input, a pipe closed under it, and a close that finds
// a process still alive. session.desktop drives the real bubblewrap.

requirePrograms(['pgrep']);

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'deskpilot-session-faults-'));
// Readable by an unprivileged user: one case starts the supervisor as nobody.
fs.chmodSync(base, 0o755);
const workspace = path.join(base, 'ws');
fs.mkdirSync(workspace);
const policy = sandboxPolicy({ mode: 'workspace-write', workspace });
const opened: SandboxSession[] = [];

/**
 * The stand-in supervisor. argv: its mode, a log file (every request line it reads is
 * appended there), a marker (the argv[0] of the child the 'deaf' mode leaves in its group).
 * Namespaces: 'pid:[1]' is no process's (close finds nothing left); 'host' is this
 * machine's own (close finds the test itself alive).
 */
const FAKE = String.raw`
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const [mode, log, marker] = process.argv.slice(2);
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
const ready = (ns) => send({ ready: true, ns: ns === 'host' ? fs.readlinkSync('/proc/self/ns/pid') : ns });
const serve = (answer) => require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  fs.appendFileSync(log, line + '\n');
  const m = JSON.parse(line);
  if (answer && m.op === 'run') {
    send({ id: m.id, out: 'ran ' + m.args.join(' ') });
    send({ id: m.id, exit: 0, signal: null, cut: 0, swept: 0 });
  }
});
switch (mode) {
  case 'say-path':
    process.stderr.write('PATH=' + process.env.PATH + '\n');
    process.exit(3);
  case 'say-ids':
    process.stderr.write('uid=' + process.getuid() + ' gid=' + process.getgid() + '\n');
    process.exit(3);
  case 'silent-exit':
    process.exit(3);
  case 'long-stderr':
    process.stderr.write('x'.repeat(400) + 'END\n\n');
    process.exit(1);
  case 'late-words':
    // Ends at once; a child holding its stderr starts once it has ended (its read of our pipe
    // meets the end) and writes 280 KB — four pipes' worth — before its last words: they come
    // well after 'exit', before 'close'.
    spawn('sh', ['-c', 'read x; yes filler | head -n 40000 >&2; echo "bwrap: its last words" >&2'], { stdio: ['pipe', 'ignore', 'inherit'] });
    process.exit(1);
  case 'stray':
    ready('pid:[1]');
    // Messages for commands never sent: an output and an end.
    send({ id: 99, out: 'stray' });
    send({ id: 98, exit: 0, signal: null, cut: 0, swept: 0 });
    serve(true);
    break;
  case 'echo':
    ready('pid:[1]');
    serve(true);
    break;
  case 'host':
    ready('host');
    serve(true);
    break;
  case 'deaf':
    // Runs nothing, answers no kill, outlives the end of its input; a child stays in its group.
    spawn('bash', ['-c', 'exec -a ' + marker + ' sleep 60'], { stdio: 'ignore' });
    process.on('SIGTERM', () => {});
    serve(false);
    process.stdin.on('end', () => {});
    setInterval(() => {}, 1000);
    ready('pid:[1]');
    break;
  case 'closed-stdin':
    // Its end of the request pipe closed: the session's next write meets EPIPE. Ends when told by a file.
    fs.closeSync(0);
    ready('pid:[1]');
    setInterval(() => { if (fs.existsSync(log + '.go')) process.exit(0); }, 10);
    break;
  default:
    process.exit(9);
}
`;
const fakeFile = path.join(base, 'fake-supervisor.cjs');
fs.writeFileSync(fakeFile, FAKE, { mode: 0o644 });

let logs = 0;
function fake(mode: string, marker = 'none'): { plan: Extract<SandboxPlan, { kind: 'bubblewrap' }>; log: string } {
  const log = path.join(base, `requests-${++logs}.log`);
  return { plan: { kind: 'bubblewrap', file: process.execPath, args: [fakeFile, mode, log, marker], tmpdir: '/tmp' }, log };
}

async function start(mode: string, marker?: string) {
  const { plan, log } = fake(mode, marker);
  const session = await SandboxSession.start(policy, plan);
  opened.push(session);
  return { session, plan, log };
}

async function startError(mode: string, options: Parameters<typeof SandboxSession.start>[2] = {}): Promise<string> {
  return SandboxSession.start(policy, fake(mode).plan, options).then(
    (session) => {
      opened.push(session);
      return 'started';
    },
    (error: unknown) => (error as Error).message,
  );
}

function run(session: SandboxSession, plan: SandboxPlan & { kind: 'bubblewrap' }, word: string) {
  const pieces: string[] = [];
  const launched = session.run(policy, plan, { file: 'echo', args: [word], cwd: workspace, env: {} }, 1_000, (t) => pieces.push(t));
  return { launched, pieces };
}

const requests = (log: string) => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { op: string }).op) : []);

const running = (marker: string) => {
  try {
    return execFileSync('pgrep', ['-f', marker]).toString().trim().split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i > 3_000) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

afterEach(async () => {
  for (const session of opened.splice(0)) await session.close();
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('a supervisor that ends before it is ready: the session says how', () => {
  it('its exit code, with nothing more when it said nothing', async () => {
    expect(await startError('silent-exit')).toBe('the sandbox session did not start: the sandbox session ended (bubblewrap exit 3)');
  });

  it('the last 300 characters of what it wrote to stderr, trimmed', async () => {
    expect(await startError('long-stderr')).toBe(`the sandbox session did not start: the sandbox session ended (bubblewrap exit 1: ${'x'.repeat(297)}END)`);
  });

  it('what it said last, even when those words come after it ended (read to the end of its stderr)', async () => {
    expect(await startError('late-words')).toMatch(/^the sandbox session did not start: the sandbox session ended \(bubblewrap exit 1: [a-z]*\n(filler\n)+bwrap: its last words\)$/);
  });

  it('it is started with the host’s PATH, or /usr/bin:/bin when there is none', async () => {
    const saved = process.env.PATH;
    try {
      process.env.PATH = '/deskpilot-test-path:/usr/bin:/bin';
      expect(await startError('say-path')).toBe('the sandbox session did not start: the sandbox session ended (bubblewrap exit 3: PATH=/deskpilot-test-path:/usr/bin:/bin)');
      delete process.env.PATH;
      expect(await startError('say-path')).toBe('the sandbox session did not start: the sandbox session ended (bubblewrap exit 3: PATH=/usr/bin:/bin)');
    } finally {
      process.env.PATH = saved;
    }
  });

  it.skipIf(process.getuid?.() !== 0)('as the user and group it was given (root starting it for an unprivileged user)', async () => {
    expect(await startError('say-ids', { uid: 65534, gid: 65533 })).toBe('the sandbox session did not start: the sandbox session ended (bubblewrap exit 3: uid=65534 gid=65533)');
    expect(await startError('say-ids', { uid: 65534 })).toMatch(/\(bubblewrap exit 3: uid=65534 gid=0\)$/);
  });
});

describe('a session whose supervisor misbehaves after ready', () => {
  it('a message for a command it never sent is passed over; the next command runs', async () => {
    const { session, plan } = await start('stray');
    const { launched, pieces } = run(session, plan, 'next');
    expect(await launched.done).toEqual({ exitCode: 0 });
    expect(pieces).toEqual(['ran next']);
    expect(session.dead).toBeUndefined();
  });

  it('a kill after the command ended sends nothing: the supervisor hears only the runs', async () => {
    const { session, plan, log } = await start('echo');
    const first = run(session, plan, 'one');
    expect(await first.launched.done).toEqual({ exitCode: 0 });
    first.launched.kill();
    first.launched.kill();
    // Requests go down one pipe in order: once the second run's answer is back, any kill sent before it was read.
    expect(await run(session, plan, 'two').launched.done).toEqual({ exitCode: 0 });
    await until(() => requests(log).length >= 2, 'both runs logged');
    expect(requests(log)).toEqual(['run', 'run']);
    expect(session.dead).toBeUndefined();
  });

  it('a supervisor that answers no kill costs the session: it is closed, the command ends with that said, and nothing of its group is left', async () => {
    const marker = `dp-session-deaf-${process.pid}-${Date.now()}`;
    const { session, plan, log } = await start('deaf', marker);
    // Its child's command line starts with the marker (the stand-in's own carries it further on).
    await until(() => running(`^${marker}`) === 1, 'the deaf supervisor’s child runs');
    const { launched } = run(session, plan, 'never');
    await until(() => requests(log).length === 1, 'the run was sent');
    launched.kill();
    const end: LaunchEnd = await launched.done;
    expect(end).toEqual({ exitCode: null, note: 'the sandbox session was closed' });
    expect(session.dead).toBe('the sandbox session was closed');
    expect(requests(log)).toEqual(['run', 'kill']);
    // Its whole process group is killed, the child it left there too (it ignores TERM and the end of its input).
    await until(() => running(marker) === 0, 'the deaf supervisor and its group are gone');
    expect(await session.close()).toBe(true);
  });

  it('a write into a pipe its supervisor closed is no crash: the command ends when the session does', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const { session, plan, log } = await start('closed-stdin');
      const { launched } = run(session, plan, 'lost');
      // The write met EPIPE (an 'error' on the pipe, handled); now let the supervisor end.
      await new Promise((resolve) => setImmediate(resolve));
      fs.writeFileSync(`${log}.go`, '');
      expect(await launched.done).toEqual({ exitCode: null, note: 'the sandbox session ended (bubblewrap exit 0)' });
      expect(session.dead).toBe('the sandbox session ended (bubblewrap exit 0)');
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  it('close says false when a process of its namespace is still alive 2 s after', async () => {
    // The stand-in reports this machine's own pid namespace: this test's process lives there.
    const { session } = await start('host');
    expect(session.livePids()).toContain(process.pid);
    expect(await session.close()).toBe(false);
    expect(session.dead).toBe('the sandbox session was closed');
  });
});
