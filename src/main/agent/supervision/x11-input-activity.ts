import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Who is pressing keys and moving the mouse on an X11 desktop, as it happens:
 * `xinput test-xi2 --root` streams the X server's raw input events, each naming the
 * slave device it came from. Everything DeskPilot (nut.js/libnut, xdotool) injects
 * comes from the XTEST devices; a person's keyboard and mouse are other devices.
 *
 * Used by the takeover watch to notice a person typing (the pointer check alone only
 * sees the mouse). Lives here rather than in os-control because it only serves the
 * takeover rule; it is a candidate to move there.
 */

export interface InputActivity {
  kind: 'key' | 'button' | 'motion';
  /** True when the event came from an XTEST device: injected by software (us, or a test's xdotool). */
  synthetic: boolean;
  /** X keycode or button number; 0 for motion. */
  detail: number;
  at: number;
}

export interface InputActivitySource {
  subscribe(listener: (activity: InputActivity) => void): () => void;
  close(): void;
  /**
   * Resolves once every event the X server sent before this call has been handed to the
   * listeners (or the fence was lost: see FENCE_LIMIT_MS). A source without it gives no
   * such promise, and its events are judged by when they arrive.
   */
  fence?(): Promise<void>;
}

/**
 * The longest a fence is waited for before it counts as lost (its event never read: the
 * stream ended, or the server dropped the property change). 40× the longest lag of the
 * stream measured: an XTEST click read 755 ms after xdotool returned, load ~35, a reader
 * niced 10 (40 clicks; median 1 ms).
 */
export const FENCE_LIMIT_MS = 30_000;

const RAW_KINDS: Record<string, InputActivity['kind']> = {
  RawKeyPress: 'key',
  RawButtonPress: 'button',
  RawMotion: 'motion',
};

/** The ids of the XTEST slave devices (what software injects through). */
function xtestDeviceIds(env: NodeJS.ProcessEnv): Set<number> {
  const ids = new Set<number>();
  const r = spawnSync('xinput', ['list', '--short'], { env, encoding: 'utf8', timeout: 3_000 });
  if (r.status !== 0) return ids;
  for (const line of r.stdout.split('\n')) {
    const m = /XTEST\b.*\bid=(\d+)/.exec(line);
    if (m) ids.add(Number(m[1]));
  }
  return ids;
}

/**
 * Starts the stream; undefined when this is not an X11 session or `xinput` is not
 * installed (the takeover watch then relies on the pointer alone).
 */
export function startX11InputActivity(env: NodeJS.ProcessEnv = process.env): InputActivitySource | undefined {
  if (process.platform !== 'linux' || !env.DISPLAY) return undefined;
  const xtest = xtestDeviceIds(env);
  if (xtest.size === 0) return undefined;
  let child: ChildProcess;
  try {
    child = spawn('xinput', ['test-xi2', '--root'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
  child.on('error', () => undefined);
  // A watcher must never keep the process alive or outlive it.
  child.unref();
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const listeners = new Set<(a: InputActivity) => void>();
  const fences = fenceStream(env, Math.min(...xtest));
  let pending: InputActivity['kind'] | undefined;
  const lines = createInterface({ input: child.stdout! });
  let detail = 0;
  let source: number | undefined;
  const flush = () => {
    if (pending && source !== undefined) {
      const activity: InputActivity = { kind: pending, synthetic: xtest.has(source), detail, at: Date.now() };
      for (const l of [...listeners]) l(activity);
    }
    pending = undefined;
    source = undefined;
    detail = 0;
  };
  // The event being read is a device property change (a fence, maybe ours).
  let propertyEvent = false;
  lines.on('line', (line) => {
    const head = /^EVENT type \d+ \((\w+)\)/.exec(line);
    if (head) {
      flush();
      pending = RAW_KINDS[head[1]!];
      propertyEvent = head[1] === 'PropertyEvent';
      return;
    }
    if (propertyEvent) {
      // "     property: 239 'DESKPILOT_FENCE_…'"
      if (/^\s+property: \d+ '([^']*)'/.exec(line)?.[1] === fences.name) fences.seen();
      return;
    }
    if (!pending) return;
    // "    device: 3 (5)": master id, then the slave the event came from.
    const dev = /^\s+device: \d+ \((\d+)\)/.exec(line);
    if (dev) source = Number(dev[1]);
    const det = /^\s+detail: (\d+)/.exec(line);
    if (det) {
      detail = Number(det[1]);
      // Raw events carry no more fields we need; report without waiting for the next header.
      flush();
    }
  });
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    fence: () => fences.next(),
    close() {
      process.removeListener('exit', killOnExit);
      fences.close();
      lines.close();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}

let fenceStreams = 0;

/**
 * Fences in the event stream: a property of the XTEST device changed after our own
 * input reaches `xinput test-xi2` as a PropertyEvent behind every event the server sent
 * before it, so whatever of ours was still in the pipe has been read once it shows up
 * (issue: serve-ux's run paused on its own click, read more than the 1 s echo window
 * after the click returned, as "human takeover: a mouse button was pressed"). The
 * property is this stream's own (pid and a count: another stream's fences are not ours),
 * and is deleted with the stream. Fences resolve in the order they were asked for.
 */
function fenceStream(env: NodeJS.ProcessEnv, device: number): { name: string; next(): Promise<void>; seen(): void; close(): void } {
  const name = `DESKPILOT_FENCE_${process.pid}_${++fenceStreams}`;
  const waiting: Array<() => void> = [];
  let count = 0;
  let closed = false;
  const release = (done: () => void) => {
    const at = waiting.indexOf(done);
    if (at >= 0) waiting.splice(at, 1);
    done();
  };
  return {
    name,
    next() {
      if (closed) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const limit = setTimeout(() => release(done), FENCE_LIMIT_MS);
        limit.unref();
        function done(): void {
          clearTimeout(limit);
          resolve();
        }
        waiting.push(done);
        const set = spawn('xinput', ['set-prop', '--type=int', '--format=32', String(device), name, String(++count)], { env, stdio: 'ignore' });
        set.unref();
        // A change the server refused (or no xinput) never shows up: lost, not waited for.
        set.on('error', () => release(done));
        set.on('exit', (code) => (code === 0 ? undefined : release(done)));
      });
    },
    seen() {
      waiting.shift()?.();
    },
    close() {
      closed = true;
      for (const done of waiting.splice(0)) done();
      if (count === 0) return;
      spawn('xinput', ['delete-prop', String(device), name], { env, stdio: 'ignore' })
        .on('error', () => undefined)
        .unref();
    },
  };
}
