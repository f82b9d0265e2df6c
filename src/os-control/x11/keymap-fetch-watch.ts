/**
 * Knowing when an application has translated every key event we sent.
 *
 * An X client turns a key event's keycode into a character with ITS OWN copy of the
 * keymap, refreshed from the server (core GetKeyboardMapping, or XKB GetMap) after it
 * has processed the MappingNotify a change caused — GTK once, lazily, at the next key it
 * translates; Chromium at once; xterm's Xlib at EVERY key it translates, with whatever
 * the server holds at that moment. So a spare keycode may only be remapped or restored
 * once the application has translated all earlier events on it (measured in xterm:
 * restoring as soon as any fetch followed our change dropped the last character in 5 of
 * 6 runs).
 *
 * The proof we use is a sentinel: we change one more spare keycode D (a no-op for typing)
 * and tap Shift. Events reach a client in the order the server processed them, so the
 * MappingNotify of D sits behind every key event we sent. A fetch from the focused client
 * that covers keycode D and comes after our change of D can only be made once that
 * client has processed D's MappingNotify — after all our earlier key events. The Shift
 * tap gives lazy clients (GTK, Xlib) a key to translate, which makes them fetch.
 *
 * We see the fetches with the RECORD extension: a second connection receives, in server
 * processing order, a copy of every GetKeyboardMapping / ChangeKeyboardMapping /
 * XkbGetMap request of every client, tagged with the client's resource-id base.
 */
import { sleep } from '../../shared/abort.js';
import type { X11Connection } from './connection.js';
import { queryExtension, X_CHANGE_KEYBOARD_MAPPING, X_GET_KEYBOARD_MAPPING } from './keyboard.js';
import { RECORD_CATEGORY, RECORD_RANGE_BYTES, startRecordContext, type RecordContext } from './record-context.js';

/** XKB's GetMap minor opcode (XKB.h X_kbGetMap). */
const XKB_GET_MAP = 8;
/** XkbKeySymsMask: the GetMap component that holds the keysyms. */
const XKB_KEY_SYMS = 0x02;

export class KeymapFetchWatch {
  /** Position in the record stream: grows with every recorded request. */
  private position = 0;
  /** Stream position of our own latest ChangeKeyboardMapping, and how many we have seen. */
  private ownChangeAt = 0;
  private ownChangesSeen = 0;
  /** Per client resource-id base: stream positions of its fetches, with the keycodes they cover. */
  private readonly fetches = new Map<number, { at: number; covers: (keycode: number) => boolean }[]>();
  private readonly waiters = new Set<() => void>();
  /** performance.now() of the latest fetch by any client but us. */
  private lastAnyFetchTime = -Infinity;
  /** The RECORD stream, once started. */
  private recording: RecordContext | undefined;

  private constructor(
    private readonly control: X11Connection,
    private readonly ownBase: number,
    private readonly xkbOpcode: number | undefined,
  ) {}

  /**
   * Starts watching. `typist` is the connection that will change the mapping (its
   * requests are recognised by its resource-id base). Throws when RECORD is missing.
   */
  static async start(typist: X11Connection, display?: string): Promise<KeymapFetchWatch> {
    const xkb = await queryExtension(typist, 'XKEYBOARD');
    // Two ranges at most: the core requests 100..101, and XKB's GetMap when the server has XKB.
    const ranges: Buffer[] = [];
    const core = Buffer.alloc(RECORD_RANGE_BYTES);
    core[0] = X_CHANGE_KEYBOARD_MAPPING; // core requests first..last: 100..101
    core[1] = X_GET_KEYBOARD_MAPPING;
    ranges.push(core);
    if (xkb.present) {
      const ext = Buffer.alloc(RECORD_RANGE_BYTES);
      ext[4] = xkb.majorOpcode; // ext requests: major first..last, minor first..last
      ext[5] = xkb.majorOpcode;
      ext.writeUInt16LE(XKB_GET_MAP, 6);
      ext.writeUInt16LE(XKB_GET_MAP, 8);
      ranges.push(ext);
    }
    const watch = new KeymapFetchWatch(typist, typist.setup.resourceIdBase, xkb.present ? xkb.majorOpcode : undefined);
    watch.recording = await startRecordContext(typist, ranges, (reply) => watch.onRecord(reply), display);
    return watch;
  }

  /** The resource-id base of the client owning `xid`. */
  clientOf(xid: number): number {
    return this.control.clientBaseOf(xid);
  }

  private onRecord(reply: Buffer): void {
    if (reply[1] !== RECORD_CATEGORY.fromClient) return;
    const swapped = reply[9] === 1;
    const base = reply.readUInt32LE(12);
    const payload = reply.subarray(32, 32 + reply.readUInt32LE(4) * 4);
    const u16 = (at: number) => (swapped ? payload.readUInt16BE(at) : payload.readUInt16LE(at));
    let at = 0;
    while (at + 4 <= payload.length) {
      const major = payload[at]!;
      const minor = payload[at + 1]!;
      let words = u16(at + 2);
      // BIG-REQUESTS: a zero length is followed by the real one.
      if (words === 0 && at + 8 <= payload.length) words = swapped ? payload.readUInt32BE(at + 4) : payload.readUInt32LE(at + 4);
      const size = Math.max(4, words * 4);
      this.position++;
      if (base === this.ownBase) {
        if (major === X_CHANGE_KEYBOARD_MAPPING) {
          this.ownChangeAt = this.position;
          this.ownChangesSeen++;
        }
      } else if (major === X_GET_KEYBOARD_MAPPING && at + 6 <= payload.length) {
        // GetKeyboardMapping: first-keycode, count.
        const first = payload[at + 4]!;
        const count = payload[at + 5]!;
        this.noteFetch(base, (k) => k >= first && k < first + count);
      } else if (major === this.xkbOpcode && minor === XKB_GET_MAP && at + 14 <= payload.length) {
        // XkbGetMap: deviceSpec, full, partial, firstType, nTypes, firstKeySym, nKeySyms, …
        const full = u16(at + 6);
        const partial = u16(at + 8);
        const first = payload[at + 12]!;
        const count = payload[at + 13]!;
        if (full & XKB_KEY_SYMS) this.noteFetch(base, () => true);
        else if (partial & XKB_KEY_SYMS) this.noteFetch(base, (k) => k >= first && k < first + count);
      }
      at += size;
    }
    for (const w of [...this.waiters]) w();
  }

  private noteFetch(client: number, covers: (keycode: number) => boolean): void {
    this.lastAnyFetchTime = performance.now();
    const list = this.fetches.get(client) ?? [];
    list.push({ at: this.position, covers });
    // Only fetches after our latest change matter; keep the list short.
    this.fetches.set(
      client,
      list.filter((f) => f.at > this.ownChangeAt),
    );
  }

  private caughtUp(clients: ReadonlySet<number>, sentinel: number): boolean {
    return [...clients].some((client) => (this.fetches.get(client) ?? []).some((f) => f.at > this.ownChangeAt && f.covers(sentinel)));
  }

  /**
   * Resolves true once `changes` of our changes have been recorded (the latest being the
   * sentinel change of keycode `sentinel`) and one of `clients` (the connections of the
   * focused window's process, client-pids.ts) has made a fetch covering that keycode
   * after it; false after `timeoutMs`. Rejects on abort.
   */
  waitCaughtUp(clients: ReadonlySet<number>, changes: number, sentinel: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const finish = (fn: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const check = () => {
        if (this.ownChangesSeen >= changes && this.caughtUp(clients, sentinel)) finish(() => resolve(true));
      };
      const onAbort = () => finish(() => reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted')));
      const timer = setTimeout(() => finish(() => resolve(false)), timeoutMs);
      this.waiters.add(check);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) onAbort();
      else check();
    });
  }

  /**
   * Resolves once NO client has made a keymap fetch for `quietMs`. Two reasons the
   * sentinel alone is not enough: clients that re-fetch at every key they translate
   * (xterm) keep fetching until the last key is done, and the sentinel cannot tell which
   * key a fetch was for; and one application may translate keys on a second connection
   * (Chromium hands key events to GTK's input method, which keeps its own keymap on its
   * own X connection — measured: a reused keycode typed the previous character, µ for √,
   * when only the focused window's connection was watched).
   */
  async waitQuiet(quietMs: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const since = performance.now() - this.lastAnyFetchTime;
      if (since >= quietMs) return true;
      if (performance.now() > deadline) return false;
      await sleep(Math.min(quietMs - since + 1, Math.max(1, deadline - performance.now())), signal);
    }
  }

  close(): void {
    this.recording?.close();
  }
}
