/**
 * settle.ts proof 5 after a key that starts a GTK app (issue 26, "an input that starts a GTK
 * app"), on a real desktop: Xvfb, openbox with a launcher key (F12 runs mousepad, as a
 * desktop's launcher shortcut does), the accessibility bus. mousepad makes top-level
 * windows it never shows — GTK's client leader, an InputOnly window (10×10 at 10,10) —
 * beside its main window. The old watch kept the leader owed, so settle waited out its
 * 8 s limit (REACTION_LIMITS.echoMs) and ended with a window still owed; now the leader is
 * known InputOnly and settle ends on the main window's first drawing. Asserted on what
 * settle reports (its trace: settled, no window owed, a first drawing seen), never a time.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { watchSettles, type SettleTrace } from '../../src/os-control/settle.js';
import { checked } from '../harness/checked.js';
import { startApp } from '../harness/native-apps.js';
import { launcherKey } from '../harness/launcher-key.js';
import { until } from '../harness/observed-pixels.js';
import { startSettleDesktop, type SettleDesktop } from '../harness/settle-desktop.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const SCREEN = { width: 1024, height: 768 };
const never = new AbortController().signal;
const dir = mkdtempSync(join(tmpdir(), 'deskpilot-settle-launch-'));
const launcher = launcherKey(dir);

let desktop: SettleDesktop;
let computer: DesktopComputer;

beforeAll(async () => {
  desktop = await startSettleDesktop(SCREEN, { openboxConfig: launcher.config });
  computer = desktop.computer;
  // Set once the bus exists: the app joins it, as on a desktop session.
  launcher.set(['mousepad'], { DISPLAY: desktop.xvfb.display, DBUS_SESSION_BUS_ADDRESS: desktop.bus.env.DBUS_SESSION_BUS_ADDRESS!, GSETTINGS_BACKEND: 'memory', LC_ALL: 'C.UTF-8' });
  // A first start off the settle path, so the measured one starts from warm disk caches (a cold start may take longer than settle's 2 s wait for a key's change).
  const warm = await startApp(desktop.xvfb, 'mousepad', [], ['--class', 'mousepad'], { ...desktop.bus.env, GSETTINGS_BACKEND: 'memory', LC_ALL: 'C.UTF-8' });
  await warm.stop();
});
afterAll(async () => {
  await desktop?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The visible mousepad windows now. */
function mousepadWindows(): string[] {
  const r = spawnSync('xdotool', ['search', '--onlyvisible', '--class', 'mousepad'], { env: desktop.xvfb.env, encoding: 'utf8', timeout: 10_000 });
  return r.status === 0 ? r.stdout.trim().split('\n').filter(Boolean) : [];
}

/** Presses the launcher key, settles, ends the mousepad it started; what settle reported and the mousepad windows shown as it ended. */
async function launchAndSettle(): Promise<{ trace: SettleTrace | undefined; shown: string[] }> {
  await until('no mousepad window left', () => (mousepadWindows().length === 0 ? true : undefined));
  let trace: SettleTrace | undefined;
  const unwatch = watchSettles((t) => (trace = t));
  try {
    await computer.perform(checked({ type: 'key', keys: launcher.key }), never);
    await computer.settle();
    return { trace, shown: mousepadWindows() };
  } finally {
    unwatch();
    // The launcher wrote its pid and exec'd mousepad in that process: ours to end.
    const pid = await until('the launched pid', () => launcher.take(), 30_000).catch(() => undefined);
    if (pid) process.kill(pid, 'SIGKILL');
  }
}

/** Launches settle cannot judge here: mousepad had made no window yet when settle's wait for the key's change (waitMs, 2 s) ended. */
const ATTEMPTS = 4;

describe('settle after a key that starts a GTK app (issue 26)', () => {
  it("ends on mousepad's main window drawn, not owing the InputOnly client leader GTK never shows", async () => {
    let late = 0;
    for (;;) {
      const { trace, shown } = await launchAndSettle();
      expect(trace?.reaction?.expectChange).toBe(true);
      // Under load mousepad may start after settle's 2 s wait for a key's change (no window seen
      // at all, before or after this fix): nothing to judge; launched again (at load ~22: 1 in 5).
      if (!trace?.windows?.owed && trace?.windows?.drawnAt === undefined && late++ < ATTEMPTS - 1) continue;
      expect(shown).toHaveLength(1);
      // Settled on a first drawing with nothing owed; the old watch ended with the leader owed.
      expect(trace?.windows).toEqual({ owed: false, drawnAt: expect.any(Number) });
      expect(trace?.verdict).toBe('settled');
      // The drawing it settled on came after the input.
      expect(trace!.windows!.drawnAt!).toBeGreaterThan(trace!.reaction!.since);
      return;
    }
  });
});
