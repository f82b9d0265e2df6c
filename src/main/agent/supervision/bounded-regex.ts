import { Worker } from 'node:worker_threads';

/**
 * A user's regular expression (policy.rules textPattern/windowPattern), run with a
 * time bound. JavaScript regexes backtrack: `^(a+)+$` against 40 a's and a b takes
 * longer than the universe, and on the main thread it would freeze the run, the UI
 * bridge and Ctrl-C with it. V8's linear-time engine (/l) would avoid that but does
 * not support the `i` flag (our default) in Node 20. So user patterns never run on
 * the main thread: a worker runs them, the caller waits on a shared word with a
 * timeout (Atomics.wait), and a pattern that overruns is reported as `timeout` and
 * its worker terminated (V8 interrupts the backtracking).
 */

/** One match may take this long before it counts as runaway (a sane pattern on 20 kB of text: well under 10 ms). */
export const REGEX_MATCH_BUDGET_MS = 250;
/** Starting the worker (once per process, or after a runaway) may take this long on a busy machine. */
const WORKER_START_BUDGET_MS = 10_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ready = new Int32Array(workerData.ready);
Atomics.store(ready, 0, 1);
Atomics.notify(ready, 0);
const cache = new Map();
parentPort.on('message', ({ source, flags, subject, result }) => {
  const word = new Int32Array(result);
  let outcome = 3;
  try {
    const key = flags + '/' + source;
    let re = cache.get(key);
    if (!re) { re = new RegExp(source, flags); cache.set(key, re); }
    outcome = re.test(subject) ? 1 : 2;
  } catch { outcome = 3; }
  Atomics.store(word, 0, outcome);
  Atomics.notify(word, 0);
});
`;

let worker: Worker | undefined;
let readyWord: Int32Array | undefined;

function currentWorker(): { worker: Worker; ready: Int32Array } {
  if (!worker || !readyWord) {
    const ready = new SharedArrayBuffer(4);
    worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ready } });
    // The worker must never keep a finished process alive.
    worker.unref();
    readyWord = new Int32Array(ready);
  }
  return { worker, ready: readyWord };
}

function dropWorker(): void {
  const w = worker;
  worker = undefined;
  readyWord = undefined;
  // Interrupts the runaway match; nothing waits for it.
  void w?.terminate().catch(() => {});
}

export type BoundedMatch = 'match' | 'no-match' | 'timeout';

/** Tests `subject` against the pattern on the worker, waiting at most REGEX_MATCH_BUDGET_MS for the match itself. */
export function boundedTest(source: string, flags: string, subject: string, budgetMs = REGEX_MATCH_BUDGET_MS): BoundedMatch {
  const { worker: w, ready } = currentWorker();
  if (Atomics.load(ready, 0) === 0 && Atomics.wait(ready, 0, 0, WORKER_START_BUDGET_MS) === 'timed-out') {
    dropWorker();
    return 'timeout';
  }
  const result = new SharedArrayBuffer(4);
  const word = new Int32Array(result);
  w.postMessage({ source, flags, subject, result });
  if (Atomics.wait(word, 0, 0, budgetMs) === 'timed-out') {
    dropWorker();
    return 'timeout';
  }
  const outcome = Atomics.load(word, 0);
  return outcome === 1 ? 'match' : outcome === 2 ? 'no-match' : 'timeout';
}

/** A compiled user pattern: syntax checked on the main thread (compiling is linear), matching bounded on the worker. */
export class UserPattern {
  constructor(
    readonly source: string,
    readonly flags: string,
  ) {
    // Throws SyntaxError for a bad pattern, before any run starts.
    new RegExp(source, flags);
  }

  /** Whether the pattern matches; a runaway match counts as `onTimeout` (deny rules fail closed). */
  matches(subject: string, onTimeout: boolean): boolean {
    const outcome = boundedTest(this.source, this.flags, subject);
    return outcome === 'timeout' ? onTimeout : outcome === 'match';
  }
}
