import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import readline from 'node:readline';
import { prepareCommand, type SandboxPolicy } from '../../src/main/sandbox/index.js';

/**
 * A design probe for the bench, not a product path: ONE bubblewrap per run, with a small
 * Node process inside that spawns each command it is sent (JSON lines on stdin, one
 * answer line per command on stdout). It measures what a long-lived sandbox would cost
 * per command — the mount, pid and network namespaces are made once per run instead of
 * once per command. What a product version must add is listed in bench/sandbox.bench.ts.
 */
const SERVER = `
const { spawn } = require('node:child_process');
const lines = require('node:readline').createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const m = JSON.parse(line);
  let out = '';
  const child = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  child.on('error', (e) => process.stdout.write(JSON.stringify({ id: m.id, code: null, out: e.message }) + '\\n'));
  child.on('close', (code) => process.stdout.write(JSON.stringify({ id: m.id, code, out }) + '\\n'));
});
`;

export interface SandboxSessionProbe {
  run(file: string, args: string[]): Promise<{ code: number | null; out: string }>;
  close(): void;
}

export async function startSandboxSessionProbe(policy: SandboxPolicy): Promise<SandboxSessionProbe> {
  // The same argv (masks, namespaces, binds) as a one-off command: only the command differs.
  const { spawn: spec, dispose } = prepareCommand(policy, { file: process.execPath, args: ['-e', SERVER], cwd: policy.workspace, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  const child: ChildProcessWithoutNullStreams = spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['pipe', 'pipe', 'pipe'] });
  const waiting = new Map<number, (answer: { code: number | null; out: string }) => void>();
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const answer = JSON.parse(line) as { id: number; code: number | null; out: string };
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  let ids = 0;
  const probe: SandboxSessionProbe = {
    run(file, args) {
      const id = ids++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ id, file, args, cwd: policy.workspace, env: spec.env })}\n`);
      });
    },
    close() {
      child.kill('SIGKILL');
      dispose();
    },
  };
  // Ready once the first command has come back (Node's start inside the sandbox).
  const first = await probe.run('true', []);
  if (first.code !== 0) throw new Error(`the sandbox session did not start: ${first.out}`);
  return probe;
}
