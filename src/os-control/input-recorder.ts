import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Point } from '../shared/actions.js';
import { run } from './exec.js';
import { DeviceEventRecord } from './x11/device-event-record.js';

/**
 * A person's keys and mouse buttons as the X server sees them, for recording a
 * demonstration (agent/record). First choice: a RECORD context for device events
 * (x11/device-event-record.ts), which carries the pointer's root position at each press
 * — a person's device and XTEST's alike (a test's xdotool is the "person" there).
 * Fallback, when the server has no RECORD extension: `xinput test-xi2 --root`, whose raw
 * events have no position, so the caller reads the pointer when a button goes down (a
 * pointer that moved on by then is recorded in the wrong place). `xmodmap -pke` names
 * each keycode's keysyms.
 */

export interface RawInput {
  kind: 'button' | 'key';
  down: boolean;
  /** X button number (1 left, 2 middle, 3 right, 4/5 wheel up/down, 6/7 wheel left/right) or keycode. */
  detail: number;
  at: number;
  /** The pointer (root coordinates) when the server processed the input; absent from the xinput fallback. */
  point?: Point;
}

export interface InputRecorder {
  /** The next input, or undefined once stopped. */
  next(): Promise<RawInput | undefined>;
  stop(): void;
}

/** The queue a source pushes into; after stop() next() answers undefined. */
function inputQueue(onStop: () => void): InputRecorder & { push(input: RawInput): void } {
  const queue: RawInput[] = [];
  let waiter: ((input: RawInput | undefined) => void) | undefined;
  let stopped = false;
  const deliver = (input: RawInput | undefined) => {
    if (waiter) {
      const w = waiter;
      waiter = undefined;
      w(input);
    } else if (input) queue.push(input);
  };
  return {
    push: (input) => {
      if (!stopped) deliver(input);
    },
    next: () => (queue.length ? Promise.resolve(queue.shift()) : stopped ? Promise.resolve(undefined) : new Promise((resolve) => (waiter = resolve))),
    stop: () => {
      if (stopped) return;
      stopped = true;
      onStop();
      deliver(undefined);
    },
  };
}

/**
 * Starts the stream: the RECORD one, or xinput when the server has no RECORD extension
 * (`onFallback` is told why). Throws when neither can run (no X11 session, xinput not installed).
 */
export async function startInputRecorder(env: NodeJS.ProcessEnv = process.env, onFallback?: (reason: string) => void): Promise<InputRecorder> {
  if (process.platform !== 'linux' || !env.DISPLAY) throw new Error('recording needs an X11 session (DISPLAY is not set)');
  let record: DeviceEventRecord | undefined;
  const recorder = inputQueue(() => record?.close());
  try {
    record = await DeviceEventRecord.start(
      (event) => recorder.push({ kind: event.kind, down: event.down, detail: event.detail, at: Date.now(), point: { x: event.x, y: event.y } }),
      env.DISPLAY,
      () => recorder.stop(),
    );
    // Its sockets keep the process alive until stop(), as xinput's child did: `deskpilot record` waits on nothing else.
    return recorder;
  } catch (err) {
    onFallback?.(err instanceof Error ? err.message : String(err));
  }
  return startXinputRecorder(env);
}

const RAW: Record<string, { kind: RawInput['kind']; down: boolean }> = {
  RawKeyPress: { kind: 'key', down: true },
  RawKeyRelease: { kind: 'key', down: false },
  RawButtonPress: { kind: 'button', down: true },
  RawButtonRelease: { kind: 'button', down: false },
};

/** The fallback stream: raw presses and releases from `xinput test-xi2 --root`, without positions. */
export function startXinputRecorder(env: NodeJS.ProcessEnv = process.env): InputRecorder {
  const child: ChildProcess = spawn('xinput', ['test-xi2', '--root'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const recorder = inputQueue(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  child.on('error', recorder.stop);
  child.on('exit', recorder.stop);
  process.once('exit', () => child.kill('SIGKILL'));
  let pending: { kind: RawInput['kind']; down: boolean } | undefined;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const head = /^EVENT type \d+ \((\w+)\)/.exec(line);
    if (head) {
      pending = RAW[head[1]!];
      return;
    }
    const detail = pending ? /^\s+detail: (\d+)/.exec(line) : null;
    if (pending && detail) {
      recorder.push({ ...pending, detail: Number(detail[1]), at: Date.now() });
      pending = undefined;
    }
  });
  return { next: recorder.next, stop: recorder.stop };
}

/** Keycode → its keysyms by level (plain, with Shift), from `xmodmap -pke`. */
export type KeysymTable = Map<number, [string, string | undefined]>;

export function parseKeysymTable(text: string): KeysymTable {
  const table: KeysymTable = new Map();
  for (const line of text.split('\n')) {
    const m = /^keycode\s+(\d+)\s*=\s*(\S+)(?:\s+(\S+))?/.exec(line);
    if (m && m[2] !== 'NoSymbol') table.set(Number(m[1]), [m[2]!, m[3] && m[3] !== 'NoSymbol' ? m[3] : undefined]);
  }
  return table;
}

export async function readKeysymTable(): Promise<KeysymTable> {
  const { stdout } = await run('xmodmap', ['-pke'], { timeoutMs: 5_000 });
  return parseKeysymTable(stdout);
}
