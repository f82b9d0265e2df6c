import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, closeSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { BIN, claude, finish, REPO_ROOT, tempHome } from '../e2e/support.js';
import { runInPty } from './pty.js';

// `deskpilot run` as people start it from a terminal, a script, cron or CI: who can
// answer (item 3), exit codes and the one error message (4), signs of life and the
// request timeout (5), which screen (12). Real X server (Xvfb, no browser needed: the
// model's clicks land on the empty root window), the fake model server, the real CLI.

let xvfb: Xvfb;
let fake: FakeModelServer;
const home = tempHome('deskpilot-ux-');

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  fake = await startFakeModel();
}, 180_000);

afterAll(async () => {
  await fake?.close();
  await xvfb?.stop();
  home.cleanup();
});

const env = (more: NodeJS.ProcessEnv = {}) => ({
  ...xvfb.env,
  DESKPILOT_HOME: home.home,
  ANTHROPIC_API_KEY: 'sk-ant-test',
  ANTHROPIC_BASE_URL: fake.anthropicBaseUrl,
  ...more,
});
const MODEL = ['--provider', 'anthropic', '--model', 'claude-haiku-4-5'];
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const runDirs = () => (existsSync(path.join(home.home, 'sessions')) ? readdirSync(path.join(home.home, 'sessions')) : []);

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns the CLI with the given stdin (a file descriptor, or 'pipe' with text written and closed). */
function cli(args: string[], stdin: number | { text: string } | 'closed', extraEnv: NodeJS.ProcessEnv = {}): Promise<Finished> {
  let child: ChildProcess;
  if (stdin === 'closed') {
    // A shell closes fd 0 before starting node: stdin is no descriptor at all.
    const line = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    child = spawn('sh', ['-c', `exec 0<&- ; exec ${line}`], { env: env(extraEnv), cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  } else {
    child = spawn(process.execPath, [BIN, ...args], { env: env(extraEnv), cwd: REPO_ROOT, stdio: [typeof stdin === 'number' ? stdin : 'pipe', 'pipe', 'pipe'] });
    if (typeof stdin === 'object') child.stdin!.end(stdin.text);
  }
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const events = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown> & { type: string });

describe('item 3: nobody to ask', () => {
  it('ask policy with stdin at /dev/null refuses to start: exit 2, the fix named, no model request, no run', async () => {
    const before = runDirs().length;
    const requests = fake.requests.length;
    const devNull = openSync('/dev/null', 'r');
    try {
      const r = await cli(['run', 'click OK', ...MODEL], devNull);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(
        'deskpilot: no terminal to ask; use --yes, --policy auto or deskpilot serve (stdin is not a terminal (it is /dev/null or another device))\n',
      );
    } finally {
      closeSync(devNull);
    }
    expect(fake.requests.length).toBe(requests);
    expect(runDirs().length).toBe(before);
  }, 180_000);

  it('a closed stdin and an empty pipe refuse the same way (risky policy too)', async () => {
    const requests = fake.requests.length;
    const closed = await cli(['run', 'click OK', ...MODEL, '--policy', 'risky'], 'closed');
    expect(closed.code, closed.stderr).toBe(2);
    // Node reopens a closed fd 0 as /dev/null at start-up, so this is the /dev/null case.
    expect(closed.stderr).toContain('no terminal to ask; use --yes, --policy auto or deskpilot serve (stdin is not a terminal');
    const ended = await cli(['run', 'click OK', ...MODEL, '--policy', 'risky'], { text: '' });
    expect(ended.code, ended.stderr).toBe(2);
    expect(ended.stderr).toContain('no terminal to ask; use --yes, --policy auto or deskpilot serve (stdin ended before the run started)');
    expect(fake.requests.length).toBe(requests);
  }, 180_000);

  it('--yes needs nobody: the same run with /dev/null goes ahead', async () => {
    fake.script({ text: 'Nothing to do.', toolCalls: [finish(true, 'nothing needed')] });
    const devNull = openSync('/dev/null', 'r');
    try {
      const r = await cli(['run', 'check the screen', ...MODEL, '--yes', '--json'], devNull);
      expect(r.code, r.stderr).toBe(0);
      expect(events(r.stdout).find((e) => e.type === 'run_ended')).toMatchObject({ status: 'done' });
    } finally {
      closeSync(devNull);
    }
  }, 180_000);

  it('stdin ending while a question waits stops the run (exit 130); the model is not called again', async () => {
    fake.script(
      { text: 'First.', toolCalls: [claude.click(100, 100)] },
      { text: 'Second.', toolCalls: [claude.click(120, 120)] },
    );
    const requests = fake.requests.length;
    const r = await cli(['run', 'two clicks', ...MODEL, '--json'], { text: 'y\n' });
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('deskpilot: stopped: the terminal input ended while a question waited (no one can answer)');
    const evs = events(r.stdout);
    expect(evs.filter((e) => e.type === 'approval_answered').map((e) => (e.answer as { decision: string }).decision)).toEqual(['approve']);
    expect(evs.find((e) => e.type === 'run_ended')).toMatchObject({ status: 'stopped' });
    // Two turns asked for, none after the input ended (no "reject and carry on").
    expect(fake.requests.length - requests).toBe(2);
  }, 180_000);

  it('an endless pipe of answers (`yes n |`) is read a line per question, never buffered without bound', async () => {
    fake.script(
      // A step that keeps the run busy while the pipe is full of answers nobody asked for yet.
      { text: 'Waiting for the screen.', toolCalls: [claude.raw({ action: 'wait', duration: 3 })] },
      { text: 'Cleaning up.', toolCalls: [{ name: 'shell', input: { command: 'echo hi' } }] },
      (req) => ({ text: `Told: ${req.toolResults.at(-1)?.text ?? ''}`, toolCalls: [finish(false, 'the person said no')] }),
    );
    const child = spawn(process.execPath, [BIN, 'run', 'flood', ...MODEL, '--json'], { env: env(), cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // `yes n`: as much as the pipe takes, as fast as it takes it.
    const chunk = Buffer.from('n\n'.repeat(32 * 1024));
    let written = 0;
    let open = true;
    child.stdin!.on('error', () => (open = false));
    const pump = () => {
      while (open && child.stdin!.write(chunk)) written += chunk.length;
      written += chunk.length;
    };
    child.stdin!.on('drain', pump);
    pump();
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => ((open = false), resolve(c))));
    expect(code, stderr).toBe(1);
    const evs = events(stdout);
    expect(evs.find((e) => e.type === 'approval_answered')).toMatchObject({ answer: { decision: 'reject', feedback: 'n' } });
    expect(evs.find((e) => e.type === 'run_ended')).toMatchObject({ status: 'failed' });
    // Backpressure held: the CLI took at most a few chunks (the old reader took all it
    // could, hundreds of MB in 3 s, and V8 died with "invalid size").
    expect(written).toBeLessThan(4 * 1024 * 1024);
  }, 180_000);
});

describe('item 4: exit codes and one error message', () => {
  it('a refused key: exit 5, the reason once, with the fix', async () => {
    fake.script({
      fault: 'status',
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
    });
    const run = runInPty(['run', 'anything', ...MODEL, '--yes'], env());
    const { code } = await run.exit;
    const screen = run.screen();
    expect(code, screen).toBe(5);
    expect(screen.split('invalid x-api-key').length - 1).toBe(1);
    expect(screen).toContain('error: the model request was refused: HTTP 401 authentication_error: invalid x-api-key');
    expect(screen).toContain(`check ANTHROPIC_API_KEY (or --api-key-env) or --base-url (now ${fake.anthropicBaseUrl})`);
    expect(screen).not.toContain('{"type"');
  }, 180_000);

  it('a task the model could not do: exit 1; no X display: exit 6', async () => {
    fake.script({ text: 'Cannot.', toolCalls: [finish(false, 'there is no such app')] });
    const failed = await cli(['run', 'open the app', ...MODEL, '--yes'], { text: '' });
    expect(failed.code, failed.stderr).toBe(1);
    // Its only turn was the give-up, the final message: no step (shared/step-count.ts, issue 34 item 6).
    expect(failed.stdout).toContain('run failed after 0 steps: there is no such app');
    const noX = await cli(['run', 'open the app', ...MODEL, '--yes'], { text: '' }, { DISPLAY: '' });
    expect(noX.code).toBe(6);
    expect(noX.stderr).toContain('no X display: DISPLAY is not set');
  }, 180_000);
});

describe('item 5: signs of life and the request timeout', () => {
  it('a model server that never answers: a line per 10 s while waiting, then the run ends within --request-timeout (exit 5)', async () => {
    fake.setFallback({ fault: 'hang' });
    try {
      const r = await cli(['run', 'wait forever', ...MODEL, '--yes', '--request-timeout', '11'], { text: '' });
      expect(r.code, r.stderr).toBe(5);
      expect(r.stderr).toMatch(/^waiting for claude-haiku-4-5 1\d s$/m);
      expect(r.stdout).toContain('error: the model server gave no answer within 11 s (the request timeout: requestTimeoutSeconds in config.json or --request-timeout)');
      expect(r.stdout).toMatch(/run error after 0 steps \(\$0\.00\)/);
      expect(r.stderr).toContain('deskpilot: run error (exit 5)');
    } finally {
      fake.setFallback(undefined);
    }
  }, 180_000);

  it('on a terminal the wait is a spinner line, erased before the next line is printed', async () => {
    fake.setFallback({ fault: 'hang' });
    try {
      const run = runInPty(['run', 'wait a bit', ...MODEL, '--yes', '--request-timeout', '3'], env());
      const { code } = await run.exit;
      const screen = run.screen();
      expect(code, screen).toBe(5);
      const erase = '\r\u001b[2K';
      expect(screen).toMatch(new RegExp(`${escapeRegExp(erase)}[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] waiting for claude-haiku-4-5 \\d s`));
      // The error line starts on a clean line: the spinner was erased right before it.
      expect(screen).toContain(`${erase}error: the model server gave no answer within 3 s`);
    } finally {
      fake.setFallback(undefined);
    }
  }, 180_000);
});

describe('item 10: resume takes the choice flags and remembers the base URL', () => {
  it('a run started with --base-url (no environment variable) pauses, and resumes against the same server', async () => {
    // The server asks to wait longer than any retry: the run pauses at once (exit 4 without a terminal).
    fake.script({ fault: 'status', status: 529, headers: { 'retry-after': '3600' } });
    const noEnvUrl = { ANTHROPIC_BASE_URL: '' };
    const first = await cli(['run', 'resume me', ...MODEL, '--yes', '--base-url', fake.anthropicBaseUrl], { text: '' }, noEnvUrl);
    expect(first.code, first.stderr).toBe(4);
    const runId = /deskpilot sessions resume (\S+)/.exec(first.stderr)![1]!;
    const started = JSON.parse(readFileSync(path.join(home.home, 'sessions', runId, 'events.jsonl'), 'utf8').split('\n')[0]!);
    expect(started).toMatchObject({ type: 'run_started', baseUrl: fake.anthropicBaseUrl, policy: 'auto' });

    // The resume takes the same flags as run: an unknown display is refused the same way, and nothing is asked of the model.
    const badDisplay = await cli(['sessions', 'resume', runId, '--yes', '--display', 'nope'], { text: '' }, noEnvUrl);
    expect(badDisplay.code, badDisplay.stderr).toBe(2);
    expect(badDisplay.stderr).toContain('no display "nope"');

    fake.script({ text: 'Back again.', toolCalls: [finish(true, 'resumed fine')] });
    const requests = fake.requests.length;
    const resumed = await cli(['sessions', 'resume', runId.slice(0, 17), '--yes', '--display', 'screen'], { text: '' }, noEnvUrl);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('run done after');
    expect(fake.requests.length).toBe(requests + 1);
  }, 240_000);
});

describe('item 12: which screen', () => {
  const xr = (...args: string[]) => {
    const r = spawnSync('xrandr', args, { env: xvfb.env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  };

  it('an unknown --display (or config displayId) is exit 2 listing the displays; nothing runs', async () => {
    const requests = fake.requests.length;
    const r = await cli(['run', 'anything', ...MODEL, '--yes', '--display', 'HDMI-9'], { text: '' });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('deskpilot: no display "HDMI-9" (config displayId or --display); the displays are: "screen" 1280×800 at (0, 0), primary');
    expect(fake.requests.length).toBe(requests);
  }, 180_000);

  it('`deskpilot displays` lists real monitors without the whole-screen one; a run on RIGHT names it and sees only it', async () => {
    const bare = await cli(['displays'], { text: '' });
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stdout).toBe('"screen" 1280×800 at (0, 0), primary\n');
    xr('--setmonitor', 'LEFT', '640/169x800/211+0+0', 'none');
    xr('--setmonitor', 'RIGHT', '640/169x800/211+640+0', 'none');
    try {
      const listed = await cli(['displays'], { text: '' });
      expect(listed.stdout).toBe('"LEFT" 640×800 at (0, 0), primary\n"RIGHT" 640×800 at (640, 0)\n');
      fake.script({ text: 'Looked.', toolCalls: [finish(true, 'seen')] });
      const r = await cli(['run', 'look', ...MODEL, '--yes', '--display', 'RIGHT'], { text: '' });
      expect(r.code, r.stderr).toBe(0);
      const first = r.stdout.split('\n')[0]!;
      expect(first).toMatch(/^run \S+: look \(anthropic claude-haiku-4-5, policy auto, display "RIGHT" 640×800 at \(640, 0\)\)$/);
      const runId = /^run (\S+):/.exec(first)![1]!;
      const log = readFileSync(path.join(home.home, 'sessions', runId, 'events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
      expect(log.find((e) => e.type === 'run_started').display).toMatchObject({ id: 'RIGHT', bounds: { x: 640, y: 0, width: 640, height: 800 } });
      expect(log.find((e) => e.type === 'observation').observation.region).toEqual({ x: 640, y: 0, width: 640, height: 800 });
    } finally {
      xr('--delmonitor', 'LEFT');
      xr('--delmonitor', 'RIGHT');
    }
  }, 180_000);
});
