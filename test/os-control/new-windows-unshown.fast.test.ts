/**
 * x11/new-windows.ts's unshown rule on the X server's event bytes: an InputOutput window
 * whose app went round its event loop (and the window manager through its own) without
 * asking to show it owes nothing — Chromium's never-mapped GTK window, made at the first
 * key it gets, held a settle after a page-loading Return to its 8 s limit — until it is
 * shown. new-windows-unshown.desktop.test.ts shows the rule on a real server with openbox.
 */
import { describe, expect, it } from 'vitest';
import { NewWindows } from '../../src/os-control/x11/new-windows.js';

const ROOT = 0x100;
const DAMAGE = { majorOpcode: 143, firstEvent: 91 };
const INPUT_OUTPUT = 1;
const INPUT_ONLY = 2;

function event(type: number, words: Record<number, number>, byte22 = 0): Buffer {
  const e = Buffer.alloc(32);
  e[0] = type;
  for (const [at, v] of Object.entries(words)) e.writeUInt32LE(v, Number(at));
  e[22] = byte22;
  return e;
}
const create = (window: number) => event(16, { 4: ROOT, 8: window });
const destroy = (window: number) => event(17, { 4: window, 8: window });
const map = (window: number) => event(19, { 4: ROOT, 8: window });
const reparent = (window: number, parent: number) => event(21, { 4: ROOT, 8: window, 12: parent });
const damaged = (drawable: number, damage: number) => {
  const e = event(DAMAGE.firstEvent, { 4: drawable, 8: damage });
  e[1] = 3;
  e.writeUInt16LE(0xffff, 2);
  return e;
};
const turn = () => new Promise((r) => setImmediate(r));

/**
 * A watch whose link answers GetWindowAttributes from `classes` (InputOutput when absent)
 * and holds each loopWentRound until the test answers it (`answer(window, value)`, or an
 * Error to reject); `rounds` lists the windows it was asked for. Without `withLoop` the
 * link has no loopWentRound (as before the rule).
 */
function watch(damage: typeof DAMAGE | null = DAMAGE, classes = new Map<number, number>(), withLoop = true) {
  const rounds: number[] = [];
  const pending = new Map<number, { resolve: (v: boolean) => void; reject: (e: Error) => void }>();
  const sent: { major: number; minor: number; body: Buffer }[] = [];
  let id = 0x500;
  const w = new NewWindows(
    {
      root: ROOT,
      send: (major, minor, body) => sent.push({ major, minor, body }),
      request: (major, _minor, body) => {
        if (major !== 3) return Promise.reject(new Error(`unexpected request ${major}`));
        const reply = Buffer.alloc(44);
        reply.writeUInt16LE(classes.get(body.readUInt32LE(0)) ?? INPUT_OUTPUT, 12);
        return Promise.resolve(reply);
      },
      allocateId: () => ++id,
      ...(withLoop
        ? {
            loopWentRound: (window: number) => {
              rounds.push(window);
              return new Promise<boolean>((resolve, reject) => pending.set(window, { resolve, reject }));
            },
          }
        : {}),
    },
    damage ?? undefined,
  );
  const answer = async (window: number, value: boolean | Error) => {
    const p = pending.get(window)!;
    pending.delete(window);
    if (value instanceof Error) p.reject(value);
    else p.resolve(value);
    await turn();
  };
  /** `window` made at `at`, its app's loop gone round with it unshown: set aside. */
  const setAside = async (window: number, at: number) => {
    w.handle(create(window), at);
    await turn();
    await answer(window, true);
  };
  return { w, rounds, answer, sent, setAside };
}

describe('NewWindows: a window its app went round its loop without showing', () => {
  it('owes nothing once its app answered and it is still neither reparented nor mapped (Chromium’s GTK window)', async () => {
    const { w, rounds, answer } = watch();
    w.handle(create(0xa00002), 1_000);
    await turn();
    expect(rounds).toEqual([0xa00002]);
    // Asked, not yet answered: owed.
    expect(w.progress(900)).toEqual({ owed: true, drawnAt: undefined });
    await answer(0xa00002, true);
    expect(w.progress(900)).toEqual({ owed: false, drawnAt: undefined });
  });

  it('is owed again from the moment it is shown (reparented into a frame, or mapped), until its app draws into it', async () => {
    const { w, answer, sent } = watch();
    w.handle(create(0x600), 1_000);
    w.handle(create(0x601), 1_001);
    await turn();
    await answer(0x600, true);
    await answer(0x601, true);
    expect(w.progress(900).owed).toBe(false);
    // Shown at 5 s: owed for an input at 4.9 s, not for one after it.
    w.handle(reparent(0x600, 0x700), 5_000);
    expect(w.progress(4_900)).toEqual({ owed: true, drawnAt: undefined });
    expect(w.progress(5_001).owed).toBe(false);
    // Its damage object was kept while it was set aside: its first drawing is the proof.
    w.handle(damaged(0x600, 0x501), 5_300);
    expect(w.progress(4_900)).toEqual({ owed: false, drawnAt: 5_300 });
    w.handle(map(0x601), 6_000);
    expect(w.progress(5_900)).toEqual({ owed: true, drawnAt: undefined });
    w.handle(damaged(0x601, 0x502), 6_200);
    expect(w.progress(5_900)).toEqual({ owed: false, drawnAt: 6_200 });
    // Each damage object freed once, at its one report.
    expect(sent.filter((r) => r.minor === 2).map((r) => r.body.readUInt32LE(0))).toEqual([0x501, 0x502]);
  });

  it('without DAMAGE, a set-aside window mapped later is drawn by its map', async () => {
    const { w, setAside } = watch(null);
    await setAside(0x600, 1_000);
    expect(w.progress(900).owed).toBe(false);
    w.handle(map(0x600), 2_000);
    expect(w.progress(1_900)).toEqual({ owed: false, drawnAt: 2_000 });
  });

  it('stays owed when shown before its app answered (a dialog mapped in the handler that made it)', async () => {
    for (const shown of [reparent(0x600, 0x700), map(0x600)]) {
      const { w, answer } = watch();
      w.handle(create(0x600), 1_000);
      await turn();
      w.handle(shown, 1_010);
      await answer(0x600, true);
      expect(w.progress(900)).toEqual({ owed: true, drawnAt: undefined });
    }
  });

  it('a window drawn before its app answered keeps dating the quiet (a drawing needs no showing proved)', async () => {
    const { w, answer } = watch();
    w.handle(create(0x600), 1_000);
    await turn();
    w.handle(damaged(0x600, 0x501), 1_200);
    await answer(0x600, true);
    expect(w.progress(900)).toEqual({ owed: false, drawnAt: 1_200 });
  });

  it('stays owed when its app takes no pings, did not answer in time, or the ask failed; nothing is thrown', async () => {
    const { w, answer } = watch();
    w.handle(create(0x600), 1_000);
    w.handle(create(0x601), 1_000);
    await turn();
    await answer(0x600, false);
    await answer(0x601, new Error('connection closed'));
    expect(w.progress(900)).toEqual({ owed: true, drawnAt: undefined });
  });

  it('stays owed without a loopWentRound in the link (as before the rule)', async () => {
    const { w } = watch(DAMAGE, new Map(), false);
    w.handle(create(0x600), 1_000);
    await turn();
    expect(w.progress(900).owed).toBe(true);
  });

  it('an InputOnly window is never asked about (it owes nothing anyway)', async () => {
    const { w, rounds } = watch(DAMAGE, new Map([[0x600, INPUT_ONLY]]));
    w.handle(create(0x600), 1_000);
    await turn();
    expect(rounds).toEqual([]);
    expect(w.progress(900).owed).toBe(false);
  });

  it('an answer about a window destroyed and made anew under its id leaves the new window owed; one destroyed while set aside is not brought back', async () => {
    const { w, answer } = watch();
    w.handle(create(0x600), 1_000);
    await turn();
    w.handle(destroy(0x600), 1_010);
    w.handle(create(0x600), 1_020);
    await answer(0x600, true);
    expect(w.progress(900).owed).toBe(true);
    await turn();
    await answer(0x600, true);
    expect(w.progress(900).owed).toBe(false);
    w.handle(destroy(0x600), 1_100);
    w.handle(map(0x600), 1_200);
    expect(w.progress(900)).toEqual({ owed: false, drawnAt: undefined });
  });

  it('a report for a set-aside window (none should come while unmapped) is no drawing', async () => {
    const { w, setAside } = watch();
    await setAside(0x600, 1_000);
    w.handle(damaged(0x600, 0x501), 1_500);
    w.handle(reparent(0x600, 0x700), 2_000);
    expect(w.progress(1_900)).toEqual({ owed: true, drawnAt: undefined });
  });

  it('set-aside windows created over a minute before a new one are forgotten: shown later, they are not brought back', async () => {
    const { w, answer, setAside } = watch();
    await setAside(0x600, 1_000);
    // A minute to the ms is not over a minute: kept.
    w.handle(create(0x601), 61_000);
    w.handle(map(0x600), 61_001);
    expect(w.progress(61_001).owed).toBe(true);
    w.handle(damaged(0x600, 0x501), 61_002);
    await turn();
    await answer(0x601, true);
    expect(w.progress(0)).toEqual({ owed: false, drawnAt: 61_002 });
    // Set aside at 61 s; forgotten at a creation past 121 s: its map then brings nothing back.
    await setAside(0x602, 121_002);
    w.handle(map(0x601), 121_003);
    expect(w.progress(0)).toEqual({ owed: false, drawnAt: undefined });
  });
});
