/**
 * A private accessibility bus for one test file's Xvfb: a session bus (dbus-launch,
 * bound to that DISPLAY), the AT-SPI bus launcher on it (its bus socket is named after
 * the display: ~/.cache/at-spi/bus_<N>, so parallel files do not meet), and
 * org.a11y.Status.IsEnabled set so toolkits that ask (Chromium, Qt) turn their bridge on.
 *
 * Apps must be started with `env` (DBUS_SESSION_BUS_ADDRESS of this bus): an app on the
 * machine's own session bus registers elsewhere, and a single-instance GApplication
 * (gnome-calculator) would hand its window to an instance on another display and exit.
 * Everything started here is killed by stop(), on exit, and by a watchdog when the test
 * process is SIGKILLed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { requirePrograms } from './requirements.js';
import type { Xvfb } from './xvfb.js';

export interface AccessibilityBus {
  /** xvfb.env plus DBUS_SESSION_BUS_ADDRESS of the private session bus. */
  env: NodeJS.ProcessEnv;
  /** The accessibility bus's own address (org.a11y.Bus.GetAddress). */
  address: string;
  /** The Xvfb with `env` swapped in, for helpers that take one (startProbe, startEditor …). */
  xvfb: Xvfb;
  stop(): Promise<void>;
}

const LAUNCHER = '/usr/libexec/at-spi-bus-launcher';

function dbusSend(env: NodeJS.ProcessEnv, args: string[]): { ok: boolean; out: string } {
  const r = spawnSync('dbus-send', ['--session', '--print-reply', ...args], { env, encoding: 'utf8', timeout: 5_000 });
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
}

export async function startAccessibilityBus(xvfb: Xvfb): Promise<AccessibilityBus> {
  requirePrograms(['dbus-launch', LAUNCHER], xvfb.env);
  const launched = spawnSync('dbus-launch', ['--sh-syntax'], { env: xvfb.env, encoding: 'utf8', timeout: 10_000 });
  const address = /DBUS_SESSION_BUS_ADDRESS='([^']+)'/.exec(launched.stdout)?.[1];
  const daemonPid = Number(/DBUS_SESSION_BUS_PID=(\d+)/.exec(launched.stdout)?.[1]);
  if (launched.status !== 0 || !address || !daemonPid) throw new Error(`dbus-launch failed: ${launched.stderr || launched.stdout}`);
  const env: NodeJS.ProcessEnv = { ...xvfb.env, DBUS_SESSION_BUS_ADDRESS: address };
  delete env.AT_SPI_BUS_ADDRESS;
  delete env.NO_AT_BRIDGE;
  delete env.GTK_A11Y;
  const launcher: ChildProcess = spawn(LAUNCHER, ['--launch-immediately'], { env, stdio: 'ignore' });
  const killAll = () => {
    if (launcher.exitCode === null && launcher.signalCode === null) launcher.kill('SIGKILL');
    try {
      process.kill(daemonPid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killAll);
  const dog = spawn('sh', ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill -9 ${daemonPid} ${launcher.pid ?? ''} 2>/dev/null`], { detached: true, stdio: 'ignore' });
  dog.unref();
  // The launcher registers org.a11y.Bus on the session bus once its own bus runs.
  let a11yAddress = '';
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const r = dbusSend(env, ['--dest=org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus.GetAddress']);
    a11yAddress = /string "([^"]+)"/.exec(r.out)?.[1] ?? '';
    if (r.ok && a11yAddress) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!a11yAddress) {
    killAll();
    throw new Error('the AT-SPI bus launcher did not come up within 15 s');
  }
  const enabled = dbusSend(env, ['--dest=org.a11y.Bus', '/org/a11y/bus', 'org.freedesktop.DBus.Properties.Set', 'string:org.a11y.Status', 'string:IsEnabled', 'variant:boolean:true']);
  if (!enabled.ok) {
    killAll();
    throw new Error(`could not set org.a11y.Status.IsEnabled: ${enabled.out}`);
  }
  let stopped = false;
  return {
    env,
    address: a11yAddress,
    xvfb: { ...xvfb, env },
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', killAll);
      if (launcher.exitCode === null && launcher.signalCode === null) {
        launcher.kill('SIGTERM');
        await Promise.race([new Promise((r) => launcher.once('exit', r)), new Promise((r) => setTimeout(r, 2_000))]);
      }
      killAll();
    },
  };
}
