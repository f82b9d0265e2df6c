/**
 * x11/new-windows.ts on the X server's event bytes (core protocol section 11, damageproto):
 * which windows a settle after input owes a first drawing, and the DAMAGE requests sent for
 * them. settle-new-window.desktop.test.ts shows the whole on a real server.
 */
import { describe, expect, it } from 'vitest';
import { NewWindows } from '../../src/os-control/x11/new-windows.js';

const ROOT = 0x100;
const DAMAGE = { majorOpcode: 143, firstEvent: 91 };

function event(type: number, words: Record<number, number>, bytes: Record<number, number> = {}): Buffer {
  const e = Buffer.alloc(32);
  e[0] = type;
  for (const [at, v] of Object.entries(words)) e.writeUInt32LE(v, Number(at));
  for (const [at, v] of Object.entries(bytes)) e[Number(at)] = v;
  return e;
}
const create = (window: number, parent = ROOT, overrideRedirect = 0) => event(16, { 4: parent, 8: window }, { 22: overrideRedirect });
const destroy = (window: number) => event(17, { 4: window, 8: window });
const map = (window: number) => event(19, { 4: ROOT, 8: window });
const reparent = (window: number, parent: number) => event(21, { 4: ROOT, 8: window, 12: parent });
/** A DAMAGE report; `sequence` is the last of our requests the server had handled when it made it. */
const damaged = (drawable: number, damage: number, sequence = 0xffff) => {
  const e = event(DAMAGE.firstEvent, { 4: drawable, 8: damage }, { 1: 3 });
  e.writeUInt16LE(sequence, 2);
  return e;
};

/** A QueryTree reply (core protocol): the children's count at byte 16, the list from byte 32. */
function treeReply(children: number[]): Buffer {
  const r = Buffer.alloc(32 + 4 * children.length);
  r.writeUInt16LE(children.length, 16);
  children.forEach((c, i) => r.writeUInt32LE(c, 32 + 4 * i));
  return r;
}

/** A GetWindowAttributes reply (core protocol): the class at byte 12 (1 InputOutput, 2 InputOnly). */
function attributesReply(windowClass: number): Buffer {
  const r = Buffer.alloc(44);
  r[0] = 1;
  r.writeUInt32LE(3, 4);
  r.writeUInt16LE(windowClass, 12);
  return r;
}

/**
 * Requests as sent, each with the sequence number the connection gave it (from 10).
 * QueryTree is answered from `tree` (window → children); a window not in it is gone (BadWindow).
 * GetWindowAttributes is answered from `classes` (window → class, as it is when asked; InputOutput
 * when not there; 0: gone, BadWindow); the windows it was asked for are in `attributes`.
 */
function watch(damage: typeof DAMAGE | null = DAMAGE, tree = new Map<number, number[]>(), classes = new Map<number, number>()) {
  const sent: { major: number; minor: number; body: Buffer; sequence: number }[] = [];
  const asked: number[] = [];
  const attributes: number[] = [];
  let id = 0x500;
  const w = new NewWindows(
    {
      root: ROOT,
      send: (major, minor, body) => sent[sent.push({ major, minor, body, sequence: 10 + sent.length }) - 1]!.sequence,
      request: (major, minor, body) => {
        if (major === 3 && minor === 0 && body.length === 4) {
          const window = body.readUInt32LE(0);
          attributes.push(window);
          const windowClass = classes.get(window) ?? 1;
          return windowClass ? Promise.resolve(attributesReply(windowClass)) : Promise.reject(new Error(`X error 3 (BadWindow) for ${window}`));
        }
        if (major !== 15) return Promise.reject(new Error(`unexpected request ${major}`));
        const window = body.readUInt32LE(0);
        asked.push(window);
        const children = tree.get(window);
        return children ? Promise.resolve(treeReply(children)) : Promise.reject(new Error(`X error 3 (BadWindow) for ${window}`));
      },
      allocateId: () => ++id,
    },
    damage ?? undefined,
  );
  return { w, sent, asked, attributes };
}

/** The Expose events sent, as [destination, its window, width, height]. */
const exposesSent = (sent: { major: number; body: Buffer }[]) =>
  sent.filter((r) => r.major === 25).map((r) => [r.body.readUInt32LE(0), r.body.readUInt32LE(12), r.body.readUInt16LE(20), r.body.readUInt16LE(22)]);

describe('NewWindows', () => {
  it('a top-level window created after the input is owed until its first drawing, then dates the quiet', () => {
    const { w, sent } = watch();
    w.handle(create(0x600), 1_000);
    expect(w.progress(900)).toEqual({ owed: true, drawnAt: undefined });
    // DamageCreate (damage id, the window, level NonEmpty) asked at once, a DamageSubtract
    // (the damage, repair None, parts None) right behind it.
    expect(sent).toHaveLength(2);
    expect(sent.map((r) => [r.major, r.minor])).toEqual([[DAMAGE.majorOpcode, 1], [DAMAGE.majorOpcode, 3]]);
    expect([sent[0]!.body.readUInt32LE(0), sent[0]!.body.readUInt32LE(4), sent[0]!.body[8]]).toEqual([0x501, 0x600, 3]);
    expect(sent[0]!.body).toHaveLength(12);
    expect([...Array(3).keys()].map((i) => sent[1]!.body.readUInt32LE(4 * i))).toEqual([0x501, 0, 0]);
    expect(sent[1]!.body).toHaveLength(12);
    w.handle(damaged(0x600, 0x501, 11), 1_400);
    expect(w.progress(900)).toEqual({ owed: false, drawnAt: 1_400 });
    // The one report is all: the damage object is freed.
    expect(sent).toHaveLength(3);
    expect([sent[2]!.major, sent[2]!.minor, sent[2]!.body.readUInt32LE(0), sent[2]!.body.length]).toEqual([DAMAGE.majorOpcode, 2, 0x501, 4]);
    // A second report (none should come) changes nothing.
    w.handle(damaged(0x600, 0x501), 1_900);
    expect(w.progress(900)).toEqual({ owed: false, drawnAt: 1_400 });
    expect(sent).toHaveLength(3);
  });

  it('an InputOnly window (a GTK client leader, dbus-launch\'s window) owes nothing once its class is read; an unmapped InputOutput one stays owed', async () => {
    const { w, sent, attributes } = watch(DAMAGE, new Map(), new Map([[0x800001, 2], [0x400001, 2]]));
    w.handle(create(0x800001), 1_000);
    w.handle(create(0x400001), 1_005);
    // The file chooser: created, not mapped yet (GTK maps it ~580 ms later).
    w.handle(create(0x600), 1_010);
    expect(attributes).toEqual([0x800001, 0x400001, 0x600]);
    expect(w.progress(900)).toEqual({ owed: true, drawnAt: undefined });
    await new Promise((r) => setImmediate(r));
    expect(w.progress(900)).toEqual({ owed: true, drawnAt: undefined });
    w.handle(damaged(0x600, 0x503, 40), 1_600);
    expect(w.progress(900)).toEqual({ owed: false, drawnAt: 1_600 });
    // The InputOnly windows' DamageCreate was refused (BadMatch): no DamageDestroy is sent for them.
    expect(sent.map((r) => [r.minor, r.body.readUInt32LE(0)])).toEqual([[1, 0x501], [3, 0x501], [1, 0x502], [3, 0x502], [1, 0x503], [3, 0x503], [2, 0x503]]);
  });

  it("an InputOnly window's class read after its id was destroyed and made anew leaves the new window owed", async () => {
    const classes = new Map([[0x600, 2]]);
    const { w } = watch(DAMAGE, new Map(), classes);
    w.handle(create(0x600), 1_000);
    w.handle(destroy(0x600), 1_010);
    classes.set(0x600, 1);
    w.handle(create(0x600), 1_020);
    await new Promise((r) => setImmediate(r));
    expect(w.progress(900).owed).toBe(true);
  });

  it('without DAMAGE an InputOnly window owes nothing either; a window gone before its class is read throws nothing', async () => {
    const { w, attributes } = watch(null, new Map(), new Map([[0x600, 2], [0x601, 0]]));
    w.handle(create(0x600), 1_000);
    w.handle(create(0x601), 1_000);
    await new Promise((r) => setImmediate(r));
    expect(attributes).toEqual([0x600, 0x601]);
    expect(w.progress(900).owed).toBe(true);
    w.handle(destroy(0x601), 1_100);
    expect(w.progress(900)).toEqual({ owed: false, drawnAt: undefined });
  });

  it("a report made as the server handled the DamageCreate (the Create's sequence number) is the window's area, not the app's drawing", () => {
    const { w, sent } = watch();
    w.handle(create(0x600), 1_000);
    // Shown before the Create reached the server: it reports the visible area at once
    // (the window's geometry 320×240 at 50,60).
    const early = damaged(0x600, 0x501, sent[0]!.sequence);
    [50, 60, 320, 240].forEach((v, i) => early.writeUInt16LE(v, 24 + 2 * i));
    w.handle(early, 1_010);
    expect(w.progress(900)).toEqual({ owed: true, drawnAt: undefined });
    // Its app is asked to draw it again: SendEvent (no propagation) to the window, for
    // whoever selects exposures on it, of an Expose of its whole area (count 0).
    expect(sent).toHaveLength(3);
    const ask = sent[2]!;
    expect([ask.major, ask.minor, ask.body.length]).toEqual([25, 0, 40]);
    expect([ask.body.readUInt32LE(0), ask.body.readUInt32LE(4)]).toEqual([0x600, 1 << 15]);
    const expose = ask.body.subarray(8);
    expect([expose[0], expose.readUInt32LE(4), expose.readUInt16LE(8), expose.readUInt16LE(10), expose.readUInt16LE(12), expose.readUInt16LE(14), expose.readUInt16LE(16)]).toEqual([12, 0x600, 0, 0, 320, 240, 0]);
    // The app's paint, after the Subtract: the drawing.
    w.handle(damaged(0x600, 0x501, sent[1]!.sequence), 3_000);
    expect(w.progress(900)).toEqual({ owed: false, drawnAt: 3_000 });
    expect(sent.map((r) => r.minor)).toEqual([1, 3, 0, 2]);
  });

  it("a window already shown that draws in child windows (xterm's vt100 inside its shell): each child, 3 levels deep, is asked too", async () => {
    const tree = new Map([
      [0x600, [0x610, 0x620]],
      [0x610, [0x611]],
      [0x620, []],
      [0x611, [0x612]],
      [0x612, [0x613]],
    ]);
    const { w, sent, asked } = watch(DAMAGE, tree);
    w.handle(create(0x600), 1_000);
    const early = damaged(0x600, 0x501, sent[0]!.sequence);
    [0, 0, 500, 300].forEach((v, i) => early.writeUInt16LE(v, 24 + 2 * i));
    w.handle(early, 1_010);
    await new Promise((r) => setImmediate(r));
    // Levels 1-3 below the window; 0x613 (level 4) is not asked, nor its parent's tree read.
    expect(asked).toEqual([0x600, 0x610, 0x620, 0x611]);
    expect(exposesSent(sent)).toEqual([0x600, 0x610, 0x620, 0x611, 0x612].map((d) => [d, d, 500, 300]));
    expect(w.progress(900).owed).toBe(true);
  });

  it('a window gone before its tree is read: its own Expose only, nothing thrown, still owed until its DestroyNotify', async () => {
    const { w, sent } = watch();
    w.handle(create(0x600), 1_000);
    w.handle(damaged(0x600, 0x501, sent[0]!.sequence), 1_010);
    await new Promise((r) => setImmediate(r));
    expect(exposesSent(sent).map(([d]) => d)).toEqual([0x600]);
    expect(w.progress(900).owed).toBe(true);
    w.handle(destroy(0x600), 1_100);
    expect(w.progress(900).owed).toBe(false);
  });

  it('once 64 children are found, no deeper level is read', async () => {
    const exactly = Array.from({ length: 64 }, (_, i) => 0x1000 + i);
    const { w, sent, asked } = watch(DAMAGE, new Map([[0x600, exactly], ...exactly.map((c) => [c, [c + 0x1000]] as [number, number[]])]));
    w.handle(create(0x600), 1_000);
    w.handle(damaged(0x600, 0x501, sent[0]!.sequence), 1_010);
    await new Promise((r) => setImmediate(r));
    expect(asked).toEqual([0x600]);
    expect(exposesSent(sent)).toHaveLength(65);
  });

  it('a window drawn, then made the parent of a new window, frees no damage object twice', () => {
    const { w, sent } = watch();
    w.handle(create(0x700), 1_000);
    w.handle(damaged(0x700, 0x501, 20), 1_100);
    expect(sent.map((r) => r.minor)).toEqual([1, 3, 2]);
    w.handle(create(0x600), 1_200);
    w.handle(reparent(0x600, 0x700), 1_300);
    expect(sent.map((r) => r.minor)).toEqual([1, 3, 2, 1, 3]);
    expect(w.progress(900)).toEqual({ owed: true, drawnAt: undefined });
  });

  it('no more than 64 child windows are asked to redraw', async () => {
    const many = Array.from({ length: 100 }, (_, i) => 0x1000 + i);
    const { w, sent } = watch(DAMAGE, new Map([[0x600, many], ...many.map((c) => [c, [c + 0x1000]] as [number, number[]])]));
    w.handle(create(0x600), 1_000);
    w.handle(damaged(0x600, 0x501, sent[0]!.sequence), 1_010);
    await new Promise((r) => setImmediate(r));
    expect(exposesSent(sent).map(([d]) => d)).toEqual([0x600, ...many.slice(0, 64)]);
  });

  it("a window manager's frame owes nothing once a new client is reparented into it; its damage object is freed", () => {
    const { w, sent } = watch();
    w.handle(create(0x600), 1_000);
    w.handle(create(0x700), 1_010);
    expect(sent.map((r) => [r.minor, r.body.readUInt32LE(4)])).toEqual([[1, 0x600], [3, 0], [1, 0x700], [3, 0]]);
    w.handle(reparent(0x600, 0x700), 1_020);
    expect(sent.slice(4).map((r) => [r.minor, r.body.readUInt32LE(0)])).toEqual([[2, 0x502]]);
    // The frame's report (the WM drew its decorations) is no drawing of the app's.
    w.handle(damaged(0x700, 0x502, 20), 1_030);
    expect(w.progress(900)).toEqual({ owed: true, drawnAt: undefined });
    w.handle(damaged(0x600, 0x501, 20), 1_500);
    expect(w.progress(900)).toEqual({ owed: false, drawnAt: 1_500 });
    // A reparent of a window not watched (an old window into a new parent) frees nothing.
    w.handle(reparent(0x650, 0x800), 1_600);
    expect(sent).toHaveLength(6);
  });

  it('windows from before the input, override-redirect ones and children of other windows owe nothing', () => {
    const { w, sent } = watch();
    w.handle(create(0x600), 800);
    w.handle(create(0x601, ROOT, 1), 1_000);
    w.handle(create(0x602, 0x600), 1_000);
    expect(w.progress(900)).toEqual({ owed: false, drawnAt: undefined });
    expect(w.progress(800).owed).toBe(true);
    expect(sent).toHaveLength(2);
  });

  it('a window destroyed before it was drawn owes nothing; a sent (synthetic) event is no fact', () => {
    const { w } = watch();
    w.handle(create(0x600), 1_000);
    const fake = damaged(0x600, 0x501);
    fake[0] = fake[0]! | 0x80;
    w.handle(fake, 1_100);
    expect(w.progress(900).owed).toBe(true);
    w.handle(destroy(0x600), 1_200);
    expect(w.progress(900)).toEqual({ owed: false, drawnAt: undefined });
  });

  it('the latest first drawing of several new windows dates the quiet, and one undrawn keeps it owed', () => {
    const { w } = watch();
    w.handle(create(0x600), 1_000);
    w.handle(create(0x601), 1_010);
    w.handle(damaged(0x601, 0x502), 1_300);
    expect(w.progress(900)).toEqual({ owed: true, drawnAt: 1_300 });
    w.handle(damaged(0x600, 0x501), 1_200);
    expect(w.progress(900)).toEqual({ owed: false, drawnAt: 1_300 });
  });

  it('without DAMAGE: its map stands for its drawing, its own or that of the frame it was reparented into', () => {
    const { w, sent } = watch(null);
    w.handle(create(0x600), 1_000);
    w.handle(create(0x601), 1_000);
    expect(sent).toHaveLength(0);
    w.handle(reparent(0x600, 0x700), 1_100);
    // Mapped inside the frame: the client's own map goes to the frame, the root sees the frame's.
    w.handle(map(0x701), 1_150);
    expect(w.progress(900)).toEqual({ owed: true, drawnAt: undefined });
    w.handle(map(0x700), 1_200);
    expect(w.progress(900)).toEqual({ owed: true, drawnAt: 1_200 });
    w.handle(map(0x601), 1_300);
    expect(w.progress(900)).toEqual({ owed: false, drawnAt: 1_300 });
    // Mapped again later (unmapped meanwhile): its first drawing still dates it.
    w.handle(map(0x601), 1_500);
    expect(w.progress(900)).toEqual({ owed: false, drawnAt: 1_300 });
    // A frame made after the input, once it holds a client, owes nothing and asks nothing.
    w.handle(create(0x710), 1_600);
    w.handle(create(0x611), 1_600);
    w.handle(reparent(0x611, 0x710), 1_610);
    w.handle(map(0x710), 1_620);
    expect(w.progress(1_550)).toEqual({ owed: false, drawnAt: 1_620 });
    expect(sent).toHaveLength(0);
  });

  it('with DAMAGE a map is no drawing', () => {
    const { w } = watch();
    w.handle(create(0x600), 1_000);
    w.handle(map(0x600), 1_100);
    expect(w.progress(900).owed).toBe(true);
  });

  it('forgets windows created over a minute before a new one', () => {
    const { w } = watch();
    w.handle(create(0x5f0), 100_000);
    w.handle(create(0x5f1), 100_010);
    // Both kept: 10 ms apart, and a minute to the ms is not over a minute.
    w.handle(create(0x5f2), 160_000);
    expect(w.progress(160_000).owed).toBe(true);
    w.handle(damaged(0x5f2, 0x503, 20), 160_001);
    w.handle(damaged(0x5f1, 0x502, 20), 160_002);
    // The one a minute to the ms older is still watched: owed until drawn.
    expect(w.progress(100_000)).toEqual({ owed: true, drawnAt: 160_002 });
    w.handle(damaged(0x5f0, 0x501, 20), 160_003);
    expect(w.progress(100_000)).toEqual({ owed: false, drawnAt: 160_003 });
  });

  it('forgets windows created over a minute before a new one (the older one gone)', () => {
    const { w } = watch();
    w.handle(create(0x600), 1_000);
    w.handle(create(0x601), 62_000);
    expect(w.progress(0)).toEqual({ owed: true, drawnAt: undefined });
    w.handle(damaged(0x601, 0x502), 62_100);
    expect(w.progress(0)).toEqual({ owed: false, drawnAt: 62_100 });
  });
});
