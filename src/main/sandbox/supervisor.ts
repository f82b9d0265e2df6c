import { z } from 'zod';

/**
 * The small program that lives inside a run's sandbox (session.ts) and starts each command
 * it is sent — so bubblewrap's namespaces and ~30 masks are made once per run, not once
 * per command (bench/sandbox.bench.ts: +37.7 ms a command at load 13 that way).
 *
 * It runs as Node (`node -e`, or Electron with ELECTRON_RUN_AS_NODE), CommonJS, in the
 * sandbox's own pid namespace, as pid 2 under bubblewrap's init (which reaps orphans).
 * One command at a time (the host queues them); for each:
 *   1. spawned in its own process group, with the environment and folder the host sent;
 *   2. output forwarded as it arrives up to `cap` characters, then only the last `cap`
 *      kept (and the count of the cut ones) — a command printing gigabytes costs the
 *      host a bounded amount;
 *   3. when it exits — or the host says kill (timeout, Stop) — every other process in the
 *      namespace is killed until none is alive (state Z counts as gone): what a command
 *      left running, `setsid` or not, ends with it, as when each command had its own
 *      namespace. Then its exit is reported, the next may start.
 * Its input ending (DeskPilot gone, the run over) ends everything the same way.
 *
 * Lines out (JSON): `{ready, ns}` once; `{id, out}`; `{id, exit, signal, cut, swept}`.
 */
export const SUPERVISOR_SOURCE = String.raw`'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const { StringDecoder } = require('node:string_decoder');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
const others = () => {
  const live = [];
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || e === '1' || Number(e) === process.pid) continue;
    let stat;
    try { stat = fs.readFileSync('/proc/' + e + '/stat', 'utf8'); } catch { continue; }
    const state = stat[stat.lastIndexOf(')') + 2];
    if (state !== 'Z' && state !== 'X') live.push(Number(e));
  }
  return live;
};
// A sweep belongs to one command: it stops when the next one has started (its processes are not what it sweeps).
let runs = 0;
const sweep = (done) => {
  const epoch = runs;
  let swept = 0;
  const step = () => {
    if (runs !== epoch) return;
    const left = others();
    if (left.length === 0) return done(swept);
    swept = Math.max(swept, left.length);
    for (const pid of left) { try { process.kill(pid, 'SIGKILL'); } catch {} }
    setTimeout(step, 2);
  };
  step();
};
let current;
const run = (m) => {
  runs++;
  const cmd = { id: m.id, sent: 0, tail: '', cut: 0, ended: false };
  current = cmd;
  let child;
  const finish = (code, signal, note) => {
    if (cmd.ended) return;
    cmd.ended = true;
    sweep((swept) => {
      if (note) send({ id: m.id, out: note });
      if (cmd.tail) send({ id: m.id, out: cmd.tail });
      send({ id: m.id, exit: code, signal: signal || null, cut: cmd.cut, swept });
      current = undefined;
    });
  };
  const take = (decoder) => (buf) => {
    let s = decoder.write(buf);
    if (cmd.sent < m.cap) {
      const head = s.slice(0, m.cap - cmd.sent);
      cmd.sent += head.length;
      if (head) send({ id: m.id, out: head });
      s = s.slice(head.length);
    }
    if (!s) return;
    cmd.tail += s;
    if (cmd.tail.length > m.cap) { cmd.cut += cmd.tail.length - m.cap; cmd.tail = cmd.tail.slice(-m.cap); }
  };
  try {
    child = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    return finish(null, null, 'failed to start ' + m.file + ': ' + e.message);
  }
  cmd.child = child;
  child.stdout.on('data', take(new StringDecoder('utf8')));
  child.stderr.on('data', take(new StringDecoder('utf8')));
  child.on('error', (e) => { if (child.pid === undefined) finish(null, null, 'failed to start ' + m.file + ': ' + e.message); });
  // What it left holding its output open would keep 'close' away: end it at 'exit'.
  child.on('exit', () => sweep(() => {}));
  child.on('close', (code, signal) => finish(code, signal));
};
const kill = (m) => {
  if (!current || current.id !== m.id || !current.child) return;
  try { process.kill(-current.child.pid, 'SIGKILL'); } catch {}
  sweep(() => {});
};
// A stopped and continued supervisor may get SIGHUP (an orphaned process group); it is no reason to end.
process.on('SIGHUP', () => {});
const lines = require('node:readline').createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.op === 'run') run(m);
  else if (m.op === 'kill') kill(m);
});
lines.on('close', () => sweep(() => process.exit(0)));
send({ ready: true, ns: fs.readlinkSync('/proc/self/ns/pid') });
`;

/** What the host sends: run one command (its spec already under the sandbox's environment), or kill the running one. */
export type SupervisorRequest =
  | { op: 'run'; id: number; file: string; args: readonly string[]; cwd: string; env: NodeJS.ProcessEnv; cap: number }
  | { op: 'kill'; id: number };

/**
 * What the supervisor says, parsed at the edge: the process inside the sandbox runs next
 * to the model's commands, so a line it did not write is possible — anything else ends
 * the session (session.ts), never trusted as a result.
 */
export const SupervisorMessageSchema = z.union([
  z.object({ ready: z.literal(true), ns: z.string().regex(/^pid:\[\d+\]$/) }).strict(),
  z.object({ id: z.number().int().nonnegative(), out: z.string() }).strict(),
  z
    .object({
      id: z.number().int().nonnegative(),
      exit: z.number().int().nullable(),
      signal: z.string().nullable(),
      cut: z.number().int().nonnegative(),
      swept: z.number().int().nonnegative(),
    })
    .strict(),
]);
export type SupervisorMessage = z.infer<typeof SupervisorMessageSchema>;

/** One line from the supervisor, or why it is not one (pure). */
export function parseSupervisorLine(line: string): { ok: true; message: SupervisorMessage } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { ok: false, reason: `not JSON: ${line.slice(0, 80)}` };
  }
  const parsed = SupervisorMessageSchema.safeParse(json);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, reason: `not a supervisor message: ${line.slice(0, 80)}` };
}
