import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockText, ESCALATED_NOTE } from '../../src/main/agent/harness/code/run-block.js';
import { PythonSession, type BlockOptions, type BlockResult } from '../../src/main/agent/harness/code/session.js';
import { CodeSessions } from '../../src/main/agent/harness/code/sessions.js';
import { sandboxPolicy, type SandboxPolicy } from '../../src/main/sandbox/index.js';
import { requirePrograms } from '../harness/requirements.js';
import { caseUser } from '../harness/unprivileged-user.js';

// The code harness's Python under the run's sandbox (issue 30 item 9), against the real
// bubblewrap and python3: started by the sandbox's one entry for interpreters
// (startSandboxedProcess), so a block is limited as a shell command is — no write outside
// the writable set, no ~/.ssh, no network, its children too — and a failure with a sign
// of the sandbox's refusal tells the model how to ask again (execute's escalate). An
// escalated block runs in a fresh interpreter with exactly its grant, ended after it.

requirePrograms(['bwrap', 'python3', 'pgrep', 'useradd', 'userdel']);

// Outside /tmp: bubblewrap gives the sandbox a private /tmp, so a write there is not a write outside.
const base = fs.mkdtempSync('/var/tmp/deskpilot-python-sandbox-');
// Passable by an unprivileged user: the last cases run the interpreter as one.
fs.chmodSync(base, 0o755);
const workspace = path.join(base, 'ws');
const outside = path.join(base, 'outside');
const home = path.join(base, 'home');
for (const dir of [workspace, outside, path.join(home, '.ssh')]) fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');

// A loopback HTTP server on the host: what a block with network reaches, and one without does not.
const hits: string[] = [];
const server = http.createServer((req, res) => {
  hits.push(req.url ?? '');
  res.end('from the host');
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

const closing: Array<{ close(): Promise<unknown> }> = [];
afterAll(async () => {
  await Promise.all(closing.map((s) => s.close()));
  server.close();
  fs.rmSync(base, { recursive: true, force: true });
});

function session(policy: SandboxPolicy): PythonSession {
  const s = new PythonSession({ cwd: workspace, sandbox: policy, home });
  closing.push(s);
  return s;
}

function options(): BlockOptions {
  return { signal: new AbortController().signal, timeoutMs: 60_000, maxOutputChars: 4_000, onCall: async () => ({ ok: false, error: 'no computer in this test' }) };
}

const py = (s: string) => JSON.stringify(s);
const fetchBlock = (suffix: string) => `import urllib.request\nurllib.request.urlopen(${py(`${url}/${suffix}`)}, timeout=10).read().decode()`;

function running(marker: string): boolean {
  try {
    return execFileSync('pgrep', ['-f', marker]).toString().trim().length > 0;
  } catch {
    return false;
  }
}

describe('a Python block in workspace-write (real bubblewrap)', () => {
  const policy = sandboxPolicy({ mode: 'workspace-write', workspace });
  const python = session(policy);

  it('writes in the workspace; a write outside it, by the block or by its child, is refused, nothing is written, and the model is told how to ask again', async () => {
    const inside = await python.run('open("made.txt", "w").write("in the workspace")', options());
    expect(inside).toMatchObject({ status: 'done', value: '16' });
    expect(fs.readFileSync(path.join(workspace, 'made.txt'), 'utf8')).toBe('in the workspace');

    const target = path.join(outside, 'escaped.txt');
    const refused = await python.run(`open(${py(target)}, "w").write("no")`, options());
    expect(refused.status).toBe('error');
    expect(refused.error).toContain(`OSError: [Errno 30] Read-only file system: '${target}'`);
    expect(refused.refusal).toEqual({ sign: `read-only file system at ${target}`, sandbox: policy });
    expect(fs.existsSync(target)).toBe(false);
    const text = blockText('python', refused, 60_000);
    expect(text).toContain(`[the sandbox may have refused this: read-only file system at ${target}. Sandbox workspace-write: writable ${workspace} and a private temp dir; network off.`);
    expect(text).toContain('call execute again with the same code, escalate: {write: [absolute paths], network: true}');

    const child = path.join(outside, 'by-child.txt');
    const byChild = await python.run(`import subprocess\nsubprocess.run(["sh", "-c", ${py(`echo no > ${child}`)}], check=True)`, options());
    expect(byChild.status).toBe('error');
    expect(byChild.output).toMatch(/Read-only file system/);
    expect(fs.existsSync(child)).toBe(false);
  }, 60_000);

  it('cannot read ~/.ssh: the folder is empty inside, the key not there', async () => {
    const listing = await python.run(`import os\nos.listdir(${py(path.join(home, '.ssh'))})`, options());
    expect(listing).toMatchObject({ status: 'done', value: '[]' });
    const key = await python.run(`open(${py(path.join(home, '.ssh', 'id_ed25519'))}).read()`, options());
    expect(key.status).toBe('error');
    expect(key.error).toContain('FileNotFoundError');
    expect(key.output + (key.error ?? '')).not.toContain('PRIVATE KEY');
  }, 60_000);

  it('has no network: a loopback server on the host is not reached, and the refusal is marked', async () => {
    const before = hits.length;
    const result = await python.run(fetchBlock('from-the-sandbox'), options());
    expect(result.status).toBe('error');
    expect(result.error).toMatch(/Connection refused|Network is unreachable/);
    expect(result.refusal?.sign).toBe('network unreachable (the sandbox has no network)');
    expect(hits.length).toBe(before);
  }, 60_000);
});

describe('a Python block in read-only', () => {
  it('cannot write even in the workspace; its private temp dir it can', async () => {
    const python = session(sandboxPolicy({ mode: 'read-only', workspace }));
    const refused = await python.run('open("read-only.txt", "w")', options());
    expect(refused.status).toBe('error');
    // Python names the path as given (relative): the sign has no path to add.
    expect(refused.refusal?.sign).toBe('read-only file system');
    expect(fs.existsSync(path.join(workspace, 'read-only.txt'))).toBe(false);
    expect(blockText('python', refused, 60_000)).toContain('Sandbox read-only: writable nothing (read-only) and a private temp dir');
    const temp = await python.run('import os, tempfile\nwith tempfile.NamedTemporaryFile(dir=os.environ["TMPDIR"]) as f:\n    f.write(b"x")\nos.environ["TMPDIR"]', options());
    expect(temp).toMatchObject({ status: 'done', value: "'/tmp'" });
  }, 60_000);
});

describe('an escalated block (CodeSessions.forBlock): a fresh interpreter with exactly its grant', () => {
  const policy = sandboxPolicy({ mode: 'workspace-write', workspace });
  const sessions = new CodeSessions({ sandbox: policy, cwd: workspace, resumed: false, home });
  closing.push(sessions);

  async function runOnce(where: ReturnType<CodeSessions['forBlock']>, code: string): Promise<BlockResult> {
    if ('refused' in where) throw new Error(where.refused);
    try {
      return await where.session.run(code, options());
    } finally {
      if (where.once) await where.session.close();
    }
  }

  it('writes where it was granted, without the persistent session\'s variables; the persistent session still cannot, and keeps its own', async () => {
    const persistent = sessions.forBlock('python', undefined);
    expect(persistent).toMatchObject({ once: false });
    await runOnce(persistent, 'secret_var = 41');
    const granted = path.join(outside, 'granted.txt');
    const marker = `dp-escalated-${process.pid}-${Date.now()}`;
    const escalated = sessions.forBlock('python', { write: [outside] });
    expect(escalated).toMatchObject({ once: true });
    // It also leaves a child in a session of its own, which must not outlive the block.
    const result = await runOnce(escalated, `import subprocess\nsubprocess.Popen(["bash", "-c", ${py(`exec -a ${marker} sleep 60`)}], start_new_session=True)\nopen(${py(granted)}, "w").write("yes")\n"secret_var" in globals()`);
    expect(result).toMatchObject({ status: 'done', value: 'False' });
    expect(result.refusal).toBeUndefined();
    expect(fs.readFileSync(granted, 'utf8')).toBe('yes');
    // Ended with its block: nothing the interpreter that held the grant started is left.
    expect(running(marker)).toBe(false);
    const after = await runOnce(sessions.forBlock('python', undefined), `try:\n    open(${py(path.join(outside, 'after.txt'))}, "w")\nexcept OSError as e:\n    print(e.strerror)\nsecret_var + 1`);
    expect(after).toMatchObject({ status: 'done', value: '42' });
    expect(after.output.trim()).toBe('Read-only file system');
    expect(ESCALATED_NOTE).toContain('fresh interpreter');
  }, 90_000);

  it('network granted: the loopback server is reached; a grant that does not resolve runs nothing', async () => {
    const before = hits.length;
    const result = await runOnce(sessions.forBlock('python', { network: true }), fetchBlock('escalated'));
    expect(result).toMatchObject({ status: 'done', value: "'from the host'" });
    expect(hits.slice(before)).toEqual(['/escalated']);
    expect(sessions.forBlock('python', { write: [path.join(base, 'missing')] })).toEqual({
      refused: `not run: escalate.write: ${path.join(base, 'missing')} does not exist (to create a file, name its folder)`,
    });
    // Asking for nothing is no escalation: the persistent session.
    expect(sessions.forBlock('python', { write: [] })).toMatchObject({ once: false });
  }, 90_000);
});

describe('the same limits for an unprivileged user (CI runs as root: a user is made for the case)', () => {
  it('writes in its workspace as that user; outside it, ~/.ssh and the network stay out of reach', async () => {
    const user = caseUser('dpps', base);
    try {
      const { uid, gid, home: userHome, workspace: userWs, outside: userOutside } = user;
      const python = new PythonSession({ cwd: userWs, sandbox: sandboxPolicy({ mode: 'workspace-write', workspace: userWs }), home: userHome, ...(user.made ? { user: { uid, gid } } : {}) });
      closing.push(python);
      const mine = await python.run('import os\nopen("made", "w").write("mine")\nos.getuid()', options());
      // Inside bubblewrap's user namespace the uid is mapped to itself.
      expect(mine).toMatchObject({ status: 'done', value: String(uid) });
      expect(fs.statSync(path.join(userWs, 'made'))).toMatchObject({ uid, gid });
      const outside = await python.run(`open(${py(path.join(userOutside, 'nope'))}, "w")`, options());
      expect(outside.refusal?.sign).toBe(`read-only file system at ${path.join(userOutside, 'nope')}`);
      expect(fs.existsSync(path.join(userOutside, 'nope'))).toBe(false);
      expect(await python.run(`import os\nos.listdir(${py(path.join(userHome, '.ssh'))})`, options())).toMatchObject({ status: 'done', value: '[]' });
      const before = hits.length;
      expect((await python.run(fetchBlock('as-user'), options())).refusal?.sign).toBe('network unreachable (the sandbox has no network)');
      expect(hits.length).toBe(before);
      await python.close();
    } finally {
      user.remove();
    }
  }, 90_000);
});
