import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveGrants, sandboxPolicy, SandboxUnavailableError, startSandboxedProcess, widenPolicy, type SandboxedProcess } from '../../src/main/sandbox/index.js';
import { requirePrograms } from '../harness/requirements.js';

// The code interpreter's entry to the sandbox (sandbox/sandboxed-process.ts), against the
// real bubblewrap: a long-lived Python that keeps its state between requests on its
// pipes, limited as a command is; an escalation is a fresh interpreter with exactly its
// grant; `stop` leaves no process it started, a setsid one included.

requirePrograms(['bwrap', 'pgrep', '/usr/bin/python3']);

const base = fs.mkdtempSync('/var/tmp/deskpilot-sandboxed-process-');
const workspace = path.join(base, 'ws');
const outside = path.join(base, 'outside');
const home = path.join(base, 'home');
for (const dir of [workspace, outside, path.join(home, '.ssh')]) fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
const policy = sandboxPolicy({ mode: 'workspace-write', workspace });
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

// One statement per line in, one JSON line out: the result, or the error's name and text.
const REPL = String.raw`
import json, sys
env = {}
for line in sys.stdin:
    try:
        try:
            result = repr(eval(line, env))
        except SyntaxError:
            exec(line, env)
            result = None
        print(json.dumps({"ok": result}), flush=True)
    except Exception as e:
        print(json.dumps({"error": type(e).__name__ + ": " + str(e)}), flush=True)
`;

function talk(proc: SandboxedProcess) {
  const lines = readline.createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  return async (statement: string): Promise<{ ok?: string | null; error?: string }> => {
    proc.stdin.write(`${statement}\n`);
    const next = await lines.next();
    if (next.done) throw new Error(`the interpreter ended: ${await text(proc.stderr)}`);
    return JSON.parse(next.value) as { ok?: string | null; error?: string };
  };
}

async function text(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

const running = (marker: string) => {
  try {
    return execFileSync('pgrep', ['-f', marker]).toString().trim().length > 0;
  } catch {
    return false;
  }
};

describe('startSandboxedProcess: a long-lived interpreter in the sandbox', () => {
  it('keeps its state between requests, is limited as a command is, and stop leaves nothing it started', async () => {
    const python = startSandboxedProcess(policy, { file: '/usr/bin/python3', args: ['-u', '-c', REPL], cwd: workspace, env: { PATH: '/usr/bin:/bin', HOME: home } }, { home });
    expect(python.enforcer).toBe('bubblewrap');
    const ask = talk(python);
    expect(await ask('x = 20')).toEqual({ ok: null });
    expect(await ask('x + 22')).toEqual({ ok: '42' });
    expect(await ask(`open('${workspace}/made.txt', 'w').write('in the workspace')`)).toEqual({ ok: '16' });
    expect(fs.readFileSync(path.join(workspace, 'made.txt'), 'utf8')).toBe('in the workspace');
    expect((await ask(`open('${outside}/escaped.txt', 'w')`)).error).toMatch(/^OSError: \[Errno 30\] Read-only file system/);
    expect(fs.existsSync(path.join(outside, 'escaped.txt'))).toBe(false);
    expect(await ask(`__import__('os').listdir('${home}/.ssh')`)).toEqual({ ok: '[]' });
    expect(await ask(`__import__('os').environ.get('DISPLAY')`)).toEqual({ ok: 'None' });
    const marker = `dp-interp-${process.pid}-${Date.now()}`;
    expect(await ask(`__import__('subprocess').Popen(['bash', '-c', 'exec -a ${marker} sleep 60'], start_new_session=True) and None`)).toEqual({ ok: 'None' });
    await until(() => running(marker));
    expect(await python.stop()).toBe(true);
    expect(running(marker)).toBe(false);
    // Stopping again is the same answer, not a second stop.
    expect(await python.stop()).toBe(true);
  });

  it('an escalated block gets a fresh interpreter with exactly its grant; the running one never gets it', async () => {
    const plain = startSandboxedProcess(policy, { file: '/usr/bin/python3', args: ['-u', '-c', REPL], cwd: workspace, env: { PATH: '/usr/bin:/bin' } }, { home });
    const widened = widenPolicy(policy, { write: [outside] }, resolveGrants([outside]));
    const escalated = startSandboxedProcess(widened, { file: '/usr/bin/python3', args: ['-u', '-c', REPL], cwd: workspace, env: { PATH: '/usr/bin:/bin' } }, { home });
    try {
      expect(await talk(escalated)(`open('${outside}/granted.txt', 'w').write('yes')`)).toEqual({ ok: '3' });
      expect(fs.readFileSync(path.join(outside, 'granted.txt'), 'utf8')).toBe('yes');
      expect((await talk(plain)(`open('${outside}/not-granted.txt', 'w')`)).error).toMatch(/Read-only file system/);
    } finally {
      expect(await plain.stop()).toBe(true);
      expect(await escalated.stop()).toBe(true);
    }
  });

  it('extra pipes reach the interpreter as fd 3…; with no sandbox on the machine nothing starts', async () => {
    const proc = startSandboxedProcess(policy, { file: '/usr/bin/python3', args: ['-c', "import os; os.write(3, b'on fd 3')"], cwd: workspace, env: { PATH: '/usr/bin:/bin' } }, { home, extraPipes: 1 });
    expect(await text(proc.extra[0] as Readable)).toBe('on fd 3');
    await proc.exited;
    expect(await proc.stop()).toBe(true);
    expect(() => startSandboxedProcess(policy, { file: '/usr/bin/python3', args: ['-c', 'pass'], cwd: workspace, env: {} }, { home, env: { PATH: '/nonexistent' } })).toThrow(SandboxUnavailableError);
  });
});

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('the condition did not come within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
