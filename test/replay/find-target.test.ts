/**
 * The re-find rules of a replay (agent/replay/find-target.ts) on drawn screens: each
 * rule that fires is the one the numbered list says, a relabelled button is never found
 * by its old pixels, and a point whose recorded evidence no longer holds is refused
 * rather than clicked. The element tree is a stub here (the desktop tests use the real one).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ElementLookup, ElementTreeResult } from '../../src/shared/elements.js';
import type { ObservationRecord } from '../../src/shared/observation.js';
import type { TrajectoryTarget } from '../../src/shared/trajectory.js';
import { findTarget, type FindDeps, type ScreenNow } from '../../src/main/agent/replay/find-target.js';
import { changedPixels, decodeGrey, fingerprintDistance, screenFingerprint, sideBySide } from '../../src/os-control/screen-match.js';

const W = 640;
const H = 400;

/** A white screen with grey buttons (label, x, y), 120×30 each. */
async function screen(buttons: Array<[string, number, number]>): Promise<Buffer> {
  const body = buttons
    .map(([label, x, y]) => `<rect x="${x}" y="${y}" width="120" height="30" rx="3" fill="#e6e6e6" stroke="#666"/><text x="${x + 60}" y="${y + 20}" font-family="DejaVu Sans" font-size="14" text-anchor="middle">${label}</text>`)
    .join('');
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="white"/>${body}</svg>`)).png().toBuffer();
}

const record: ObservationRecord = {
  id: 'obs',
  takenAt: 0,
  display: { id: 'd', name: '', bounds: { x: 0, y: 0, width: W, height: H }, scaleFactor: 1, primary: true },
  capture: { width: W, height: H },
  region: { x: 0, y: 0, width: W, height: H },
  image: { width: W, height: H, format: 'png' },
};

/** The screen now; `greyAsked` counts how often a lookup asked for its pixels (they are made on demand). */
async function now(png: Buffer): Promise<ScreenNow & { greyAsked: number }> {
  const grey = await decodeGrey(png, { width: W, height: H });
  const screen = {
    record,
    image: png,
    greyAsked: 0,
    grey: async () => {
      screen.greyAsked++;
      return grey;
    },
  };
  return screen;
}

/** The patch a recording cut around (x, y) from `png`, and the target that names it. */
async function recorded(png: Buffer, x: number, y: number, extra: Partial<TrajectoryTarget> = {}): Promise<{ target: TrajectoryTarget; files: Map<string, Buffer> }> {
  const patch = await sharp(png).extract({ left: x - 36, top: y - 20, width: 72, height: 40 }).png().toBuffer();
  return {
    target: { point: { x, y }, patch: { image: 'p.png', bounds: { x: x - 36, y: y - 20, width: 72, height: 40 }, contrast: 40 }, ...extra },
    files: new Map([['p.png', patch]]),
  };
}

function deps(files: Map<string, Buffer>, lookup: ElementLookup = { kind: 'none', reason: 'not-exposed', detail: 'no tree' }, tree?: ElementTreeResult): FindDeps & { lookups: string[] } {
  const lookups: string[] = [];
  return {
    lookups,
    readFile: async (p) => files.get(p)!,
    computer: {
      findElement: async (path) => (lookups.push(path), lookup),
      elementTree: async () => tree ?? { kind: 'none', source: 'fake', reason: 'not-exposed', detail: 'no tree' },
    },
  };
}

describe('findTarget', () => {
  it('0. in place: the same pixels at the point, on a step recorded without a tree — found without asking one', async () => {
    const png = await screen([['Save', 100, 100], ['Cancel', 300, 100]]);
    const { target, files } = await recorded(png, 160, 115);
    const d = deps(files);
    const found = await findTarget(target, await now(png), d);
    expect(found).toMatchObject({ kind: 'found', rule: 'in-place', point: { x: 160, y: 115 } });
    expect(d.lookups).toEqual([]);
  });

  it('0. in place with a recorded element path: only once the element there agrees (found, visible, under the point)', async () => {
    const png = await screen([['Save', 100, 100], ['Cancel', 300, 100]]);
    const path = 'dialog "Confirm" > push button "Save"';
    const { target, files } = await recorded(png, 160, 115, { element: { path, role: 'push button', name: 'Save', bounds: { x: 100, y: 100, width: 120, height: 30 } } });
    const element = { path, role: 'push button', name: 'Save', states: ['visible' as const, 'enabled' as const], actions: [], bounds: { x: 100, y: 100, width: 120, height: 30 }, children: [] };
    const d = deps(files, { kind: 'found', element });
    expect(await findTarget(target, await now(png), d)).toMatchObject({ kind: 'found', rule: 'in-place', point: { x: 160, y: 115 } });
    expect(d.lookups).toEqual([path]);
    // The same pixels, but the element at the path is elsewhere now: the element decides where.
    const moved = { ...element, bounds: { x: 400, y: 300, width: 120, height: 30 } };
    expect(await findTarget(target, await now(png), deps(files, { kind: 'found', element: moved }))).toMatchObject({ kind: 'found', rule: 'element', point: { x: 460, y: 315 } });
  });

  it('pixels never overrule the tree: the same button pixels under a path that is missing now are not clicked', async () => {
    // Recorded on "Remove 1 item? [Remove]", replayed on "Remove all 532 items? [Remove]": the button looks the same.
    const png = await screen([['Remove', 100, 100]]);
    const { target, files } = await recorded(png, 160, 115, { element: { path: 'dialog "Remove 1 item?" > push button "Remove"', role: 'push button', name: 'Remove' } });
    const found = await findTarget(target, await now(png), deps(files, { kind: 'missing', matched: 'app', detail: 'no dialog "Remove 1 item?" under app' }));
    expect(found).toEqual({ kind: 'missing', tried: ['element: no dialog "Remove 1 item?" under app'] });
  });

  it('a tree when recorded and none now: the target is missing, not found by its pixels', async () => {
    const png = await screen([['Save', 100, 100]]);
    const { target, files } = await recorded(png, 160, 115, { element: { path: 'app > push button "Save"', role: 'push button', name: 'Save' } });
    const found = await findTarget(target, await now(png), deps(files));
    expect(found).toEqual({ kind: 'missing', tried: ['element: the step recorded app > push button "Save", and no accessibility tree answers now (no tree)'] });
  });

  it('1. element: the path still resolves after the layout moved; the point keeps its place inside the element', async () => {
    const before = await screen([['Save', 100, 100]]);
    const { target, files } = await recorded(before, 130, 115, { element: { path: 'app > push button "Save"', role: 'push button', name: 'Save', bounds: { x: 100, y: 100, width: 120, height: 30 } } });
    const after = await screen([['Save', 300, 250]]);
    const element = { path: 'app > push button "Save"', role: 'push button', name: 'Save', states: ['visible' as const, 'enabled' as const], actions: [], bounds: { x: 300, y: 250, width: 240, height: 30 }, children: [] };
    const found = await findTarget(target, await now(after), deps(files, { kind: 'found', element }));
    // 30 px into a 120 px button = a quarter of its width: a quarter of the wider one now.
    expect(found).toMatchObject({ kind: 'found', rule: 'element', point: { x: 360, y: 265 } });
  });

  it('3. patch: no tree, the button moved — found by its pixels, the point moved with it', async () => {
    const before = await screen([['Save', 100, 100], ['Cancel', 300, 100]]);
    const { target, files } = await recorded(before, 160, 115);
    const after = await screen([['Save', 180, 220], ['Cancel', 420, 60]]);
    const found = await findTarget(target, await now(after), deps(files));
    expect(found.kind).toBe('found');
    if (found.kind !== 'found') return;
    expect(found.rule).toBe('patch');
    expect(Math.abs(found.point.x - 240)).toBeLessThanOrEqual(1);
    expect(Math.abs(found.point.y - 235)).toBeLessThanOrEqual(1);
  });

  it('a relabelled button is missing — the tree says it is gone, and no pixels or recorded point overrule that', async () => {
    const before = await screen([['c6', 100, 100], ['c0', 300, 100]]);
    const { target, files } = await recorded(before, 160, 115, {
      element: { path: 'app > push button "c6"', role: 'push button', name: 'c6' },
      window: { title: 'Probe', app: 'chromium', bounds: { x: 0, y: 0, width: W, height: H }, offset: { x: 160, y: 115 } },
    });
    const after = await screen([['Send', 100, 100], ['c0', 300, 100]]);
    const found = await findTarget(target, await now(after), deps(files, { kind: 'missing', matched: 'app', detail: 'no push button "c6" under app' }));
    expect(found).toEqual({ kind: 'missing', tried: ['element: no push button "c6" under app'] });
  });

  it('without a tree, a relabelled button is missing too: its old pixels do not match', async () => {
    const before = await screen([['c6', 100, 100]]);
    const { target, files } = await recorded(before, 160, 115, { window: { title: 'Probe', app: 'chromium', bounds: { x: 0, y: 0, width: W, height: H }, offset: { x: 160, y: 115 } } });
    const after = await screen([['Send', 100, 100]]);
    const found = await findTarget(target, await now(after), deps(files));
    expect(found.kind).toBe('missing');
    if (found.kind !== 'missing') return;
    expect(found.tried.join('\n')).toMatch(/image patch: the closest place differs/);
  });

  it('two identical buttons: the patch is ambiguous, so the target is missing rather than guessed', async () => {
    const before = await screen([['OK', 100, 100]]);
    const { target, files } = await recorded(before, 160, 115);
    const after = await screen([['OK', 100, 250], ['OK', 400, 250]]);
    const found = await findTarget(target, await now(after), deps(files));
    expect(found).toMatchObject({ kind: 'missing', tried: [expect.stringMatching(/matches in two places/)] });
  });

  it('4. window: only when nothing checkable was recorded (a plain patch), through the window found again', async () => {
    const target: TrajectoryTarget = {
      point: { x: 50, y: 60 },
      patch: { image: 'p.png', bounds: { x: 14, y: 40, width: 72, height: 40 }, contrast: 2 },
      window: { title: 'Canvas', app: 'paint', bounds: { x: 0, y: 0, width: 300, height: 200 }, offset: { x: 50, y: 60 } },
    };
    const tree: ElementTreeResult = {
      kind: 'tree',
      source: 'fake',
      scope: 'all',
      nodeCount: 1,
      truncated: false,
      windows: [{ app: 'paint', root: { path: 'paint > frame "Canvas"', role: 'frame', name: 'Canvas', states: ['visible'], actions: [], bounds: { x: 200, y: 100, width: 300, height: 200 }, children: [] } }],
    };
    const screenNow = await now(await screen([]));
    const found = await findTarget(target, screenNow, deps(new Map(), undefined, tree));
    expect(found).toMatchObject({ kind: 'found', rule: 'window', point: { x: 250, y: 160 } });
    // A plain patch is never compared: the screen's pixels were not even made.
    expect(screenNow.greyAsked).toBe(0);
  });

  it('a target found by its element path, with a plain patch (an empty field), never asks for the pixels', async () => {
    const target: TrajectoryTarget = {
      point: { x: 120, y: 60 },
      element: { path: 'app > entry "Name"', role: 'entry', name: 'Name', bounds: { x: 100, y: 50, width: 200, height: 20 } },
      patch: { image: 'p.png', bounds: { x: 84, y: 40, width: 72, height: 40 }, contrast: 1.5 },
    };
    const element = { path: 'app > entry "Name"', role: 'entry', name: 'Name', states: ['visible' as const, 'enabled' as const], actions: [], bounds: { x: 100, y: 50, width: 200, height: 20 }, children: [] };
    const screenNow = await now(await screen([]));
    const d = deps(new Map(), { kind: 'found', element });
    expect(await findTarget(target, screenNow, d)).toMatchObject({ kind: 'found', rule: 'element', point: { x: 120, y: 60 } });
    expect(d.lookups).toEqual(['app > entry "Name"']);
    expect(screenNow.greyAsked).toBe(0);
  });
});

describe('screen comparison', () => {
  it('fingerprints: the same screen is 0 apart, a moved button is not; changedPixels counts the change', async () => {
    const a = await screen([['Save', 100, 100]]);
    const b = await screen([['Save', 100, 100]]);
    const c = await screen([['Save', 300, 250]]);
    expect(fingerprintDistance(await screenFingerprint(a), await screenFingerprint(b))).toBe(0);
    expect(fingerprintDistance(await screenFingerprint(a), await screenFingerprint(c))).toBeGreaterThan(0.005);
    const size = { width: W, height: H };
    expect(changedPixels(await decodeGrey(a, size), await decodeGrey(b, size))).toBe(0);
    expect(changedPixels(await decodeGrey(a, size), await decodeGrey(c, size))).toBeGreaterThan(100);
  });

  it('the divergence picture: both screenshots side by side under their captions', async () => {
    const png = await sideBySide(await screen([['c6', 100, 100]]), await screen([['Send', 100, 100]]), 200);
    const meta = await sharp(png).metadata();
    // 640×400 scaled to 200 high = 320 wide, twice, a 16 px gap, a 28 px caption row.
    expect([meta.width, meta.height]).toEqual([656, 228]);
  });
});
