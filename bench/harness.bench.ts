/**
 * The code harness's costs (issue 31 bench targets), each session as a run has it:
 *  - Python (python3 in the run's workspace-write bubblewrap): first block ≤ 300 ms
 *    including the interpreter's and the sandbox's start; later blocks ≤ 30 ms;
 *  - JavaScript (QuickJS in a worker thread): first ≤ 100 ms, later ≤ 10 ms;
 *  - the first block two ways, medians of --first-runs (default 7) fresh sessions each:
 *    cold (the interpreter started by the block itself, as before the run started them)
 *    and warm (a run starts its harness's interpreters beside the model's first turn,
 *    code/sessions.ts warm: the block comes after `warm()` resolved); with the warm-up's
 *    own time, which the model's first turn (a screenshot read: seconds) must outlast;
 *  - one `computer.*` call's RPC from the interpreter to DeskPilot and back, the call
 *    answered at once (the gate and the action are not in it: their cost is the
 *    computer tool's own, bench/agent.bench.ts);
 *  - stop of a running block (a spin loop): from the abort to the session's answer, the
 *    interpreter and its process group gone (Python) or the worker terminated (JS),
 *    ≤ 200 ms.
 * Medians of --runs (default 15); the load average is printed with them because 2 cores
 * shared by a busy machine move every figure (a37558d measured the Python stop at 462 ms
 * median at load 34).
 *
 *   npm run bench -- harness        (--runs 15)
 */
import fs from 'node:fs';
import { loadavg } from 'node:os';
import { PythonSession, type CodeSession, type ComputerCallReply } from '../src/main/agent/harness/code/session.js';
import { JsSession } from '../src/main/agent/harness/code/js-session.js';
import { sandboxPolicy } from '../src/main/sandbox/index.js';
import { median, numberArg } from './lib/stats.js';

const runs = numberArg('runs', 15);
const firstRuns = numberArg('first-runs', 7);
const CALLS_PER_BLOCK = 50;
const workspace = fs.mkdtempSync('/var/tmp/deskpilot-harness-bench-');
const answerAtOnce = async (): Promise<ComputerCallReply> => ({ ok: true });

async function block(session: CodeSession, code: string, onCall: () => Promise<ComputerCallReply> = answerAtOnce, signal = new AbortController().signal) {
  const started = performance.now();
  const result = await session.run(code, { signal, timeoutMs: 60_000, maxOutputChars: 16_000, onCall });
  return { ms: performance.now() - started, result };
}

/** A spin loop stopped once it is surely running (its first computer call came back): the time from the abort to the session's answer. */
async function stopTime(session: CodeSession, spin: string): Promise<number> {
  const abort = new AbortController();
  let aborted = 0;
  const onCall = async (): Promise<ComputerCallReply> => {
    setTimeout(() => {
      aborted = performance.now();
      abort.abort(new Error('stop'));
    }, 50);
    return { ok: true };
  };
  const { result } = await block(session, spin, onCall, abort.signal);
  if (result.status !== 'stopped') throw new Error(`the spinning block ended as ${result.status}, not stopped`);
  return performance.now() - aborted;
}

interface FirstBlock {
  cold: number;
  warm: number;
  warmUp: number;
}

/** The first block of fresh sessions: cold (started by the block) and warm (after warm()), alternated so load drifts hit both. */
async function firstBlocks(language: string, make: () => CodeSession, code: string): Promise<FirstBlock> {
  const cold: number[] = [];
  const warm: number[] = [];
  const warmUp: number[] = [];
  for (let i = 0; i < firstRuns; i++) {
    const coldSession = make();
    try {
      const first = await block(coldSession, code);
      if (first.result.status !== 'done') throw new Error(`${language} first block: ${first.result.status} ${first.result.error ?? first.result.output}`);
      cold.push(first.ms);
    } finally {
      await coldSession.close();
    }
    const warmSession = make();
    try {
      const started = performance.now();
      await warmSession.warm();
      warmUp.push(performance.now() - started);
      const first = await block(warmSession, code);
      if (first.result.status !== 'done') throw new Error(`${language} warm first block: ${first.result.status} ${first.result.error ?? first.result.output}`);
      warm.push(first.ms);
    } finally {
      await warmSession.close();
    }
  }
  return { cold: median(cold), warm: median(warm), warmUp: median(warmUp) };
}

interface Figures {
  first: FirstBlock;
  later: number;
  call: number;
  stop: number;
}

async function measure(language: 'python' | 'javascript', make: () => CodeSession): Promise<Figures> {
  const code = language === 'python'
    ? { trivial: 'x = 1', calls: `for i in range(${CALLS_PER_BLOCK}):\n    computer.mouse.move(1, 1)`, spin: 'computer.wait(0)\nwhile True:\n    pass' }
    : { trivial: 'var x = 1;', calls: `for (let i = 0; i < ${CALLS_PER_BLOCK}; i++) computer.mouse.move(1, 1);`, spin: 'computer.wait(0);\nwhile (true) {}' };
  const first = await firstBlocks(language, make, code.trivial);
  const session = make();
  try {
    await session.warm();
    const later: number[] = [];
    const perCall: number[] = [];
    for (let i = 0; i < runs; i++) {
      later.push((await block(session, code.trivial)).ms);
      const empty = (await block(session, code.trivial)).ms;
      const withCalls = await block(session, code.calls);
      if (withCalls.result.status !== 'done') throw new Error(`${language} calls block: ${withCalls.result.status} ${withCalls.result.error ?? ''}`);
      perCall.push(Math.max(0, withCalls.ms - empty) / CALLS_PER_BLOCK);
    }
    const stops: number[] = [];
    for (let i = 0; i < Math.min(runs, 7); i++) stops.push(await stopTime(session, code.spin));
    return { first, later: median(later), call: median(perCall), stop: median(stops) };
  } finally {
    await session.close();
  }
}

const load0 = loadavg()[0]!;
try {
  const python = await measure('python', () => new PythonSession({ cwd: workspace, sandbox: sandboxPolicy({ mode: 'workspace-write', workspace }) }));
  const js = await measure('javascript', () => new JsSession());
  const load1 = loadavg()[0]!;
  const line = (name: string, f: Figures, first: number, later: number) =>
    `${name}: first block warm ${f.first.warm.toFixed(0)} ms (target ≤ ${first}; warm-up ${f.first.warmUp.toFixed(0)} ms beside the model's first turn), cold ${f.first.cold.toFixed(0)} ms, later ${f.later.toFixed(1)} ms (≤ ${later}), one computer call's RPC ${f.call.toFixed(2)} ms, stop of a running block ${f.stop.toFixed(0)} ms (≤ 200)`;
  process.stdout.write(`${line('python3 in bubblewrap (workspace-write)', python, 300, 30)}\n`);
  process.stdout.write(`${line('JavaScript (QuickJS worker)', js, 100, 10)}\n`);
  process.stdout.write(`medians of ${runs} (first blocks: ${firstRuns} fresh sessions each way; stop: ${Math.min(runs, 7)}); load average ${load0.toFixed(1)} → ${load1.toFixed(1)} on ${(await import('node:os')).cpus().length} cores\n`);
} finally {
  fs.rmSync(workspace, { recursive: true, force: true });
}
