import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { run } from './exec.js';

/**
 * A person's keys and mouse buttons as the X server sees them, for recording a
 * demonstration (agent/record): `xinput test-xi2 --root` streams raw presses and
 * releases from every device (a person's, and XTEST's — a test's xdotool is the
 * "person" there), and `xmodmap -pke` names each keycode's keysyms. Pointer positions
 * are not in raw events: the caller reads the pointer when a button goes down.
 */

export interface RawInput {
  kind: 'button' | 'key';
  down: boolean;
  /** X button number (1 left, 2 middle, 3 right, 4/5 wheel up/down, 6/7 wheel left/right) or keycode. */
  detail: number;
  at: number;
}

export interface InputRecorder {
  /** The next input, or undefined once stopped. */
  next(): Promise<RawInput | undefined>;
  stop(): void;
}

const RAW: Record<string, { kind: RawInput['kind']; down: boolean }> = {
  RawKeyPress: { kind: 'key', down: true },
  RawKeyRelease: { kind: 'key', down: false },
  RawButtonPress: { kind: 'button', down: true },
  RawButtonRelease: { kind: 'button', down: false },
};

/** Starts the stream; throws when xinput cannot run (no X11 session, not installed). */
export function startInputRecorder(env: NodeJS.ProcessEnv = process.env): InputRecorder {
  if (process.platform !== 'linux' || !env.DISPLAY) throw new Error('recording needs an X11 session (DISPLAY is not set)');
  const child: ChildProcess = spawn('xinput', ['test-xi2', '--root'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const queue: RawInput[] = [];
  let waiter: ((input: RawInput | undefined) => void) | undefined;
  let stopped = false;
  const push = (input: RawInput | undefined) => {
    if (waiter) {
      const w = waiter;
      waiter = undefined;
      w(input);
    } else if (input) queue.push(input);
  };
  const stop = () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    push(undefined);
  };
  child.on('error', stop);
  child.on('exit', stop);
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
      push({ ...pending, detail: Number(detail[1]), at: Date.now() });
      pending = undefined;
    }
  });
  return {
    next: () => (queue.length ? Promise.resolve(queue.shift()) : stopped ? Promise.resolve(undefined) : new Promise((resolve) => (waiter = resolve))),
    stop,
  };
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
