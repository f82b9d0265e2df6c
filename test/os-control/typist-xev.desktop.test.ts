/**
 * The typist's typing call on a real Xvfb (no window manager), into xev: a real Xlib client
 * that translates every key with ITS copy of the keymap and re-reads it after a change, as
 * an application does. What xev translated is the text typed; the server's keymap, its held
 * keys and the typist's report say how. About 10 s for the file (the spare-reuse case waits
 * RESTORE_IDLE_MS, 3 s, once; the idle restore 3 s more): the typist's mutation runs list
 * it first, so most mutants of typeUnlocked, mapAhead and sendRows fail here (issue 27.14).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { X11Connection } from '../../src/os-control/x11/connection.js';
import { restoreLeftovers } from '../../src/os-control/x11/spare-record.js';
import { changeKeyboardMapping, getKeyboardMapping, queryKeymap, type KeyboardMapping } from '../../src/os-control/x11/keyboard.js';
import { RESTORE_IDLE_MS, X11Typist, type X11TypeReport } from '../../src/os-control/x11/typist.js';
import { charForKeysym, keysymForChar } from '../../src/os-control/x11/typing-keysyms.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

let xvfb: Xvfb;
let xev: ChildProcess;
let xevOut = '';
/** The test's own connection: reads the server's keymap and held keys. */
let probe: X11Connection;
let initial: KeyboardMapping;
let typist: X11Typist;
/** xev's window (its id as xdotool prints it). */
let xevWindow = 0;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SHIFT_KEYSYMS = new Set([0xffe1, 0xffe2]);

beforeAll(async () => {
  xvfb = await startXvfb({ width: 640, height: 480, windowManager: false });
  xev = spawn('xev', ['-event', 'keyboard', '-name', 'deskpilot-typist-xev', '-geometry', '640x480+0+0'], { env: xvfb.env, stdio: ['ignore', 'pipe', 'ignore'] });
  xev.stdout!.setEncoding('utf8').on('data', (d: string) => (xevOut += d));
  // --sync: until the window is mapped. Without a window manager the focus is set directly.
  const found = spawnSync('xdotool', ['search', '--sync', '--onlyvisible', '--name', '^deskpilot-typist-xev$'], { env: xvfb.env, encoding: 'utf8', timeout: 20_000 });
  const window = found.stdout.trim().split('\n')[0];
  if (!window) throw new Error(`xev's window did not appear: ${found.stderr}`);
  xevWindow = Number(window);
  probe = await X11Connection.open(xvfb.display);
  await setFocus(xevWindow);
  initial = await getKeyboardMapping(probe);
}, 60_000);

afterAll(async () => {
  await typist?.close();
  probe?.close();
  xev?.kill('SIGKILL');
  await xvfb?.stop();
});

/** SetInputFocus (core request 42), revert-to PointerRoot: a window, 0 (None) or 1 (PointerRoot). */
async function setFocus(window: number): Promise<void> {
  const body = Buffer.alloc(8);
  body.writeUInt32LE(window, 0); // time 0: CurrentTime
  probe.send(42, 1, body);
  await probe.sync();
}

/** The characters xev translated from key presses since `from` (Shift itself is no character; NoSymbol shows as ¤). */
function typedSince(from: number): string[] {
  const out: string[] = [];
  for (const m of xevOut.slice(from).matchAll(/KeyPress event[^\n]*\n[^\n]*\n\s*state 0x[0-9a-f]+, keycode \d+ \(keysym 0x([0-9a-f]+)/g)) {
    const keysym = parseInt(m[1]!, 16);
    if (!SHIFT_KEYSYMS.has(keysym)) out.push(charForKeysym(keysym) ?? '¤');
  }
  return out;
}

/** Every key event xev got since `from`, as '+keysym' (press) or '-keysym' (release) in hex: Shift's own included. */
function keyStreamSince(from: number): string[] {
  return [...xevOut.slice(from).matchAll(/(KeyPress|KeyRelease) event[^\n]*\n[^\n]*\n\s*state 0x[0-9a-f]+, keycode \d+ \(keysym 0x([0-9a-f]+)/g)].map(
    (m) => `${m[1] === 'KeyPress' ? '+' : '-'}${m[2]}`,
  );
}

/** Waits until xev has printed `count` key events since `from` (or 5 s), then returns them. */
async function keyStream(from: number, count: number): Promise<string[]> {
  const deadline = Date.now() + 5_000;
  while (keyStreamSince(from).length < count && Date.now() < deadline) await sleep(20);
  await sleep(100); // a stray extra event (the count is a floor) shows in the comparison
  return keyStreamSince(from);
}

/** Waits until xev has printed `count` character presses since `from` (or 5 s), then returns what it translated. */
async function xevTyped(from: number, count: number): Promise<string> {
  const deadline = Date.now() + 5_000;
  while (typedSince(from).length < count && Date.now() < deadline) await sleep(20);
  return typedSince(from).join('');
}

/**
 * A catch-up's limit in these cases: xev catches up in ~0.3 s (FETCH_QUIET_MS 250 included), so a typing call whose
 * catch-up cannot be seen reports it after 3 s instead of the default 10 s (a mutant fails in seconds, not at the
 * mutation run's limit). The PointerRoot case keeps the default.
 */
const CATCH_UP_MS = 3_000;

/** Types `text` and returns the report and what xev got (the text with CRLF as one Enter). */
async function typed(text: string, options: Parameters<X11Typist['type']>[1] = {}): Promise<{ report: X11TypeReport; got: string }> {
  const from = xevOut.length;
  const report = await typist.type(text, { catchUpTimeoutMs: CATCH_UP_MS, ...options });
  const want = [...text.replace(/\r\n?/g, '\n')].length;
  return { report, got: await xevTyped(from, want) };
}

/** The server's rows that differ from the keymap at the start: keycode → its first two keysyms. */
async function changedRows(): Promise<Map<number, number[]>> {
  const now = await getKeyboardMapping(probe);
  const changed = new Map<number, number[]>();
  now.keysyms.forEach((row, i) => {
    const was = initial.keysyms[i]!;
    if (row.some((s, j) => s !== was[j])) changed.set(now.minKeycode + i, [row[0]!, row[1]!]);
  });
  return changed;
}

/** Polls until the keymap is back as it was (the typist's last requests may still be queued on its own connection). */
async function keymapRestored(ms: number): Promise<Map<number, number[]>> {
  const deadline = Date.now() + ms;
  let changed = await changedRows();
  while (changed.size > 0 && Date.now() < deadline) {
    await sleep(50);
    changed = await changedRows();
  }
  return changed;
}

const records = () => spawnSync('xprop', ['-root'], { env: xvfb.env, encoding: 'utf8' }).stdout.split('\n').filter((l) => l.startsWith('_DESKPILOT_SPARES_'));
const spareKeycodes = () => initial.keysyms.flatMap((row, i) => (row.every((s) => s === 0) ? [initial.minKeycode + i] : []));
const sym = (ch: string) => keysymForChar(ch)!;

// 15 s a case (the slowest takes ~4 s, at load ~20 ~8 s): a mutant that hangs a typing call fails here, not at the
// mutation run's limit of about a minute.
describe('the X11 typist typing into xev', { timeout: 15_000 }, () => {
  // Opened before each case that has none, not once in beforeAll: under stryker a beforeAll's failure failed no test (a
  // mutant that made open() throw survived, 4 of typist.ts lines 238-272's run), and stryker runs only the cases that
  // reach a mutant (by name), so a typist opened in the first case alone was missing in every later case run without it.
  beforeEach(async () => {
    if (!typist?.isOpen) typist = await X11Typist.open(xvfb.display);
  });

  it('opens on a server with XTEST, and finds X-Resource (the focused app\'s other clients are then waited for too)', async () => {
    expect(typist.isOpen).toBe(true);
    // An extension's major opcode is 128 or more; undefined when the typist asked for another name.
    expect((typist as unknown as { xres: number | undefined }).xres).toBeGreaterThanOrEqual(128);
  });

  it('the server has spare keycodes, and nothing is held or remapped before typing', async () => {
    // Xvfb's default keymap: 19 keycodes without a keysym (one becomes the catch-up sentinel).
    expect(spareKeycodes().length).toBeGreaterThanOrEqual(3);
    expect(await changedRows()).toEqual(new Map());
    expect(await queryKeymap(probe)).toEqual([]);
    const layout = await typist.layout();
    expect(layout.spares).toEqual([...spareKeycodes()].reverse());
    expect(layout.shiftKeycode).toBeDefined();
  });

  it('types layout characters as their keys, Shift on the shifted level, and maps nothing', async () => {
    const text = 'Hello, World! 1+2=3 ~_';
    const { report, got } = await typed(text);
    expect(got).toBe(text);
    expect(report).toEqual({ strokes: text.length, remapped: 0, remapRounds: 0, unconfirmed: 0 });
    expect(typist.mappedSpares()).toEqual(new Map());
    expect(await changedRows()).toEqual(new Map());
    expect(await queryKeymap(probe)).toEqual([]);
    expect(records()).toEqual([]);
  });

  it('the app gets exactly the key events of the text: Shift pressed once around shifted keys, released before a spare', async () => {
    await typist.restoreNow();
    const from = xevOut.length;
    await typist.type('aAB bŵ', { catchUpTimeoutMs: CATCH_UP_MS });
    const SHIFT = 'ffe1';
    const key = (keysym: string) => [`+${keysym}`, `-${keysym}`];
    const want = [
      // The catch-up before the first key taps Shift (the app translates a key, so it re-reads the keymap).
      `+${SHIFT}`,
      `-${SHIFT}`,
      ...key('61'),
      `+${SHIFT}`,
      ...key('41'),
      ...key('42'),
      `-${SHIFT}`,
      ...key('20'),
      ...key('62'),
      ...key('1000175'),
    ];
    expect(await keyStream(from, want.length)).toEqual(want);
    // A spare after a shifted key: Shift is released first (both levels hold ŵ, but the app sees no Shift with it).
    const next = xevOut.length;
    await typist.type('Cŵ', { catchUpTimeoutMs: CATCH_UP_MS });
    const after = [`+${SHIFT}`, ...key('43'), `-${SHIFT}`, ...key('1000175')];
    expect(await keyStream(next, after.length)).toEqual(after);
    expect(await queryKeymap(probe)).toEqual([]);
    await typist.restoreNow();
  });

  it('CRLF and CR are one Enter each', async () => {
    const { report, got } = await typed('a\r\nb\rc\n');
    expect(got).toBe('a\nb\nc\n');
    expect(report.strokes).toBe(6);
  });

  it('maps every character outside the layout before the first key, both levels, and types the text exactly', async () => {
    const text = 'Grüße ✓ é, Ünïcödé';
    let atFirstKey: Map<number, number[]> | undefined;
    let xevBefore = -1;
    const { report, got } = await typed(text, {
      beforeKeys: async () => {
        atFirstKey = await changedRows();
        xevBefore = typedSince(0).length;
      },
    });
    expect(got).toBe(text);
    const outside = ['ü', 'ß', '✓', 'é', 'Ü', 'ï', 'ö'];
    expect(report).toEqual({ strokes: [...text].length, remapped: outside.length, remapRounds: 1, unconfirmed: 0 });
    const held = typist.mappedSpares();
    expect([...held.values()].sort((a, b) => a - b)).toEqual(outside.map(sym).sort((a, b) => a - b));
    // The highest spares, in the order the text needs them; the lowest spare is the sentinel, never held.
    const spares = [...spareKeycodes()].reverse();
    expect([...held.entries()].sort((a, b) => b[0] - a[0])).toEqual(outside.map((ch, i) => [spares[i], sym(ch)]));
    // On the server: each held keycode carries its keysym on both levels, nothing else changed (the sentinel is empty again).
    expect(await changedRows()).toEqual(new Map([...held].map(([keycode, keysym]) => [keycode, [keysym, keysym]])));
    // beforeKeys ran once everything was mapped and before any key of the text; the sentinel (the lowest spare) then
    // held VoidSymbol, the change the app had to catch up with.
    const sentinel = Math.min(...spareKeycodes());
    expect(atFirstKey).toEqual(new Map([...[...held].map(([keycode, keysym]): [number, number[]] => [keycode, [keysym, keysym]]), [sentinel, [0xffffff, 0]]]));
    expect(xevBefore).toBe(typedSince(0).length - [...text].length);
    expect(await queryKeymap(probe)).toEqual([]);
    // The record names them for the next typist, should this process be killed.
    expect(records()).toHaveLength(1);
  });

  it('a next call reuses what is still mapped and maps only what is new', async () => {
    // Its own start (stryker may run this case without the one before): ü ß ✓ held.
    await typed('üß✓');
    const before = typist.mappedSpares();
    const { report, got } = await typed('✓ü → ✓');
    expect(got).toBe('✓ü → ✓');
    expect(report).toEqual({ strokes: 6, remapped: 3, remapRounds: 1, unconfirmed: 0 });
    const after = typist.mappedSpares();
    for (const [keycode, keysym] of before) expect(after.get(keycode)).toBe(keysym);
    expect([...after.values()]).toContain(sym('→'));
    expect(after.size).toBe(before.size + 1);
    const again = await typed('ßü');
    expect(again.got).toBe('ßü');
    expect(again.report).toEqual({ strokes: 2, remapped: 2, remapRounds: 0, unconfirmed: 0 });
  });

  it('a held keycode that someone else remapped is not trusted: its character is mapped again', async () => {
    await typed('ü');
    const held = [...typist.mappedSpares()].find(([, keysym]) => keysym === sym('ü'))!;
    changeKeyboardMapping(probe, held[0], initial.perKeycode, [[0x78, 0x58]]); // x X
    await probe.sync();
    const { report, got } = await typed('üx');
    expect(got).toBe('üx');
    expect(report.remapRounds).toBe(1);
    expect(typist.mappedSpares().get(held[0])).toBeUndefined();
    // Give the keycode back as it was (the typist no longer counts it as its own).
    changeKeyboardMapping(probe, held[0], initial.perKeycode, [[]]);
    await probe.sync();
  });

  it('a text with more distinct characters than spares reuses the spares used longest ago, exactly', async () => {
    await typist.restoreNow();
    expect(await changedRows()).toEqual(new Map());
    // 26 Greek letters: more than the 18 spares besides the sentinel.
    const greek = [...'αβγδεζηθικλμνξοπρστυφχψωάέ'];
    const spares = spareKeycodes().length - 1;
    expect(greek.length).toBeGreaterThan(spares);
    // α again, then ο: ο was mapped in round 1 and not freed (only the 9 used longest ago are), so it keeps its keycode.
    const text = `${greek.join('')} ${greek[0]}ο`;
    const { report, got } = await typed(text, { chunk: 5 });
    expect(got).toBe(text);
    expect(report.strokes).toBe(greek.length + 3);
    expect(report.remapped).toBe(greek.length);
    expect(report.unconfirmed).toBe(0);
    // Round 1 maps the first 18; then the 9 used longest ago are freed, and round 2 maps the 8 left and α again.
    expect(report.remapRounds).toBe(2);
    // Exactly these 18, each on one keycode (freeing more than needed would map ο on a second keycode).
    expect([...typist.mappedSpares().values()].sort((a, b) => a - b)).toEqual([...greek.slice(9), greek[0]!].map(sym).sort((a, b) => a - b));
    // Never more held than there are spares, and never the sentinel (the lowest spare).
    const held = typist.mappedSpares();
    expect(held.size).toBe(spares);
    expect([...held.keys()]).not.toContain(Math.min(...spareKeycodes()));
    expect(await queryKeymap(probe)).toEqual([]);
  });

  it('refuses a control character before typing or mapping anything', async () => {
    await typist.restoreNow();
    const from = xevOut.length;
    await expect(typist.type('é\x07a')).rejects.toThrow(/U\+0007 at character 1/);
    expect(await changedRows()).toEqual(new Map());
    expect(typist.mappedSpares()).toEqual(new Map());
    expect(typedSince(from)).toEqual([]);
  });

  it('one typing call at a time', async () => {
    const from = xevOut.length;
    const first = typist.type('abcdef');
    await expect(typist.type('x')).rejects.toThrow(/already running/);
    await first;
    expect(await xevTyped(from, 6)).toBe('abcdef');
    // Once the first call ended, the next one runs.
    const { got } = await typed('ok');
    expect(got).toBe('ok');
  });

  it('a Stop before the first key restores everything at once, releases Shift and clears the record', async () => {
    await typist.restoreNow();
    const stop = new AbortController();
    const from = xevOut.length;
    await expect(typist.type('Ä✓ß', { catchUpTimeoutMs: CATCH_UP_MS, signal: stop.signal, beforeKeys: async () => stop.abort() })).rejects.toThrow(/abort/i);
    expect(typist.mappedSpares()).toEqual(new Map());
    expect(await keymapRestored(5_000)).toEqual(new Map());
    expect(await queryKeymap(probe)).toEqual([]);
    expect(records()).toEqual([]);
    expect(typedSince(from)).toEqual([]);
  });

  it('a Stop while typing ends the call within a chunk (16 strokes), Shift released, the keymap restored', async () => {
    await typist.restoreNow();
    const stop = new AbortController();
    const from = xevOut.length;
    // Stopped when xev has the first character (not the catch-up's Shift); 400 strokes at 5 ms are 2 s of typing left to cut.
    const seen = () => {
      if (typedSince(from).length > 0) stop.abort();
    };
    xev.stdout!.on('data', seen);
    const text = `é${'B'.repeat(400)}`;
    try {
      await expect(typist.type(text, { catchUpTimeoutMs: CATCH_UP_MS, signal: stop.signal, strokeIntervalMs: 5 })).rejects.toThrow(/abort/i);
    } finally {
      xev.stdout!.off('data', seen);
    }
    expect(typist.mappedSpares()).toEqual(new Map());
    expect(await keymapRestored(5_000)).toEqual(new Map());
    expect(await queryKeymap(probe)).toEqual([]);
    expect(records()).toEqual([]);
    // Until xev has printed every key that was sent (no new one for 300 ms), so the next case starts clean.
    let got = typedSince(from);
    for (;;) {
      await sleep(300);
      const now = typedSince(from);
      if (now.length === got.length) break;
      got = now;
    }
    expect(got[0]).toBe('é');
    expect(got.length).toBeLessThan(text.length);
  });

  it('with a single spare keycode left there is no sentinel: the character is typed, its catch-up unconfirmed', async () => {
    await typist.restoreNow();
    const spares = spareKeycodes();
    const keep = Math.max(...spares);
    // Every other spare gets a character (x) from the test, so the typist sees one spare.
    for (const keycode of spares) if (keycode !== keep) changeKeyboardMapping(probe, keycode, initial.perKeycode, [[0x78, 0x58]]);
    await probe.sync();
    try {
      const { report, got } = await typed('é', { catchUpTimeoutMs: 100 });
      expect(got).toBe('é');
      expect(report).toEqual({ strokes: 1, remapped: 1, remapRounds: 1, unconfirmed: 1 });
      expect(typist.mappedSpares()).toEqual(new Map([[keep, sym('é')]]));
    } finally {
      await typist.restoreNow();
      for (const keycode of spares) if (keycode !== keep) changeKeyboardMapping(probe, keycode, initial.perKeycode, [[]]);
      await probe.sync();
    }
    expect(await changedRows()).toEqual(new Map());
  });

  it('without any spare keycode a character outside the layout is refused before any key', async () => {
    const spares = spareKeycodes();
    for (const keycode of spares) changeKeyboardMapping(probe, keycode, initial.perKeycode, [[0x78, 0x58]]);
    await probe.sync();
    const from = xevOut.length;
    try {
      await expect(typist.type('aé')).rejects.toThrow(/no spare keycode/);
      expect(typedSince(from)).toEqual([]);
    } finally {
      for (const keycode of spares) changeKeyboardMapping(probe, keycode, initial.perKeycode, [[]]);
      await probe.sync();
    }
  });

  it('with the focus None the keys go nowhere, and no app is waited for', async () => {
    await typist.restoreNow();
    await setFocus(0);
    const from = xevOut.length;
    try {
      const report = await typist.type('é', { catchUpTimeoutMs: CATCH_UP_MS });
      expect(report).toEqual({ strokes: 1, remapped: 1, remapRounds: 1, unconfirmed: 0 });
    } finally {
      await setFocus(xevWindow);
    }
    expect(typedSince(from)).toEqual([]);
  });

  it('with the focus PointerRoot the app under the pointer is the one waited for', async () => {
    // Xvfb starts the pointer in the middle of the screen, over xev's window (the whole screen).
    await setFocus(1);
    try {
      const { report, got } = await typed('ø', { catchUpTimeoutMs: undefined });
      expect(got).toBe('ø');
      expect(report).toEqual({ strokes: 1, remapped: 1, remapRounds: 1, unconfirmed: 0 });
    } finally {
      await setFocus(xevWindow);
    }
  });

  it('the characters stay mapped after a call, then go back by themselves once idle', async () => {
    await typist.restoreNow();
    const { got } = await typed('✓');
    expect(got).toBe('✓');
    expect((await changedRows()).size).toBe(1);
    // Still mapped shortly after the call (an app may still translate the keys) …
    expect(typist.mappedSpares().size).toBe(1);
    // … and back to NoSymbol after RESTORE_IDLE_MS and the apps' answer, with the record gone.
    expect(await keymapRestored(RESTORE_IDLE_MS + 8_000)).toEqual(new Map());
    expect(typist.mappedSpares()).toEqual(new Map());
    expect(records()).toEqual([]);
  });

  it('an idle restore that cannot get the apps\' answer says why, and restores all the same', async () => {
    await typist.restoreNow();
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // The ping goes over the process's DISPLAY (settle-ping.ts): one with no X server refuses the connection.
    const display = process.env.DISPLAY;
    process.env.DISPLAY = ':9999';
    try {
      const { got } = await typed('✓');
      expect(got).toBe('✓');
      expect(await keymapRestored(RESTORE_IDLE_MS + 8_000)).toEqual(new Map());
      expect(said.mock.calls.map((call) => String(call[0]))).toEqual([expect.stringMatching(/^deskpilot: restoring the typing keycodes without the app's answer: .+/)]);
    } finally {
      said.mockRestore();
      if (display === undefined) delete process.env.DISPLAY;
      else process.env.DISPLAY = display;
    }
    expect(records()).toEqual([]);
  });

  it('without Shift in the modifier map, a shifted character goes on a spare keycode and no Shift is pressed', async () => {
    await typist.restoreNow();
    const xmodmap = (expression: string) => spawnSync('xmodmap', ['-e', expression], { env: xvfb.env, encoding: 'utf8', timeout: 10_000 });
    xmodmap('clear shift');
    try {
      expect((await typist.layout()).shiftKeycode).toBeUndefined();
      const from = xevOut.length;
      // The catch-up cannot make xev translate a key (no Shift to tap): its limit is short here.
      const report = await typist.type('aA', { catchUpTimeoutMs: 500 });
      expect(report).toMatchObject({ strokes: 2, remapped: 1, remapRounds: 1 });
      expect(await keyStream(from, 4)).toEqual(['+61', '-61', '+41', '-41']);
    } finally {
      xmodmap('add shift = Shift_L Shift_R');
    }
    expect((await typist.layout()).shiftKeycode).toBeDefined();
  });

  it('a close whose restore fails says so, and leaves the record for the next typist', async () => {
    await typist.restoreNow();
    const other = await X11Typist.open(xvfb.display);
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { got } = await (async () => {
        const from = xevOut.length;
        await other.type('þ', { catchUpTimeoutMs: CATCH_UP_MS });
        return { got: await xevTyped(from, 1) };
      })();
      expect(got).toBe('þ');
      // Its connection fails under it: the keymap cannot be read or written back.
      (other as unknown as { conn: X11Connection }).conn.close();
      await other.close();
      expect(said.mock.calls).toHaveLength(1);
      expect(String(said.mock.calls[0]![0])).toMatch(/^deskpilot: could not restore the keyboard mapping after typing \(.+\); spare keycodes may still type the last characters$/);
      expect(records()).toHaveLength(1);
    } finally {
      said.mockRestore();
    }
    // This process is alive, so no typist takes the record as a leftover: restored here as if it had died.
    expect(await restoreLeftovers(probe, { alive: () => false })).toHaveLength(1);
    expect(await keymapRestored(5_000)).toEqual(new Map());
    expect(records()).toEqual([]);
  });

  it('with every spare held, a new character frees the spares used longest ago in one round, not an empty round first', async () => {
    await typist.restoreNow();
    const greek = [...'αβγδεζηθικλμνξοπρσ'];
    expect(greek).toHaveLength(spareKeycodes().length - 1);
    const full = await typed(greek.join(''));
    expect(full.got).toBe(greek.join(''));
    expect(typist.mappedSpares().size).toBe(greek.length);
    const { report, got } = await typed('Жα');
    expect(got).toBe('Жα');
    expect(report).toEqual({ strokes: 2, remapped: 2, remapRounds: 1, unconfirmed: 0 });
    expect(typist.mappedSpares().size).toBe(greek.length);
    expect([...typist.mappedSpares().values()]).toContain(sym('Ж'));
    expect([...typist.mappedSpares().values()]).not.toContain(sym('β'));
  });

  it('restoreBeforeExit writes the held keycodes back with the mapping\'s keysyms per keycode', async () => {
    await typist.restoreNow();
    const { got } = await typed('ĳ');
    expect(got).toBe('ĳ');
    typist.restoreBeforeExit();
    expect(typist.mappedSpares()).toEqual(new Map());
    expect(await keymapRestored(5_000)).toEqual(new Map());
    expect(records()).toEqual([]);
  });

  it('close restores what is still mapped once the app caught up, and disconnects', async () => {
    await typist.restoreNow();
    const { got } = await typed('ñ');
    expect(got).toBe('ñ');
    expect((await changedRows()).size).toBe(1);
    await typist.close();
    expect(typist.isOpen).toBe(false);
    expect(await keymapRestored(5_000)).toEqual(new Map());
    expect(records()).toEqual([]);
    typist = await X11Typist.open(xvfb.display);
  });
});
