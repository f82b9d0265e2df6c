/**
 * find-target.ts rule by rule, at its edges (issue 28 item 9: mutation ≥ 90%): what each
 * rule reports (the divergence report and the replay log quote it), a screen whose region
 * is not at the origin (a second monitor), the element's bounds at their edges, a small
 * mark inside an unchanged button (a tick) and a button whose colour changed are not the
 * recorded pixels, the recorded words found again by OCR (nearest to where they were),
 * and the window and point rules only where nothing checkable was recorded.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ElementLookup, ElementNode, ElementTreeResult } from '../../src/shared/elements.js';
import type { TrajectoryTarget } from '../../src/shared/trajectory.js';
import { findTarget, PLAIN_CONTRAST, type FindDeps, type ScreenNow } from '../../src/main/agent/replay/find-target.js';
import { decodeGrey, type GreyImage } from '../../src/os-control/screen-match.js';
import { AT, H, record, W } from './second-monitor.js';

interface Button {
  label: string;
  x: number;
  y: number;
  fill?: string;
  /** A small black mark (w×h) at this offset inside the button: a tick. */
  mark?: { dx: number; dy: number; w: number; h: number };
}

async function draw(buttons: Button[], words: Array<[string, number, number]> = []): Promise<Buffer> {
  const body = buttons
    .map(
      (b) =>
        `<rect x="${b.x}" y="${b.y}" width="120" height="30" rx="3" fill="${b.fill ?? '#e6e6e6'}" stroke="#666"/><text x="${b.x + 60}" y="${b.y + 20}" font-family="DejaVu Sans" font-size="14" text-anchor="middle">${b.label}</text>` +
        (b.mark ? `<rect x="${b.x + b.mark.dx}" y="${b.y + b.mark.dy}" width="${b.mark.w}" height="${b.mark.h}" fill="black"/>` : ''),
    )
    .join('');
  const text = words.map(([w, x, y]) => `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="36">${w}</text>`).join('');
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="white"/>${body}${text}</svg>`)).png().toBuffer();
}

async function now(png: Buffer, grey?: GreyImage): Promise<ScreenNow> {
  const pixels = grey ?? (await decodeGrey(png, { width: W, height: H }));
  return { record, image: png, grey: async () => pixels };
}

/** A target recorded at (x, y) in the screen's pixels (global: + AT), its patch cut around (px, py) (default: the point). */
async function recordedAt(png: Buffer, x: number, y: number, extra: Partial<TrajectoryTarget> = {}, patchAround = { x, y }): Promise<{ target: TrajectoryTarget; files: Map<string, Buffer> }> {
  const left = patchAround.x - 36;
  const top = patchAround.y - 20;
  const patch = await sharp(png).extract({ left, top, width: 72, height: 40 }).png().toBuffer();
  return {
    target: { point: { x: AT.x + x, y: AT.y + y }, patch: { image: 'p.png', bounds: { x: AT.x + left, y: AT.y + top, width: 72, height: 40 }, contrast: 40 }, ...extra },
    files: new Map([['p.png', patch]]),
  };
}

function deps(files: Map<string, Buffer>, lookup: ElementLookup = { kind: 'none', reason: 'not-exposed', detail: 'no tree' }, tree?: ElementTreeResult): FindDeps {
  return {
    readFile: async (p) => files.get(p)!,
    computer: {
      findElement: async () => lookup,
      elementTree: async () => tree ?? { kind: 'none', source: 'fake', reason: 'not-exposed', detail: 'no tree' },
    },
  };
}

const PATH = 'app > push button "Save"';
const node = (bounds: ElementNode['bounds'] | undefined, states: ElementNode['states'] = ['visible', 'enabled']): ElementNode =>
  ({ path: PATH, role: 'push button', name: 'Save', states, actions: [], ...(bounds ? { bounds } : {}), children: [] }) as ElementNode;
/** The Save button drawn at (100, 100) in the screen: its global bounds. */
const SAVE = { x: AT.x + 100, y: AT.y + 100, width: 120, height: 30 };
const element = { path: PATH, role: 'push button', name: 'Save', bounds: SAVE };

describe('findTarget reports which rule found the target, and how', () => {
  it('0. in place on a screen away from the origin: the exact detail, with and without an element that agrees', async () => {
    const png = await draw([{ label: 'Save', x: 100, y: 100 }]);
    const { target, files } = await recordedAt(png, 160, 115);
    expect(await findTarget(target, await now(png), deps(files))).toEqual({ kind: 'found', rule: 'in-place', point: { x: 1160, y: 215 }, detail: 'the recorded pixels, in place (difference 0.000, 0.0% strongly)' });
    const withPath = await recordedAt(png, 160, 115, { element });
    expect(await findTarget(withPath.target, await now(png), deps(withPath.files, { kind: 'found', element: node(SAVE) }))).toEqual({
      kind: 'found',
      rule: 'in-place',
      point: { x: 1160, y: 215 },
      detail: `the recorded pixels, in place (difference 0.000, 0.0% strongly), on element ${PATH}`,
    });
  });

  it("in place only where the element's bounds hold the point: its top-left corner does, one past its right or bottom edge does not", async () => {
    const png = await draw([{ label: 'Save', x: 100, y: 100 }]);
    const corner = await recordedAt(png, 100, 100, { element });
    expect(await findTarget(corner.target, await now(png), deps(corner.files, { kind: 'found', element: node(SAVE) }))).toMatchObject({ rule: 'in-place', point: { x: 1100, y: 200 } });
    const last = await recordedAt(png, 219, 129, { element });
    expect(await findTarget(last.target, await now(png), deps(last.files, { kind: 'found', element: node(SAVE) }))).toMatchObject({ rule: 'in-place', point: { x: 1219, y: 229 } });
    // The element now starts one pixel right of / below the point: not under it, so the element rule places it (clamped into the element).
    for (const [dx, dy] of [[1, 0], [0, 1]] as const) {
      const moved = { ...SAVE, x: SAVE.x + dx, y: SAVE.y + dy };
      expect(await findTarget(corner.target, await now(png), deps(corner.files, { kind: 'found', element: node(moved) }))).toEqual({ kind: 'found', rule: 'element', point: { x: moved.x, y: moved.y }, detail: `element ${PATH}` });
    }
    for (const [dx, dy] of [[-1, 0], [0, -1]] as const) {
      const moved = { ...SAVE, x: SAVE.x + dx, y: SAVE.y + dy };
      expect(await findTarget(last.target, await now(png), deps(last.files, { kind: 'found', element: node(moved) }))).toMatchObject({ rule: 'element' });
    }
  });

  it('an element found without bounds, or not visible, is missing; no tree now names the path and why', async () => {
    const png = await draw([{ label: 'Save', x: 100, y: 100 }]);
    const { target, files } = await recordedAt(png, 160, 115, { element });
    const notShown = { kind: 'missing', tried: [`element ${PATH}: found but not visible on screen`] };
    expect(await findTarget(target, await now(png), deps(files, { kind: 'found', element: node(undefined) }))).toEqual(notShown);
    expect(await findTarget(target, await now(png), deps(files, { kind: 'found', element: node(SAVE, ['enabled']) }))).toEqual(notShown);
    expect(await findTarget(target, await now(png), deps(files, { kind: 'none', reason: 'no-bus', detail: 'no bus' }))).toEqual({
      kind: 'missing',
      tried: [`element: the step recorded ${PATH}, and no accessibility tree answers now (no bus)`],
    });
  });

  it('a small mark inside the unchanged button (a tick: 20 pixels) is not the recorded pixels, in place or anywhere', async () => {
    const png = await draw([{ label: 'Save', x: 100, y: 100 }]);
    const { target, files } = await recordedAt(png, 160, 115);
    const ticked = await draw([{ label: 'Save', x: 100, y: 100, mark: { dx: 85, dy: 8, w: 4, h: 5 } }]);
    const found = await findTarget(target, await now(ticked), deps(files));
    expect(found.kind).toBe('missing');
    if (found.kind !== 'missing') return;
    const m = /^image patch: the closest place differs \(mean (0\.\d{3}), (\d+\.\d)% of its pixels strongly; allowed 0\.008, 0\.5%\)$/.exec(found.tried[0]!);
    expect(m, found.tried[0]).not.toBeNull();
    // Under the mean limit, over the strong one: the strong share alone refuses it.
    expect(Number(m![1])).toBeLessThanOrEqual(0.008);
    expect(Number(m![2])).toBeGreaterThan(0.5);
  });

  it('the same button in another grey is not the recorded pixels either (mean over the limit, nothing strongly)', async () => {
    const png = await draw([{ label: 'Save', x: 100, y: 100 }]);
    const { target, files } = await recordedAt(png, 160, 115);
    const found = await findTarget(target, await now(await draw([{ label: 'Save', x: 100, y: 100, fill: '#c4c4c4' }])), deps(files));
    expect(found).toMatchObject({ kind: 'missing', tried: [expect.stringMatching(/^image patch: the closest place differs \(mean 0\.(?!00)\d{3}, 0\.0% of/)] });
  });

  it('3. patch: the point keeps its offset from the patch centre, in desktop coordinates', async () => {
    const before = await draw([{ label: 'Save', x: 100, y: 100 }]);
    // Clicked 20 px left of and 5 px above the patch's centre.
    const { target, files } = await recordedAt(before, 140, 110, {}, { x: 160, y: 115 });
    const found = await findTarget(target, await now(await draw([{ label: 'Save', x: 300, y: 250 }])), deps(files));
    expect(found).toEqual({ kind: 'found', rule: 'patch', point: { x: 1340, y: 360 }, detail: 'image patch (difference 0.000, 0.0% strongly)' });
  });

  it('a screen smaller than the patch: no place to compare, and the target is missing', async () => {
    const png = await draw([{ label: 'Save', x: 100, y: 100 }]);
    const { target, files } = await recordedAt(png, 160, 115);
    const tiny: GreyImage = { width: 40, height: 20, data: new Uint8Array(800).fill(255) } as GreyImage;
    expect(await findTarget(target, await now(png, tiny), deps(files))).toEqual({ kind: 'missing', tried: ['image patch: no place to compare'] });
  });

  it(`a patch of contrast exactly ${PLAIN_CONTRAST} is compared (not plain): when it does not match, the window rule is not used`, async () => {
    const before = await draw([{ label: 'Save', x: 100, y: 100 }]);
    const window = { title: 'Editor', app: 'gedit', bounds: { x: AT.x, y: AT.y, width: W, height: H }, offset: { x: 160, y: 115 } };
    const { target, files } = await recordedAt(before, 160, 115, { window });
    const tree = treeWith('gedit', 'Editor');
    const edge = { ...target, patch: { ...target.patch!, contrast: PLAIN_CONTRAST } };
    const found = await findTarget(edge, await now(await draw([{ label: 'Send', x: 100, y: 100 }])), deps(files, undefined, tree));
    expect(found).toMatchObject({ kind: 'missing', tried: [expect.stringMatching(/^image patch: the closest place differs/)] });
    // Just under it, the patch is plain and the window decides.
    const plain = { ...target, patch: { ...target.patch!, contrast: PLAIN_CONTRAST - 0.01 } };
    expect(await findTarget(plain, await now(await draw([])), deps(files, undefined, tree))).toEqual({
      kind: 'found',
      rule: 'window',
      point: { x: 1360, y: 365 },
      detail: 'window-relative point in "Editor"',
    });
  });

  it('4. window: the window must match by title and app; not found, the target is missing and says which window', async () => {
    const target: TrajectoryTarget = { point: { x: 1160, y: 215 }, window: { title: 'Editor', app: 'gedit', bounds: { x: AT.x, y: AT.y, width: W, height: H }, offset: { x: 160, y: 115 } } };
    const missing = { kind: 'missing', tried: ['window "Editor" (gedit): not found'] };
    const blank = await now(await draw([]));
    expect(await findTarget(target, blank, deps(new Map(), undefined, treeWith('mousepad', 'Editor')))).toEqual(missing);
    expect(await findTarget(target, blank, deps(new Map(), undefined, treeWith('gedit', 'Other')))).toEqual(missing);
    expect(await findTarget(target, blank, deps(new Map()))).toEqual(missing);
    // Every window is asked for, its root only (the window's own bounds): the recorded one need not be focused.
    const asked: unknown[] = [];
    const recording = deps(new Map(), undefined, treeWith('gedit', 'Editor'));
    const elementTree = recording.computer.elementTree;
    recording.computer.elementTree = async (query) => (asked.push(query), elementTree(query));
    expect(await findTarget(target, blank, recording)).toMatchObject({ kind: 'found', rule: 'window', point: { x: 1360, y: 365 } });
    expect(asked).toEqual([{ scope: 'all', maxDepth: 0 }]);
  });

  it('5. point: nothing but the point was recorded', async () => {
    expect(await findTarget({ point: { x: 1005, y: 107 } }, await now(await draw([])), deps(new Map()))).toEqual({
      kind: 'found',
      rule: 'point',
      point: { x: 1005, y: 107 },
      detail: 'the recorded point (nothing else was recorded)',
    });
  });
});

describe('2. text: the recorded words found again by OCR', () => {
  // "Save" was read at (480, 300) 84×28 in the screen (centre 522, 314); the click was 10 px right of and 4 px below that centre.
  const bbox = { x: AT.x + 480, y: AT.y + 300, width: 84, height: 28 };
  const target: TrajectoryTarget = { point: { x: AT.x + 532, y: AT.y + 318 }, text: { text: 'Save', bbox } };

  it('where the words are now, the nearest of two to where they were, keeping the point offset', async () => {
    // OCR reads the two at centres (85, 67) and (465, 347) in the screen.
    const png = await draw([], [['Save', 40, 80], ['Save', 420, 360]]);
    const found = await findTarget(target, await now(png), deps(new Map()));
    expect(found).toMatchObject({ kind: 'found', rule: 'text', detail: 'text "Save"' });
    if (found.kind !== 'found') return;
    expect(Math.abs(found.point.x - (AT.x + 475))).toBeLessThanOrEqual(3);
    expect(Math.abs(found.point.y - (AT.y + 351))).toBeLessThanOrEqual(3);
  }, 60_000);

  it('words no longer on the screen: missing, and a recorded window is not used instead', async () => {
    const png = await draw([], [['Open', 420, 360]]);
    const withWindow = { ...target, window: { title: 'Editor', app: 'gedit', bounds: { x: AT.x, y: AT.y, width: W, height: H }, offset: { x: 532, y: 318 } } };
    expect(await findTarget(withWindow, await now(png), deps(new Map(), undefined, treeWith('gedit', 'Editor')))).toEqual({ kind: 'missing', tried: ['text "Save": not on the screen'] });
  }, 60_000);
});

function treeWith(app: string, title: string): ElementTreeResult {
  return {
    kind: 'tree',
    source: 'fake',
    scope: 'all',
    nodeCount: 1,
    truncated: false,
    windows: [{ app, root: { path: `${app} > frame "${title}"`, role: 'frame', name: title, states: ['visible'], actions: [], bounds: { x: AT.x + 200, y: AT.y + 150, width: 300, height: 200 }, children: [] } }],
  } as ElementTreeResult;
}
