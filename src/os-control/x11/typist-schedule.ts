/**
 * The decisions of one X11 typing call, as values (typist.ts does the waiting and the
 * sending): its pace and limits, the spare keycode kept as the catch-up sentinel, which
 * spares a reuse round frees and how long it must wait first, how far the keys are ahead
 * of their pace, and the runs of keycodes one ChangeKeyboardMapping each writes. Pure, so
 * tests assert the plan, not a time (issue 27.14: these were timing-only mutants).
 */

/**
 * How long the spare keycodes keep their characters after a typing call (typist.ts
 * scheduleRestore), and the margin before one is reused mid-text. An agent takes a
 * screenshot and asks the model between two actions, seconds, so this costs nothing; 3 s
 * covers an application that far behind (a 2-core machine at load average 39 plus two
 * busy loops had GTK apps over 1.5 s behind).
 */
export const RESTORE_IDLE_MS = 3_000;

/** The pause before reusing or restoring a spare keycode when RECORD is missing (xdotool's default type delay is 12 ms per character). */
export const NO_RECORD_PAUSE_MS = 200;

/** A typing call's pace and limits, each option's default filled in. */
export interface TypingPace {
  /** Strokes between round trips (and abort checks). */
  chunk: number;
  /** Average time per key stroke: 1 ms keeps 1,000 characters near 1 s. */
  intervalMs: number;
  /** Longest wait for the focused application to catch up with a keymap change. */
  catchUpMs: number;
}

export function typingPace(options: { chunk?: number; strokeIntervalMs?: number; catchUpTimeoutMs?: number }): TypingPace {
  return {
    chunk: options.chunk ?? 16,
    intervalMs: options.strokeIntervalMs ?? 1,
    // Generous: under load a GTK app took over 3 s to catch up; timing out risks a wrong character.
    catchUpMs: options.catchUpTimeoutMs ?? 10_000,
  };
}

/**
 * The spare keycodes one call may type on: `ours` (still mapped by an earlier call) and
 * `free` (no keysym, highest first). With two or more, the last free one is the
 * sentinel catch-up toggles (never pressed, so never holds a character); with one, or
 * none free, there is no sentinel and a catch-up is a fixed pause.
 */
export function sparePool(ours: readonly number[], free: readonly number[]): { sentinel: number | undefined; spares: number[] } {
  const pool = [...ours, ...free];
  const sentinel = pool.length > 1 ? free.at(-1) : undefined;
  return { sentinel, spares: pool.filter((k) => k !== sentinel) };
}

/** Spares a reuse round frees: half of them (18 on Xvfb: 9), so a round maps many at once; at least one. */
export function reuseCount(spares: number): number {
  return Math.max(1, Math.floor(spares / 2));
}

/**
 * Frees the `count` spare keycodes used longest ago: removes their characters from
 * `mapped` (keysym → keycode) and returns the keycodes. `lastUse`: keycode → index of the
 * item that last used it; one not used in this call (mapped by an earlier one) goes first.
 */
export function evictLeastRecent(mapped: Map<number, number>, lastUse: ReadonlyMap<number, number>, count: number): number[] {
  const byAge = [...mapped].sort((a, b) => (lastUse.get(a[1]) ?? -1) - (lastUse.get(b[1]) ?? -1)).slice(0, count);
  for (const [keysym] of byAge) mapped.delete(keysym);
  return byAge.map(([, keycode]) => keycode);
}

/**
 * The last keys of the spare keycodes a typing call starts with (held from the call
 * before, whose keys all went out at `lastKeyAt`): every one counts as used then. Without
 * it a keycode reused within 3 s of that call's last key was remapped at once, as if never
 * pressed (its app may still have that key queued).
 */
export function heldUses(held: Iterable<number>, lastKeyAt: number): Map<number, number> {
  return new Map([...held].map((keycode) => [keycode, lastKeyAt]));
}

/**
 * How long to wait before `evicted` are remapped: until RESTORE_IDLE_MS after the newest
 * of their last keys (`lastUseAt`: keycode → performance.now() of it, heldUses() for the
 * keycodes held from the call before; one never pressed needs no wait), 0 when that has
 * passed. The catch-up proof alone was not enough: gedit and Chromium under load still
 * translated a reused keycode with its old mapping in 3 of 13 cases.
 */
export function reuseWaitMs(evicted: readonly number[], lastUseAt: ReadonlyMap<number, number>, now: number): number {
  const newest = Math.max(...evicted.map((k) => lastUseAt.get(k) ?? -Infinity));
  return Math.max(0, newest + RESTORE_IDLE_MS - now);
}

/**
 * How far the keys sent are ahead of their pace (`strokes` × `intervalMs` since
 * `started`): the time to sleep, or 0 when less than 1 ms ahead (the call then only
 * yields to the event loop: a timer's shortest wait is 1 ms).
 */
export function paceWaitMs(started: number, strokes: number, intervalMs: number, now: number): number {
  const ahead = started + strokes * intervalMs - now;
  return ahead >= 1 ? ahead : 0;
}

/**
 * Rows (keycode → its keysyms) sorted by keycode and cut into runs of consecutive
 * keycodes: one ChangeKeyboardMapping each, which writes a range from its first keycode.
 */
export function keycodeRuns(rows: ReadonlyArray<readonly [number, number[]]>): { first: number; rows: number[][] }[] {
  const runs: { first: number; rows: number[][] }[] = [];
  let next = NaN;
  for (const [keycode, syms] of [...rows].sort((a, b) => a[0] - b[0])) {
    if (keycode === next) runs.at(-1)!.rows.push(syms);
    else runs.push({ first: keycode, rows: [syms] });
    next = keycode + 1;
  }
  return runs;
}

/**
 * What is left of RESTORE_IDLE_MS after the last key (`lastKeyAt`, performance.now()):
 * how long close() still waits before it restores, 0 once the margin has passed.
 */
export function restoreMarginMs(lastKeyAt: number, now: number): number {
  return Math.max(0, lastKeyAt + RESTORE_IDLE_MS - now);
}

/** The pause when an app's catch-up cannot be observed (no RECORD, no sentinel): NO_RECORD_PAUSE_MS, at most `timeoutMs`. */
export function unobservedPauseMs(timeoutMs: number): number {
  return Math.min(timeoutMs, NO_RECORD_PAUSE_MS);
}

/** What is left of `timeoutMs` counted from `started`, 0 once it has passed. */
export function timeLeftMs(timeoutMs: number, started: number, now: number): number {
  return Math.max(0, timeoutMs - (now - started));
}
