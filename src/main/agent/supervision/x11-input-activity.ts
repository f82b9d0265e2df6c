import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { deleteDeviceProperties, setDeviceIntProperty } from '../../../os-control/x11/device-property.js';
import { xtestDeviceIds as askXtestDeviceIds } from '../../../os-control/x11/input-devices.js';
import { x11Session } from '../../../os-control/x11/session.js';
import { createFences, type Fences } from './input-fence.js';

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
   * listeners (or the fence was lost: see input-fence.ts). A source without it gives no
   * such promise, and its events are judged by when they arrive.
   */
  fence?(): Promise<void>;
}

const RAW_KINDS: Record<string, InputActivity['kind']> = {
  RawKeyPress: 'key',
  RawButtonPress: 'button',
  RawMotion: 'motion',
};

/**
 * The ids of the XTEST slave devices (what software injects through): one XIQueryDevice on
 * the process's held X connection (x11/input-devices.ts). It was a synchronous `xinput
 * list --short` per run start, 70–100 ms with the event loop held (issue 29 item 5); that
 * program, run without holding the loop, stays the answer where the connection fails.
 */
async function xtestDeviceIds(env: NodeJS.ProcessEnv): Promise<Set<number>> {
  try {
    return await askXtestDeviceIds(x11Session(env.DISPLAY, env.XAUTHORITY));
  } catch {
    return xtestDeviceIdsOfXinput(env);
  }
}

function xtestDeviceIdsOfXinput(env: NodeJS.ProcessEnv): Promise<Set<number>> {
  return new Promise((resolve) => {
    execFile('xinput', ['list', '--short'], { env, encoding: 'utf8', timeout: 3_000 }, (error, stdout) => {
      const ids = new Set<number>();
      if (!error) {
        for (const line of stdout.split('\n')) {
          const m = /XTEST\b.*\bid=(\d+)/.exec(line);
          if (m) ids.add(Number(m[1]));
        }
      }
      resolve(ids);
    });
  });
}

/**
 * Starts the stream; undefined when this is not an X11 session or `xinput` is not
 * installed (the takeover watch then relies on the pointer alone).
 */
export async function startX11InputActivity(env: NodeJS.ProcessEnv = process.env): Promise<InputActivitySource | undefined> {
  if (process.platform !== 'linux' || !env.DISPLAY) return undefined;
  const xtest = await xtestDeviceIds(env);
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
      const property = /^\s+property: \d+ '([^']*)'/.exec(line)?.[1];
      const slot = property === undefined ? undefined : fences.slotOf(property);
      if (slot !== undefined) fences.seen(slot);
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
 * The fences of one stream (input-fence.ts) as properties of the XTEST device, changed
 * with one XIChangeProperty each on the process's held X connection (x11/session.ts):
 * the change reaches `xinput test-xi2` as a PropertyEvent behind every event the server
 * sent before it (issue: serve-ux's run paused on its own click, read more than the 1 s
 * echo window after the click returned, as "human takeover: a mouse button was pressed").
 * It used to be an `xinput set-prop` process per agent action: ~385 ms of fork on the
 * main thread at load ~62 (issue 29's profile). The names are this stream's own (pid, a
 * count, the slot: another stream's fences are not ours) and are deleted with the stream.
 */
function fenceStream(env: NodeJS.ProcessEnv, device: number): Fences & { slotOf(property: string): number | undefined } {
  const prefix = `DESKPILOT_FENCE_${process.pid}_${++fenceStreams}_`;
  const session = x11Session(env.DISPLAY, env.XAUTHORITY);
  // One change at a time, in fence order: the matching in input-fence.ts relies on the server applying them in that order.
  let queue: Promise<unknown> = Promise.resolve();
  const inOrder = <T>(work: () => Promise<T>): Promise<T> => {
    const done = queue.then(work);
    queue = done.catch(() => undefined);
    return done;
  };
  const fences = createFences({
    set: (slot, value) => inOrder(() => setDeviceIntProperty(session, device, prefix + slot, value)),
    remove: (slots) => {
      // Cleanup at close: a display already gone has nothing left to delete.
      void inOrder(() => deleteDeviceProperties(session, device, slots.map((slot) => prefix + slot))).catch(() => undefined);
    },
  });
  return {
    ...fences,
    slotOf(property) {
      const slot = property.startsWith(prefix) ? property.slice(prefix.length) : '';
      return /^\d+$/.test(slot) ? Number(slot) : undefined;
    },
  };
}
