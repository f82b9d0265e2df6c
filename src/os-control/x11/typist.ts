/**
 * Exact typing on X11: every character is a key event, sent in order on one X connection
 * through XTEST — no clipboard, so nothing is asynchronous to the key stream.
 *
 * - A character on the CURRENT layout (read from the server at the start of every call,
 *   so `setxkbmap de` / `fr` moving y/z, a/q or the digits is seen) is its keycode, with
 *   Shift when it sits on the shifted level.
 * - Any other character (accents the layout lacks, CJK, emoji, symbols on AltGr) is typed
 *   on a spare keycode — one with no keysym at all, 19 on Xvfb — that we map to the
 *   character's keysym (Unicode keysyms are 0x01000000 + code point), as xdotool does,
 *   but all characters of a text at once instead of one per character with a pause, and
 *   pressed only once the focused application has re-read the keymap (below).
 *
 * The application translates a keycode with ITS copy of the keymap, when it gets to the
 * event, so a spare keycode must not change while events on it may still be waiting:
 * - after a call, the characters stay mapped RESTORE_IDLE_MS, then are restored (measured
 *   in xterm, which re-fetches the keymap for every key: restoring right after the last
 *   key dropped the characters still queued in 11 of 12 runs; kept 1.5 s: exact in every
 *   idle run since) and once the apps the keys went to answered a round trip after
 *   them (appsAnswered below); the next call reuses what is still mapped;
 * - when a text needs more distinct characters than there are spares, a keycode is
 *   reused only after the focused application proved it has caught up (a sentinel keymap
 *   change it must process after our keys, seen through RECORD: keymap-fetch-watch.ts),
 *   no client fetched the keymap for FETCH_QUIET_MS, and RESTORE_IDLE_MS after its last key;
 * - on abort or error everything is restored at once and Shift released, without waiting
 *   for the server (a hung one would hold a Stop for the request limit);
 * - a record on the server (spare-record.ts) names the keycodes mapped, written before
 *   them: the next typist on that display restores what a killed process left.
 *
 * Abort is checked every `chunk` strokes and inside every wait.
 */
import { errorText } from '../../shared/error-text.js';
import { withTimeout } from '../../shared/promises.js';
import { pingInputTargets } from '../settle-ping.js';
import { sleep, throwIfAborted, yieldToEventLoop } from '../../shared/abort.js';
import { X11Connection, X11Error } from './connection.js';
import { clientPids, sameProcess } from './client-pids.js';
import { KeymapFetchWatch } from './keymap-fetch-watch.js';
import {
  changeKeyboardMapping,
  changeKeyboardMappingBeforeExit,
  fakeKey,
  getInputFocus,
  getKeyboardMapping,
  getModifierMapping,
  queryExtension,
  windowUnderPointer,
  type KeyboardMapping,
} from './keyboard.js';
import { restoreLeftovers, SpareRecord } from './spare-record.js';
import { charForKeysym, keysymForChar } from './typing-keysyms.js';
import {
  evictLeastRecent,
  heldUses,
  keycodeRuns,
  paceWaitMs,
  RESTORE_IDLE_MS,
  restoreMarginMs,
  reuseCount,
  reuseWaitMs,
  sparePool,
  timeLeftMs,
  typingPace,
  unobservedPauseMs,
} from './typist-schedule.js';

export { RESTORE_IDLE_MS };

export interface X11TypeOptions {
  signal?: AbortSignal;
  /**
   * Average time per key stroke. Injected events arrive as fast as XTEST takes them; an
   * application that falls behind by thousands of events drops or stalls (Chromium
   * does), so strokes are paced. 1 ms keeps 1,000 characters near 1 s.
   */
  strokeIntervalMs?: number;
  /** Strokes between round trips (and abort checks). */
  chunk?: number;
  /** Longest wait for the focused application to catch up with a keymap change. */
  catchUpTimeoutMs?: number;
  /**
   * Called once, right before the first key event, after the keymap waits the text's
   * first characters outside the layout need (settle's "before" picture: every change
   * after it is the app's answer to these keys, none is from an earlier wait).
   */
  beforeKeys?: () => Promise<void>;
}

export interface X11TypeReport {
  strokes: number;
  /** Distinct characters typed through a remapped spare keycode. */
  remapped: number;
  /** Times the spare keycodes were (re)mapped. */
  remapRounds: number;
  /** Waits for the application that timed out (the text may then be inexact). */
  unconfirmed: number;
}

/**
 * How long no client may fetch the keymap before a spare keycode is reused mid-text
 * (keymap-fetch-watch.ts waitQuiet). xterm fetches for each key it translates, about one
 * per ms while catching up. This is the one timed wait left, and only for texts with more
 * distinct characters outside the layout than there are spare keycodes (18 on Xvfb).
 */
const FETCH_QUIET_MS = 250;
/** VoidSymbol: what the sentinel keycode holds every other change (it is never pressed). */
const XK_VOID_SYMBOL = 0xffffff;

export class NoSpareKeycodeError extends X11Error {
  constructor() {
    super('no spare keycode (every keycode has a keysym): characters outside the layout cannot be typed as keys');
    this.name = 'NoSpareKeycodeError';
  }
}

interface Stroke {
  keycode: number;
  shift: boolean;
}

type Item = { kind: 'key'; stroke: Stroke } | { kind: 'spare'; keysym: number };

/** What the current keyboard mapping offers for typing. */
export interface Layout {
  /** char → the first keycode typing it, plain level preferred over the shifted one. */
  strokes: Map<string, Stroke>;
  /** Keycodes with no keysym at all, highest first. */
  spares: number[];
  /** A keycode bound to the Shift modifier. */
  shiftKeycode: number | undefined;
  perKeycode: number;
}

/** `ours`: spare keycodes we mapped ourselves (typed as spares, not as layout keys). */
export function layoutFrom(mapping: KeyboardMapping, shiftKeycodes: number[], ours: ReadonlySet<number> = new Set()): Layout {
  const strokes = new Map<string, Stroke>();
  const spares: number[] = [];
  const modifierKeys = new Set(shiftKeycodes);
  mapping.keysyms.forEach((row, i) => {
    const keycode = mapping.minKeycode + i;
    if (row.every((s) => s === 0)) {
      spares.push(keycode);
      return;
    }
    if (modifierKeys.has(keycode) || ours.has(keycode)) return;
    // Core mapping columns 0 and 1 are group 1, levels 1 and 2 (Shift). Other columns
    // (group 2, AltGr levels) need modifier states we do not set: not used.
    const plain = charForKeysym(row[0] ?? 0);
    if (plain !== undefined && strokes.get(plain)?.shift !== false) strokes.set(plain, { keycode, shift: false });
    const shifted = charForKeysym(row[1] ?? 0);
    if (shifted !== undefined && !strokes.has(shifted)) strokes.set(shifted, { keycode, shift: true });
  });
  return { strokes, spares: spares.reverse(), shiftKeycode: shiftKeycodes[0], perKeycode: mapping.perKeycode };
}

/** Splits text into key strokes on the layout and characters for spare keycodes. Throws before typing anything. */
export function planItems(text: string, layout: Layout): Item[] {
  const items: Item[] = [];
  let index = 0;
  // Windows line ends from a model are one Enter each.
  for (const ch of text.replace(/\r\n?/g, '\n')) {
    const stroke = layout.strokes.get(ch);
    if (stroke && (!stroke.shift || layout.shiftKeycode !== undefined)) items.push({ kind: 'key', stroke });
    else {
      const keysym = keysymForChar(ch);
      if (keysym === undefined) {
        throw new Error(`cannot type U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} at character ${index}: control characters are keys (use the key action)`);
      }
      items.push({ kind: 'spare', keysym });
    }
    index++;
  }
  if (items.some((i) => i.kind === 'spare') && layout.spares.length === 0) throw new NoSpareKeycodeError();
  return items;
}

/**
 * Typists holding spare keycodes right now. A process that exits before RESTORE_IDLE_MS
 * has passed (`deskpilot run` calls process.exit when the run ends, maybe 1 s after a
 * type action) never runs the restore timer, and the characters stayed on the spare
 * keycodes of the person's X server until it restarted. On exit they are put back with
 * a synchronous write: the only kind an 'exit' handler can make.
 */
const holding = new Set<X11Typist>();
let exitHookInstalled = false;
function restoreAllBeforeExit(): void {
  for (const typist of holding) typist.restoreBeforeExit();
}
function holdUntilExit(typist: X11Typist): void {
  holding.add(typist);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', restoreAllBeforeExit);
}

/**
 * The idle restore waits until the apps the keys went to have answered a round trip
 * (settle-ping.ts: `_NET_WM_PING`, answered from the event loop after every event queued
 * before it), up to IDLE_RESTORE_ANSWER_MS. Why: Chromium reads the restore's
 * MappingNotify ahead of key events it has not dispatched yet; at load ~30 with two busy
 * loops its browser process answered 1–4 s after the keys, and a restore 3 s after them
 * turned "Replay ✓ Grüße 7" into "Replay  Gre 7" (settle-input.desktop). A GTK app
 * stopped past the 3 s loses them the same way: it fetches the keymap when it next
 * translates a key. Apps that take no pings (xterm) cost nothing here: the idle time is
 * their margin, as before. A ping that fails (no X connection for it) gives no proof,
 * and the restore goes ahead as before.
 */
const IDLE_RESTORE_ANSWER_MS = 30_000;
async function appsAnswered(): Promise<void> {
  try {
    await withTimeout(pingInputTargets(), IDLE_RESTORE_ANSWER_MS, 'the apps the keys went to answering before the keymap is restored');
  } catch (error) {
    // No proof: restore after the idle time alone, and say why.
    console.error(`deskpilot: restoring the typing keycodes without the app's answer: ${errorText(error)}`);
  }
}

export class X11Typist {
  private busy = false;
  /** Keysyms per keycode of the mapping the held keycodes were written with. */
  private perKeycode = 0;
  private changesSent = 0;
  /** Spare keycodes mapped by us (keycode → keysym), kept between calls until restored. */
  private readonly held = new Map<number, number>();
  private restoreTimer: NodeJS.Timeout | undefined;
  /** Counts scheduled idle restores: one that waited for the app while another was scheduled gives way. */
  private restoreGeneration = 0;
  /** performance.now() when the last typing call's keys were all sent. */
  private lastKeyAt = -Infinity;

  private constructor(
    private readonly conn: X11Connection,
    private readonly xtest: number,
    private readonly watch: KeymapFetchWatch | undefined,
    /** X-Resource's major opcode, when the server has it (client-pids.ts). */
    private readonly xres: number | undefined,
    private readonly record: SpareRecord,
  ) {}

  /**
   * Connects to `display` (default $DISPLAY) and restores the spare keycodes a DeskPilot
   * process that ended left mapped there (spare-record.ts). Throws when XTEST is missing.
   * `requestTimeoutMs`: each request's limit (connection.ts; tests of a hung server).
   */
  static async open(display?: string, options: { requestTimeoutMs?: number } = {}): Promise<X11Typist> {
    const conn = await X11Connection.open(display, options);
    try {
      const xtest = await queryExtension(conn, 'XTEST');
      if (!xtest.present) throw new X11Error('the X server has no XTEST extension');
      const record = await SpareRecord.open(conn);
      await restoreLeftovers(conn).catch(reportLeftoverFailure);
      // Without RECORD we cannot see the application catch up: remapping still types,
      // but a spare keycode is then reused or restored after catchUpTimeoutMs instead.
      const watch = await KeymapFetchWatch.start(conn, display).catch(() => undefined);
      const xres = await queryExtension(conn, 'X-Resource');
      return new X11Typist(conn, xtest.majorOpcode, watch, xres.present ? xres.majorOpcode : undefined, record);
    } catch (err) {
      conn.close();
      throw err;
    }
  }

  /** The current layout as this typist sees it (for tests and diagnostics). */
  async layout(): Promise<Layout> {
    const [mapping, modifiers] = await Promise.all([getKeyboardMapping(this.conn), getModifierMapping(this.conn)]);
    // Stryker disable next-line ArrayDeclaration: equivalent — GetModifierMapping always gives 8 rows, so the fallback is never used.
    return layoutFrom(mapping, modifiers[0] ?? []);
  }

  async type(text: string, options: X11TypeOptions = {}): Promise<X11TypeReport> {
    if (this.busy) throw new Error('X11Typist.type is already running (one typing call at a time)');
    this.busy = true;
    clearTimeout(this.restoreTimer);
    this.restoreTimer = undefined;
    try {
      return await this.typeUnlocked(text, options);
    } finally {
      this.busy = false;
    }
  }

  /**
   * Restores every spare keycode we mapped, now (the user's keymap as it was). Called
   * on abort, on close, and RESTORE_IDLE_MS after the last typing call.
   */
  async restoreNow(): Promise<void> {
    clearTimeout(this.restoreTimer);
    this.restoreTimer = undefined;
    // Stryker disable next-line ConditionalExpression: equivalent — restoring no keycodes sends a keymap read, no change, no record removal (none written) and a sync.
    if (this.held.size === 0) return;
    const keycodes = new Set(this.held.keys());
    this.held.clear();
    holding.delete(this);
    const perKeycode = (await getKeyboardMapping(this.conn)).perKeycode;
    this.restore(keycodes, perKeycode);
    this.record.clear();
    await this.conn.sync();
  }

  /**
   * From a process 'exit' handler: puts every held spare keycode back to NoSymbol with
   * synchronous writes (the server processes them after the connection closes with the
   * process). An 'exit' is final, so the characters are not waited for here: settle
   * waited for the app's answer to the last keys before the run could end.
   */
  restoreBeforeExit(): void {
    holding.delete(this);
    // Stryker disable next-line MethodExpression,ArrowFunction,ArithmeticOperator: equivalent — the order the keycodes go back in changes nothing.
    const rows = [...this.held.keys()].sort((a, b) => a - b);
    this.held.clear();
    for (const keycode of rows) {
      // Stryker disable next-line ArrayDeclaration: equivalent — a row ['Stryker was here'] is read by index as characters, each written as keysym 0 (NoSymbol), as [] is.
      if (!changeKeyboardMappingBeforeExit(this.conn, keycode, this.perKeycode, [[]])) {
        console.error(`deskpilot: could not restore the keyboard mapping while exiting; spare keycode ${keycode} may still type its last character`);
        // The record stays: the next DeskPilot on this display restores it.
        return;
      }
    }
    this.record.clearBeforeExit();
  }

  /** False once its X connection failed (a request past its limit, a server gone): open a new typist. */
  get isOpen(): boolean {
    return this.conn.isOpen;
  }

  /** Spare keycodes mapped by us right now (keycode → keysym), for tests. */
  mappedSpares(): Map<number, number> {
    return new Map(this.held);
  }

  // Over 120 lines because the typing loop, its catch-up and its clean-up in `finally` share
  // the keycode maps, the sentinel and the shift state of this one call.
  private async typeUnlocked(text: string, options: X11TypeOptions): Promise<X11TypeReport> {
    const { signal } = options;
    const { chunk, intervalMs, catchUpMs } = typingPace(options);
    throwIfAborted(signal);
    // Every wait of a typing call honours its signal (a Stop during a hung server ends it
    // at once, not at the 5 s request limit); the clean-up in `finally` below does not.
    const mapping = await getKeyboardMapping(this.conn, signal);
    // Keycodes still mapped by an earlier call are ours to reuse (unless a layout change replaced them).
    for (const [keycode, keysym] of this.held) {
      // Stryker disable next-line OptionalChaining: equivalent — a held keycode is one of the mapping's (spares come from it), so its row exists.
      if (mapping.keysyms[keycode - mapping.minKeycode]?.[0] !== keysym) this.held.delete(keycode);
    }
    // Stryker disable next-line ArrayDeclaration: equivalent — GetModifierMapping always gives 8 rows, so the fallback is never used.
    const layout = layoutFrom(mapping, (await getModifierMapping(this.conn, signal))[0] ?? [], new Set(this.held.keys()));
    this.perKeycode = layout.perKeycode;
    // The last free spare is the sentinel of catchUp() when there are two or more.
    const { sentinel, spares } = sparePool([...this.held.keys()], layout.spares);
    const items = planItems(text, { ...layout, spares });
    const report: X11TypeReport = { strokes: 0, remapped: 0, remapRounds: 0, unconfirmed: 0 };
    const shift = layout.shiftKeycode;
    /** keysym → spare keycode it is mapped to now. */
    const mapped = new Map<number, number>([...this.held].map(([keycode, keysym]) => [keysym, keycode]));
    const free = spares.filter((k) => !this.held.has(k));
    /** Spare keycode → index of the item that last used it. */
    const lastUse = new Map<number, number>();
    /** Spare keycode → performance.now() of its last key (the call before's last key for those held from it). */
    const lastUseAt = heldUses(this.held.keys(), this.lastKeyAt);
    let sentinelOn = false;
    let shiftHeld = false;
    let sinceSync = 0;
    const started = performance.now();
    let completed = false;

    const setShift = (down: boolean) => {
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent — pressing a key already down or releasing one that is up sends the app no event (xev's key stream is the same), and setShift(true) never runs without a Shift keycode (planItems puts shifted characters on spares then).
      if (down === shiftHeld || shift === undefined) return;
      fakeKey(this.conn, this.xtest, shift, down);
      shiftHeld = down;
    };
    const tap = (keycode: number) => {
      fakeKey(this.conn, this.xtest, keycode, true);
      fakeKey(this.conn, this.xtest, keycode, false);
      report.strokes++;
    };
    // Shift is never held at a catch-up: each comes after setShift(false) or before any key.
    const catchUp = async () => {
      sentinelOn = !sentinelOn;
      if (!(await this.proveCaughtUp(sentinel, sentinelOn, layout, catchUpMs, signal))) report.unconfirmed++;
    };

    try {
      // The characters outside the layout are mapped before the first key, so the keys
      // go out as one burst: mapped on reaching them, "Replay ✓ Grüße 7" showed
      // "Replay " for the ~250 ms of the catch-up, then the rest.
      if (items.some((it) => it.kind === 'spare' && !mapped.has(it.keysym)) && free.length > 0) {
        this.mapAhead(items, 0, mapped, free, layout.perKeycode);
        report.remapRounds++;
        await catchUp();
      }
      await options.beforeKeys?.();
      throwIfAborted(signal);
      for (let i = 0; i < items.length; i++) {
        const item = items[i]!;
        if (item.kind === 'key') {
          setShift(item.stroke.shift);
          tap(item.stroke.keycode);
        } else {
          let keycode = mapped.get(item.keysym);
          if (keycode === undefined) {
            // Stryker disable next-line BooleanLiteral: equivalent — Shift pressed here is released by the catch-up's tap right after, the same +Shift -Shift the app sees from the tap alone (a press of a key already down sends no event).
            setShift(false);
            // Stryker disable next-line ConditionalExpression: equivalent as true — mapAhead maps every later character while a spare is free, so an unmapped one is reached only with none free.
            if (free.length === 0) {
              // Every spare holds a character the application may not have translated
              // yet: wait for it, then reuse the ones used longest ago.
              await catchUp();
              const evicted = evictLeastRecent(mapped, lastUse, reuseCount(spares.length));
              // The catch-up proof is not enough for every application (typist-schedule.ts
              // reuseWaitMs), so a keycode is also reused only RESTORE_IDLE_MS after its
              // last key, the same margin as the final restore (a sleep of 0 only yields).
              await sleep(reuseWaitMs(evicted, lastUseAt, performance.now()), signal);
              free.push(...evicted);
            }
            this.mapAhead(items, i, mapped, free, layout.perKeycode);
            report.remapRounds++;
            // The new characters are pressed only once the application has re-read the
            // keymap: Chromium under load translated the first one with the old map
            // (NoSymbol, dropped: "hllo wörld" in 10 of 20 calls; 0 of 30 with this wait,
            // which costs ~250 ms per round, FETCH_QUIET_MS).
            await catchUp();
            keycode = mapped.get(item.keysym)!;
          }
          lastUse.set(keycode, i);
          lastUseAt.set(keycode, performance.now());
          setShift(false);
          tap(keycode);
        }
        if (++sinceSync >= chunk) {
          sinceSync = 0;
          await this.conn.sync({ signal });
          const ahead = paceWaitMs(started, report.strokes, intervalMs, performance.now());
          // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent as true and as >= — a sleep of 0 ends on the next timer turn, as the yield does; the same keys follow (typist-app-proof's pace case kills false and <=).
          if (ahead > 0) await sleep(ahead, signal);
          else await yieldToEventLoop();
          throwIfAborted(signal);
        }
      }
      setShift(false);
      await this.conn.sync();
      this.lastKeyAt = performance.now();
      completed = true;
    } finally {
      try {
        // Queued in order behind the keys, never waited for before the call returns: a
        // stopped server (SIGSTOP, hung) held a Stop here for the 5 s request limit. A live
        // one processes them in order all the same; the sync only reports their errors.
        setShift(false);
        // Stryker disable next-line ConditionalExpression,LogicalOperator,ArrayDeclaration: equivalent — an empty sentinel written empty again changes nothing, an undefined one fails in the sync the catch below ignores, and a row ['Stryker was here'] is NoSymbol.
        if (sentinelOn && sentinel !== undefined) this.sendRows([[sentinel, []]], layout.perKeycode);
        if (!completed) {
          this.restoreQueued(layout.perKeycode);
        } else {
          // Stryker disable next-line ConditionalExpression: equivalent as true — an idle restore with nothing held restores nothing (restoreNow returns at once); its app ping 3 s later changes nothing.
          if (this.held.size) this.scheduleRestore();
        }
        // Stryker disable next-line ConditionalExpression,OptionalChaining: equivalent — this sync only reports errors, which the catch ignores (as false or signal.aborted's TypeError, it is skipped; as true the hung-server Stop case fails).
        if (!signal?.aborted) await this.conn.sync();
      } catch {
        // The connection failed: the server releases an XTEST client's keys when it
        // disconnects; the mapping stays as it was left, and so does its record
        // (spare-record.ts), for the next typist to restore.
      }
    }
    report.remapped = new Set(items.flatMap((i) => (i.kind === 'spare' ? [i.keysym] : []))).size;
    return report;
  }

  /**
   * The mapping of the last characters stays for RESTORE_IDLE_MS after the call, and is
   * reused by the next call: an application that translates each key with the mapping of
   * the moment (xterm's Xlib re-fetches the keymap for every key) must have handled
   * them before the keycode goes back to NoSymbol, and nothing it does tells us when.
   */
  private scheduleRestore(): void {
    clearTimeout(this.restoreTimer);
    // Stryker disable next-line UpdateOperator: equivalent — any change of the count makes an earlier waiting restore give way.
    const generation = ++this.restoreGeneration;
    this.restoreTimer = setTimeout(() => {
      // Stryker disable next-line ConditionalExpression: equivalent as false — the answer's .then checks busy again and the generation (a call that ended scheduled its own); only an extra ping goes out.
      if (this.busy) return;
      void appsAnswered().then(() => {
        if (!this.busy && generation === this.restoreGeneration) return this.restoreNow();
      }).catch(reportRestoreFailure);
    }, RESTORE_IDLE_MS);
    this.restoreTimer.unref();
  }

  /** Maps the next characters that need a spare keycode, as many as there are free spares. */
  private mapAhead(items: Item[], from: number, mapped: Map<number, number>, free: number[], perKeycode: number): void {
    const rows: [number, number[]][] = [];
    for (let j = from; j < items.length && free.length > 0; j++) {
      const it = items[j]!;
      if (it.kind !== 'spare' || mapped.has(it.keysym)) continue;
      const keycode = free.shift()!;
      mapped.set(it.keysym, keycode);
      this.held.set(keycode, it.keysym);
      holdUntilExit(this);
      // Both levels carry the keysym, so Shift or CapsLock cannot change what it types.
      rows.push([keycode, [it.keysym, it.keysym]]);
    }
    // The record goes out first: a process killed right after the remap leaves it named.
    this.record.write(this.held);
    this.sendRows(rows, perKeycode);
  }

  /** Restores every held keycode and clears the record, queued (not waited for). */
  private restoreQueued(perKeycode: number): void {
    clearTimeout(this.restoreTimer);
    this.restoreTimer = undefined;
    // Stryker disable next-line ConditionalExpression: equivalent — with no keycodes held, restore sends no rows and the record (written only with keycodes held) is not removed.
    if (this.held.size === 0) return;
    this.restore(new Set(this.held.keys()), perKeycode);
    this.held.clear();
    holding.delete(this);
    this.record.clear();
  }

  private restore(keycodes: Set<number>, perKeycode: number): void {
    // Stryker disable next-line ArrayDeclaration: equivalent — a row ['Stryker was here'] is read by index as characters, each written as keysym 0 (NoSymbol), as [] is.
    this.sendRows([...keycodes].map((k) => [k, []]), perKeycode);
  }

  /** One ChangeKeyboardMapping per run of consecutive keycodes (typist-schedule.ts keycodeRuns). */
  private sendRows(rows: [number, number[]][], perKeycode: number): void {
    for (const run of keycodeRuns(rows)) {
      changeKeyboardMapping(this.conn, run.first, perKeycode, run.rows);
      this.changesSent++;
    }
  }

  /**
   * Asks the focused application to show that it handled every key sent so far (the
   * sentinel, keymap-fetch-watch.ts): the sentinel keycode changes (`on`: VoidSymbol, else
   * back to NoSymbol) and Shift is tapped — the app translates a key, so it re-reads the
   * keymap now. True once it did (applicationCaughtUp), false after `timeoutMs`. Shift must
   * be up. The one proof of a typing call's catch-ups and of close's wait.
   */
  private async proveCaughtUp(sentinel: number | undefined, on: boolean, layout: Layout, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (sentinel !== undefined) {
      // Stryker disable next-line ArrayDeclaration: equivalent — a row ['Stryker was here'] is read by index as characters, each written as keysym 0 (NoSymbol), as [] is.
      this.sendRows([[sentinel, on ? [XK_VOID_SYMBOL] : []]], layout.perKeycode);
      if (layout.shiftKeycode !== undefined) {
        fakeKey(this.conn, this.xtest, layout.shiftKeycode, true);
        fakeKey(this.conn, this.xtest, layout.shiftKeycode, false);
      }
    }
    await this.conn.sync({ signal });
    return this.applicationCaughtUp(sentinel, timeoutMs, signal);
  }

  /**
   * Before restoring early (close): proof that the focused application caught up with
   * our last keys (proveCaughtUp, as in a mid-text reuse), else the rest of
   * RESTORE_IDLE_MS after the last key, the margin the idle restore keeps anyway.
   */
  private async waitBeforeRestore(): Promise<void> {
    const margin = () => restoreMarginMs(this.lastKeyAt, performance.now());
    if (this.held.size === 0 || margin() === 0) return;
    const [mapping, modifiers] = await Promise.all([getKeyboardMapping(this.conn), getModifierMapping(this.conn)]);
    // Stryker disable next-line ArrayDeclaration: equivalent — GetModifierMapping always gives 8 rows, so the fallback is never used.
    const layout = layoutFrom(mapping, modifiers[0] ?? [], new Set(this.held.keys()));
    const sentinel = layout.spares.at(-1);
    const caughtUp = await this.proveCaughtUp(sentinel, true, layout, margin());
    if (sentinel !== undefined) {
      // Stryker disable next-line ArrayDeclaration: equivalent — a row ['Stryker was here'] is read by index as characters, each written as keysym 0 (NoSymbol), as [] is.
      this.sendRows([[sentinel, []]], layout.perKeycode);
      await this.conn.sync();
    }
    // Else the rest of the margin (a sleep of 0 only yields).
    if (!caughtUp) await sleep(margin());
  }

  /**
   * True once a client of the process that owns the input focus (client-pids.ts: for
   * Chromium that is GTK's connection, not the focused window's) has fetched the keymap
   * after the sentinel change (keymap-fetch-watch.ts) and no client fetched for
   * FETCH_QUIET_MS; false when that cannot be seen within
   * `timeoutMs` (no RECORD, a single spare keycode, or an application that never fetches).
   */
  private async applicationCaughtUp(sentinel: number | undefined, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    let focus = await getInputFocus(this.conn, signal);
    if (focus === 1) focus = await windowUnderPointer(this.conn, signal); // PointerRoot: keys go under the pointer
    if (focus === 0) return true; // focus None: the server discards key events, nobody translates them
    if (!this.watch || sentinel === undefined) {
      // Nothing to observe: a fixed pause, reported as unconfirmed.
      await sleep(unobservedPauseMs(timeoutMs), signal);
      return false;
    }
    const client = this.watch.clientOf(focus);
    const started = performance.now();
    const clients = this.xres === undefined ? new Set([client]) : sameProcess(await clientPids(this.conn, this.xres, signal), client);
    if (!(await this.watch.waitCaughtUp(clients, this.changesSent, sentinel, timeoutMs, signal))) return false;
    return this.watch.waitQuiet(FETCH_QUIET_MS, timeLeftMs(timeoutMs, started, performance.now()), signal);
  }

  /**
   * Restores the mapping, then disconnects — once the application has translated the
   * last keys: a process that exits right after typing (`deskpilot run` whose last
   * action was a type) restored at once and lost the queued characters (Chromium under
   * load: "héllo wrld" in 5 of 30 runs; 0 of 25 when the restore waited).
   */
  async close(): Promise<void> {
    await this.waitBeforeRestore()
      .then(() => this.restoreNow())
      .catch(reportRestoreFailure);
    this.watch?.close();
    this.conn.close();
  }
}

/** Leftovers that could not be restored stay as they were; typing goes on. */
function reportLeftoverFailure(error: unknown): void {
  console.error(`deskpilot: could not restore spare keycodes left by an ended DeskPilot process (${errorText(error)})`);
}

/**
 * A keymap that could not be put back leaves characters on spare keycodes until the X
 * server restarts or the next typing call restores them: never silent (it was
 * `.catch(() => undefined)`), but not a reason to fail the call that already typed.
 */
function reportRestoreFailure(error: unknown): void {
  console.error(`deskpilot: could not restore the keyboard mapping after typing (${errorText(error)}); spare keycodes may still type the last characters`);
}
