/**
 * The typist's proofs that the app caught up (x11/typist.ts applicationCaughtUp and close's
 * waitBeforeRestore), on a real Xvfb with a stand-in app (fixtures/keymap-reader-app.ts)
 * that reads the keymap the ways real clients do and can be held like a busy one.
 *
 * xev (typist-xev.desktop) cannot show close's wait: it translates queued keys with the
 * keymap it fetched at the typing call's catch-up, so restoring early loses nothing there.
 * An app that reads the keymap when it translates each key (xterm's Xlib) and is behind
 * when the typist closes (a `deskpilot run` whose last action was a type) loses every
 * character still queued if the restore comes first: Chromium under load, "héllo wrld"
 * in 5 of 30 runs before close waited (typist.ts close()).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { X11Connection } from '../../src/os-control/x11/connection.js';
import { changeKeyboardMapping, getKeyboardMapping, type KeyboardMapping } from '../../src/os-control/x11/keyboard.js';
import { pingInputTargets } from '../../src/os-control/settle-ping.js';
import { charForKeysym, keysymForChar } from '../../src/os-control/x11/typing-keysyms.js';
import { X11Typist } from '../../src/os-control/x11/typist.js';
import { until } from '../harness/observed-pixels.js';
import { hideExtension } from '../harness/x11-hide-extension.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

const fixture = fileURLToPath(new URL('./fixtures/keymap-reader-app.ts', import.meta.url));
const SHIFT_KEYSYMS = new Set([0xffe1, 0xffe2]);
/** A catch-up the app can show takes well under a second here; one it cannot is reported after this. */
const CATCH_UP_MS = 3_000;

let xvfb: Xvfb;
/** The test's own connection: focus, and the server's keymap. */
let probe: X11Connection;
let initial: KeyboardMapping;
const apps: ReaderApp[] = [];

type Line = { kind: 'ready'; window: number } | { kind: 'key'; keycode: number; keysym: number } | { kind: 'held' } | { kind: 'drained' } | { kind: 'queued'; event: number };
/** The core event code of a ClientMessage (a _NET_WM_PING reaches the app as one). */
const CLIENT_MESSAGE = 33;
const MAPPING_NOTIFY = 34;
const KEY_PRESS = 2;
/** U+E000 as a keysym: what the test puts on spare keycodes it wants taken. */
const PRIVATE_USE = 0x0100e000;

/** One running keymap-reader-app and everything it said. */
class ReaderApp {
  readonly lines: Line[] = [];
  private readonly waiters = new Set<() => void>();
  private constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      this.lines.push(JSON.parse(line) as Line);
      for (const w of [...this.waiters]) w();
    });
    child.on('exit', () => {
      for (const w of [...this.waiters]) w();
    });
  }

  /** `x`: its window's left edge (200×100 at the top of the screen). */
  static async start(mode: 'per-key' | 'lazy', connections: 'one' | 'two' = 'one', x = 0): Promise<ReaderApp> {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, mode, connections, String(x)], { env: xvfb.env, stdio: ['pipe', 'pipe', 'inherit'] });
    const app = new ReaderApp(child);
    apps.push(app);
    await app.next('ready', 0);
    return app;
  }

  get window(): number {
    const ready = this.lines.find((l) => l.kind === 'ready');
    return ready?.kind === 'ready' ? ready.window : 0;
  }

  /** Resolves with the index of the first line of `kind` at or after `from`. */
  next(kind: Line['kind'], from: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const at = this.lines.findIndex((l, i) => i >= from && l.kind === kind);
        if (at >= 0) {
          this.waiters.delete(check);
          resolve(at);
        } else if (this.child.exitCode !== null || this.child.signalCode !== null) {
          this.waiters.delete(check);
          reject(new Error(`the keymap reader exited before saying ${kind}`));
        }
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Resolves once an event with code `event` has queued up in the held app since line `from`. */
  async queued(event: number, from: number): Promise<void> {
    for (let at = from; ; at++) {
      at = await this.next('queued', at);
      const line = this.lines[at];
      if (line?.kind === 'queued' && line.event === event) return;
    }
  }

  /**
   * The codes of the events queued in the held app from line `from` up to a marker the test
   * sends now (a ClientMessage through the server, so every request the server handled
   * before it reached the app first).
   */
  async queuedUpToMarker(from: number): Promise<number[]> {
    const message = Buffer.alloc(32);
    message[0] = CLIENT_MESSAGE;
    message[1] = 32;
    message.writeUInt32LE(this.window, 4);
    // SendEvent (25): propagate false, the app's window, event mask 0 (its owner gets it).
    probe.send(25, 0, Buffer.concat([Buffer.from(new Uint32Array([this.window, 0]).buffer), message]));
    await probe.sync();
    const codes: number[] = [];
    for (let at = from; ; at++) {
      at = await this.next('queued', at);
      const line = this.lines[at]!;
      if (line.kind !== 'queued') continue;
      if (line.event === CLIENT_MESSAGE) return codes;
      codes.push(line.event);
    }
  }

  /** Holds the app (its events queue up) until go(). */
  async hold(): Promise<void> {
    const from = this.lines.length;
    this.child.stdin!.write('hold\n');
    await this.next('held', from);
  }

  /** Lets the app handle what queued, and waits until it has. */
  async go(): Promise<void> {
    const from = this.lines.length;
    this.child.stdin!.write('go\n');
    await this.next('drained', from);
  }

  /** Waits until it has translated `count` characters since line `from`, then returns them all. */
  async typed(from: number, count: number): Promise<string> {
    while ([...this.typedSince(from)].length < count) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          this.waiters.delete(wake);
          if (this.child.exitCode !== null || this.child.signalCode !== null) reject(new Error('the keymap reader exited'));
          else resolve();
        };
        this.waiters.add(wake);
      });
    }
    return this.typedSince(from);
  }

  /** The characters it translated since line `from` (Shift is no character; a keycode with no symbol shows as ¤). */
  typedSince(from: number): string {
    return this.lines
      .slice(from)
      .flatMap((l) => (l.kind === 'key' && !SHIFT_KEYSYMS.has(l.keysym) ? [l.keysym === 0 ? '¤' : (charForKeysym(l.keysym) ?? '?')] : []))
      .join('');
  }
}

beforeAll(async () => {
  xvfb = await startXvfb({ width: 640, height: 480, windowManager: false });
  process.env.DISPLAY = xvfb.display;
  probe = await X11Connection.open(xvfb.display);
  initial = await getKeyboardMapping(probe);
}, 60_000);

/** Spare keycodes a case took (gave a keysym), given back after it even when it failed. */
let taken: number[] = [];
async function giveBackTaken(): Promise<void> {
  for (const keycode of taken.splice(0)) changeKeyboardMapping(probe, keycode, initial.perKeycode, [[]]);
  await probe.sync();
}

afterEach(async () => {
  for (const app of apps.splice(0)) app.child.kill('SIGKILL');
  await giveBackTaken();
});

afterAll(async () => {
  probe?.close();
  await xvfb?.stop();
});

/** SetInputFocus (core request 42), revert-to PointerRoot: a window, or 1 (PointerRoot: keys go under the pointer). */
async function setFocus(window: number): Promise<void> {
  const body = Buffer.alloc(8);
  body.writeUInt32LE(window, 0);
  probe.send(42, 1, body);
  await probe.sync();
}

const pointerTo = (x: number, y: number) => spawnSync('xdotool', ['mousemove', String(x), String(y)], { env: xvfb.env, timeout: 10_000 });

/** The keycodes whose row differs from the keymap at the start. */
async function changedKeycodes(): Promise<number[]> {
  const now = await getKeyboardMapping(probe);
  return now.keysyms.flatMap((row, i) => (row.some((s, j) => s !== initial.keysyms[i]![j]) ? [now.minKeycode + i] : []));
}

const TEXT = 'héllo wörld ✓ → Grüße 7';

describe('close() restores the spare keycodes only once the app caught up', { timeout: 30_000 }, () => {
  it('an app that reads the keymap at every key and is behind when the typist closes still gets every character', async () => {
    const app = await ReaderApp.start('per-key');
    await setFocus(app.window);
    const typist = await X11Typist.open(xvfb.display);
    const from = app.lines.length;
    // The app is busy from the first key on: everything typed queues up, unread, as the typing call ends.
    const report = await typist.type(TEXT, { catchUpTimeoutMs: CATCH_UP_MS, beforeKeys: () => app.hold() });
    expect(report.unconfirmed).toBe(0);
    expect(app.typedSince(from)).toBe('');
    // The person's `deskpilot run` ends here: the typist closes while the app has not translated a key.
    const closing = typist.close();
    await app.go();
    await closing;
    expect(app.typedSince(from)).toBe(TEXT);
    // …and nothing is left behind: the keymap is the person's again, the typist disconnected.
    expect(await changedKeycodes()).toEqual([]);
    expect(typist.isOpen).toBe(false);
  });
});

describe('where the proof cannot be had', { timeout: 30_000 }, () => {
  it('one spare keycode (no sentinel to spare): a short fixed pause, reported unconfirmed — not the whole catch-up limit', async () => {
    const app = await ReaderApp.start('lazy');
    await setFocus(app.window);
    // Every spare keycode but the highest gets a private-use character: one spare is left.
    const spares = initial.keysyms.flatMap((row, i) => (row.every((k) => k === 0) ? [initial.minKeycode + i] : []));
    taken = spares.slice(0, -1);
    for (const keycode of taken) changeKeyboardMapping(probe, keycode, initial.perKeycode, [[PRIVATE_USE, PRIVATE_USE]]);
    await probe.sync();
    const typist = await X11Typist.open(xvfb.display);
    try {
      const from = app.lines.length;
      // A limit past this case's own: waiting for a proof that cannot come would fail the case.
      const report = await typist.type('ü', { catchUpTimeoutMs: 60_000 });
      expect(report.unconfirmed).toBe(1);
      expect(await app.typed(from, 1)).toBe('ü');
    } finally {
      await typist.close();
    }
    await giveBackTaken();
    expect(await changedKeycodes()).toEqual([]);
  });

  it('a server without X-Resource: the focused window\'s own connection gives the proof', async () => {
    const app = await ReaderApp.start('lazy');
    await setFocus(app.window);
    const hidden = await hideExtension(xvfb.display, 'X-Resource');
    const typist = await X11Typist.open(hidden.display);
    try {
      const from = app.lines.length;
      const report = await typist.type(TEXT, { catchUpTimeoutMs: CATCH_UP_MS });
      expect(report.unconfirmed).toBe(0);
      expect(await app.typed(from, [...TEXT].length)).toBe(TEXT);
    } finally {
      await typist.close();
      await hidden.close();
    }
  });
});

describe('close() asks the app nothing when there is nothing to wait for', { timeout: 30_000 }, () => {
  it('after typing only layout keys: no keycode held, so no sentinel, no Shift tap', async () => {
    const app = await ReaderApp.start('lazy');
    await setFocus(app.window);
    const typist = await X11Typist.open(xvfb.display);
    const from = app.lines.length;
    await typist.type('abc', { catchUpTimeoutMs: CATCH_UP_MS });
    expect(await app.typed(from, 3)).toBe('abc');
    const held = app.lines.length;
    await app.hold();
    await typist.close();
    expect(await app.queuedUpToMarker(held)).toEqual([]);
  });

  it('past the idle time after the last key: the keymap goes back at once, with no proof asked for', async () => {
    const app = await ReaderApp.start('lazy');
    await setFocus(app.window);
    const typist = await X11Typist.open(xvfb.display);
    const from = app.lines.length;
    await typist.type('ü', { catchUpTimeoutMs: CATCH_UP_MS });
    expect(await app.typed(from, 1)).toBe('ü');
    // Held, the app does not answer the idle restore's ping: ü stays mapped past RESTORE_IDLE_MS.
    const held = app.lines.length;
    await app.hold();
    await app.queued(CLIENT_MESSAGE, held);
    const afterPing = app.lines.length;
    await typist.close();
    // One MappingNotify: the restore's. No sentinel change, no Shift tap.
    expect(await app.queuedUpToMarker(afterPing)).toEqual([MAPPING_NOTIFY]);
    expect(await changedKeycodes()).toEqual([]);
  });
});

describe('the catch-up proof comes from the app that translates the keys', { timeout: 30_000 }, () => {
  it("a second connection of the focused window's process counts (Chromium's input method keeps its keymap there)", async () => {
    const app = await ReaderApp.start('lazy', 'two');
    await setFocus(app.window);
    const typist = await X11Typist.open(xvfb.display);
    try {
      const from = app.lines.length;
      const report = await typist.type(TEXT, { catchUpTimeoutMs: CATCH_UP_MS });
      // Seen: the proof came from the fetching connection, not after the limit.
      expect(report.unconfirmed).toBe(0);
      expect(await app.typed(from, [...TEXT].length)).toBe(TEXT);
    } finally {
      await typist.close();
    }
  });

  it('an app that does not handle its events within the limit is reported unconfirmed (the text may be inexact)', async () => {
    const app = await ReaderApp.start('lazy');
    await setFocus(app.window);
    await app.hold();
    const typist = await X11Typist.open(xvfb.display);
    try {
      const from = app.lines.length;
      const report = await typist.type('ü', { catchUpTimeoutMs: 500 });
      expect(report.unconfirmed).toBe(1);
      await app.go();
      // A lazy reader fetches at its first key: ü was still mapped (the idle restore waits 3 s).
      expect(app.typedSince(from)).toBe('ü');
    } finally {
      await typist.close();
    }
  });

  it('with the focus on a window, the proof comes from its app, not from the app under the pointer', async () => {
    const app = await ReaderApp.start('lazy');
    // Another app, busy, under the pointer: it would never show a catch-up.
    const other = await ReaderApp.start('lazy', 'one', 300);
    await other.hold();
    await setFocus(app.window);
    pointerTo(400, 50);
    const typist = await X11Typist.open(xvfb.display);
    try {
      const report = await typist.type('ñ', { catchUpTimeoutMs: CATCH_UP_MS });
      expect(report.unconfirmed).toBe(0);
    } finally {
      await typist.close();
    }
  });

  it('with the focus PointerRoot, the proof comes from the app under the pointer', async () => {
    const app = await ReaderApp.start('lazy');
    await setFocus(1);
    pointerTo(100, 50);
    const typist = await X11Typist.open(xvfb.display);
    try {
      const from = app.lines.length;
      const report = await typist.type('ç', { catchUpTimeoutMs: CATCH_UP_MS });
      expect(report.unconfirmed).toBe(0);
      expect(await app.typed(from, 1)).toBe('ç');
    } finally {
      await typist.close();
    }
  });
});

describe("the idle restore gives way to a later typing call (typist.ts scheduleRestore)", { timeout: 30_000 }, () => {
  /** Types ü into a live app, then holds it: the idle restore's ping (RESTORE_IDLE_MS later) waits in its queue, unanswered. */
  async function restoreWaitingForTheApp(): Promise<{ app: ReaderApp; typist: X11Typist; keycode: number }> {
    const app = await ReaderApp.start('lazy');
    await setFocus(app.window);
    const typist = await X11Typist.open(xvfb.display);
    const from = app.lines.length;
    await typist.type('ü', { catchUpTimeoutMs: CATCH_UP_MS });
    expect(await app.typed(from, 1)).toBe('ü');
    const held = app.lines.length;
    await app.hold();
    await app.queued(CLIENT_MESSAGE, held);
    const [keycode] = [...typist.mappedSpares().keys()];
    return { app, typist, keycode: keycode! };
  }

  it('a call running when the app answers keeps its keycodes: the restore waits for the next idle time', async () => {
    const { app, typist, keycode } = await restoreWaitingForTheApp();
    try {
      const from = app.lines.length;
      // The app answers the ping while this call runs (before its first key).
      await typist.type('ü', { catchUpTimeoutMs: CATCH_UP_MS, beforeKeys: () => app.go() });
      expect(await app.typed(from, 1)).toBe('ü');
      expect(typist.mappedSpares()).toEqual(new Map([[keycode, keysymForChar('ü')]]));
      expect(await changedKeycodes()).toEqual([keycode]);
    } finally {
      await typist.close();
    }
  });

  it('where the apps cannot be asked (no X connection for the ping), the idle restore goes ahead and says why', async () => {
    const app = await ReaderApp.start('lazy');
    await setFocus(app.window);
    const typist = await X11Typist.open(xvfb.display);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // settle-ping.ts pings over the process's DISPLAY: one with no server behind it.
    process.env.DISPLAY = ':4242';
    try {
      const from = app.lines.length;
      await typist.type('ü', { catchUpTimeoutMs: CATCH_UP_MS });
      expect(await app.typed(from, 1)).toBe('ü');
      // The keymap goes back (the typist's restore reaches the server).
      await until('the idle restore', async () => ((await changedKeycodes()).length === 0 ? true : undefined), 20_000);
      expect(typist.mappedSpares()).toEqual(new Map());
      expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/^deskpilot: restoring the typing keycodes without the app's answer: .+/)]);
    } finally {
      process.env.DISPLAY = xvfb.display;
      errors.mockRestore();
      await typist.close();
    }
  });

  it('a call that ended before the app answers keeps its keycodes: its own idle restore replaces the waiting one', async () => {
    const { app, typist, keycode } = await restoreWaitingForTheApp();
    try {
      const from = app.lines.length;
      await typist.type('ü', { catchUpTimeoutMs: CATCH_UP_MS });
      await app.go();
      // A ping of ours, answered after the waiting one (the app answers in order): that one's answer has been handled.
      await pingInputTargets();
      await new Promise((resolve) => setImmediate(resolve));
      expect(await app.typed(from, 1)).toBe('ü');
      expect(typist.mappedSpares()).toEqual(new Map([[keycode, keysymForChar('ü')]]));
      expect(await changedKeycodes()).toEqual([keycode]);
    } finally {
      await typist.close();
    }
  });
});

describe('the pace: keys go out `chunk` at a time, each chunk at its time, and a Stop in between ends the call', { timeout: 30_000 }, () => {
  it('a Stop during the wait before the next chunk: the app has the first chunk and nothing after it', async () => {
    const app = await ReaderApp.start('lazy');
    await setFocus(app.window);
    const typist = await X11Typist.open(xvfb.display);
    try {
      const from = app.lines.length;
      const stop = new AbortController();
      // A minute a stroke: after its first two keys the call waits ~2 min for their time (past this case's limit).
      const typing = typist.type('abcdefgh', { strokeIntervalMs: 60_000, chunk: 2, signal: stop.signal });
      expect(await app.typed(from, 2)).toBe('ab');
      const held = app.lines.length;
      await app.hold();
      stop.abort(new Error('stopped by the person'));
      await expect(typing).rejects.toThrow('stopped by the person');
      // Nothing after the first chunk: neither translated before the hold nor queued since.
      expect(app.typedSince(from)).toBe('ab');
      expect(await app.queuedUpToMarker(held)).not.toContain(KEY_PRESS);
    } finally {
      await typist.close();
    }
  });
});
