/**
 * The typist's idle restore waits for the app the keys went to (x11/typist.ts
 * appsAnswered): a spare keycode goes back to NoSymbol only once that app has answered a
 * round trip queued after the keys. Found at load ~30 with two busy loops: Chromium had
 * not dispatched the keys 3 s after they went out, the restore came first, and the field
 * held "Replay  Gre 7" for "Replay ✓ Grüße 7". Here mousepad (GTK: it fetches the keymap
 * when it next translates a key) is stopped while ✓ is typed and past the idle time,
 * then continued: the ✓ must be in its text. On the old typist the keymap was restored
 * while mousepad was stopped and the ✓ was lost.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESTORE_IDLE_MS, X11Typist } from '../../src/os-control/x11/typist.js';
import { keymapText, startApp, type NativeApp } from '../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

let xvfb: Xvfb;
let app: NativeApp;
beforeAll(async () => {
  xvfb = await startXvfb({ width: 800, height: 600 });
  // The ping goes over the process's display (settle-ping.ts reads DISPLAY).
  process.env.DISPLAY = xvfb.display;
  app = await startApp(xvfb, 'mousepad', [], ['--class', 'mousepad'], { GSETTINGS_BACKEND: 'memory', NO_AT_BRIDGE: '1', LC_ALL: 'C.UTF-8' });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await xvfb?.stop();
});

async function until<T>(what: string, check: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = check();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const xdotool = (...args: string[]) => spawnSync('xdotool', args, { env: xvfb.env, encoding: 'utf8', timeout: 10_000 });
const clipboard = () => spawnSync('xclip', ['-o', '-selection', 'clipboard'], { env: xvfb.env, encoding: 'utf8', timeout: 10_000 }).stdout;

describe('the idle restore of spare keycodes', () => {
  it('waits until the app the keys went to has answered: a ✓ typed into a stopped mousepad is in its text once it runs again', async () => {
    xdotool('windowactivate', '--sync', app.windowId);
    await until('mousepad focused', () => (xdotool('getwindowfocus').stdout.trim() === app.windowId ? true : undefined));
    const typist = await X11Typist.open(xvfb.display);
    process.kill(app.pid, 'SIGSTOP');
    let stopped = true;
    try {
      // A stopped app fetches no keymap: the typist types once its catch-up wait ends.
      await typist.type('✓', { catchUpTimeoutMs: 500 });
      const typedAt = Date.now();
      expect(keymapText(xvfb)).toContain('U2713');
      // The old typist restored RESTORE_IDLE_MS after the keys: wait for that, or twice the idle time.
      const restoredWhileStopped = await until('the idle time passed', () =>
        !keymapText(xvfb).includes('U2713') ? true : Date.now() - typedAt > 2 * RESTORE_IDLE_MS ? false : undefined,
      );
      expect(restoredWhileStopped).toBe(false);
      process.kill(app.pid, 'SIGCONT');
      stopped = false;
      // Restored once mousepad answered (it has then translated the ✓).
      await until('the keymap restored after the answer', () => (!keymapText(xvfb).includes('U2713') ? true : undefined));
      xdotool('key', '--clearmodifiers', 'ctrl+a');
      xdotool('key', '--clearmodifiers', 'ctrl+c');
      const text = await until('the text on the clipboard', () => (clipboard() !== '' ? clipboard() : undefined), 20_000);
      expect(text).toBe('✓');
    } finally {
      if (stopped) process.kill(app.pid, 'SIGCONT');
      await typist.close();
    }
  }, 120_000);
});
