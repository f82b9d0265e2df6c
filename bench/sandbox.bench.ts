/**
 * The sandbox's cost per command (issue 30 target: ≤ 30 ms added, median of 30): the
 * shell tool's `true` as a run sends it — into the run's sandbox session
 * (sandbox/run-sandbox.ts: one bubblewrap per run, the plan re-read per command) —
 * against the same `true` without a sandbox, runs interleaved so load drifts hit both
 * alike; and, for reference, one bubblewrap per command (what an escalated command gets,
 * and every command before the session).
 *
 * History (2 cores): one bubblewrap per command, load 13 (session 11): unsandboxed
 * 32.3 ms, workspace-write +37.7 ms, read-only +47.7 ms — bubblewrap's own mount
 * namespace +21.7 ms of it. A bench-only probe of one sandbox per run then took 23.0 ms
 * a command against 33.4 ms unsandboxed: spawning costs the parent's size (libuv forks
 * it) and the small Node inside is cheaper to fork than DeskPilot's main process. The
 * session is that probe made product (secrets re-checked, escalations fresh, trees
 * killed, output capped, everything ended with the run).
 *
 *   npm run bench -- sandbox        (--runs 30)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { loadavg } from 'node:os';
import { runShell } from '../src/main/agent/tools/shell.js';
import { prepareCommand, RunSandbox, sandboxPolicy, type SandboxPolicy } from '../src/main/sandbox/index.js';
import { median, numberArg } from './lib/stats.js';

const runs = numberArg('runs', 30);
const workspace = fs.mkdtempSync('/var/tmp/deskpilot-sandbox-bench-');
const modes = ['workspace-write', 'read-only'] as const;
const load0 = loadavg()[0]!;
const time = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};
const ok = async (policy: SandboxPolicy, session?: RunSandbox) => {
  const r = await runShell('true', { sandbox: policy, ...(session ? { session } : {}) });
  if (r.exitCode !== 0) throw new Error(`sandboxed true failed: ${r.output}`);
};
const sessions: RunSandbox[] = [];
try {
  const policies = Object.fromEntries(modes.map((mode) => [mode, sandboxPolicy({ mode, workspace })])) as Record<(typeof modes)[number], SandboxPolicy>;
  const starts: Record<string, number> = {};
  for (const mode of modes) {
    const session = new RunSandbox(policies[mode]);
    sessions.push(session);
    starts[mode] = await time(() => ok(policies[mode], session));
  }
  // Warm the other paths once (the first bwrap pays for its page cache).
  await runShell('true', { cwd: workspace });
  await ok(policies['workspace-write']);
  const plain: number[] = [];
  const inSession: Record<string, number[]> = { 'workspace-write': [], 'read-only': [] };
  const oneOff: number[] = [];
  for (let i = 0; i < runs; i++) {
    plain.push(await time(() => runShell('true', { cwd: workspace })));
    for (const [index, mode] of modes.entries()) inSession[mode]!.push(await time(() => ok(policies[mode], sessions[index])));
    oneOff.push(await time(() => ok(policies['workspace-write'])));
  }
  const prep: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    prepareCommand(policies['workspace-write'], { file: 'bash', args: ['-c', 'true'], cwd: workspace, env: process.env }).dispose();
    prep.push(performance.now() - t);
  }
  for (const session of sessions) if (session.started !== 1 || session.fallbackReason) throw new Error(`the session restarted or fell back: ${session.fallbackReason ?? session.started}`);
  const base = median(plain);
  const rows = [`unsandboxed true                     ${base.toFixed(1).padStart(6)} ms`];
  let worst = -Infinity;
  for (const mode of modes) {
    const added = median(inSession[mode]!) - base;
    worst = Math.max(worst, added);
    rows.push(`${`${mode}, run's session`.padEnd(36)} ${median(inSession[mode]!).toFixed(1).padStart(6)} ms  added ${added.toFixed(1)} ms  ×${(median(inSession[mode]!) / base).toFixed(2)}  (session start with the first command ${starts[mode]!.toFixed(0)} ms)`);
  }
  rows.push(`${'workspace-write, one bwrap a command'.padEnd(36)} ${median(oneOff).toFixed(1).padStart(6)} ms  added ${(median(oneOff) - base).toFixed(1)} ms  (escalations; before the session)`);
  rows.push(`${'plan per command (prepareCommand)'.padEnd(36)} ${median(prep).toFixed(2).padStart(6)} ms`);
  rows.push(`target ≤ 30 ms added (run's session, worst mode ${worst.toFixed(1)} ms): ${worst <= 30 ? 'met' : 'MISSED'}`);
  process.stdout.write(`sandboxed shell command, median of ${runs} (load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)} on ${spawnSync('nproc').stdout.toString().trim()} cores)\n${rows.join('\n')}\n`);
} finally {
  for (const session of sessions) await session.close();
  fs.rmSync(workspace, { recursive: true, force: true });
}
