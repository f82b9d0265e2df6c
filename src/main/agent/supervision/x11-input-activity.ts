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
}

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
  lines.on('line', (line) => {
    const head = /^EVENT type \d+ \((\w+)\)/.exec(line);
    if (head) {
      flush();
      pending = RAW_KINDS[head[1]!];
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
    close() {
      process.removeListener('exit', killOnExit);
      lines.close();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}
