import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { ActiveWindow } from '../../src/os-control/active-window.js';
import { targetSize } from '../../src/os-control/image.js';
import type { Computer, Observation, ObserveOptions } from '../../src/os-control/types.js';
import { abortError, sleep } from '../../src/shared/abort.js';
import { actionPoints, type Action, type Point } from '../../src/shared/actions.js';
import type { DisplayInfo } from '../../src/shared/observation.js';
import { ElementTreeOptionsSchema, walkElements, type ElementLookup, type ElementNode, type ElementTreeOptions, type ElementTreeResult, type ElementWindow } from '../../src/shared/elements.js';

/** A copy of `node` cut at `depth` levels below it (the fake's maxDepth). */
function cut(node: ElementNode, depth: number): ElementNode {
  if (depth > 0) return { ...node, children: node.children.map((c) => cut(c, depth - 1)) };
  const { children, ...rest } = node;
  return children.length ? { ...rest, children: [], omittedChildren: children.length } : { ...rest, children: [] };
}

function fakeTree(windows: ElementWindow[] | undefined, options: ElementTreeOptions): ElementTreeResult {
  const request = ElementTreeOptionsSchema.parse(options);
  if (!windows?.length) return { kind: 'none', source: 'fake', reason: 'not-exposed', detail: 'the focused window exposes no accessibility tree (fake)' };
  const pattern = request.windowPattern !== undefined ? new RegExp(request.windowPattern, 'i') : undefined;
  const picked = pattern ? windows.filter((w) => pattern.test(w.root.name) || pattern.test(w.app)) : request.scope === 'all' ? windows : windows.slice(0, 1);
  if (!picked.length) return { kind: 'none', source: 'fake', reason: 'no-window', detail: `no window matches /${request.windowPattern}/i (fake)` };
  const out = picked.map((w) => ({ ...w, root: cut(w.root, request.maxDepth) }));
  return { kind: 'tree', source: 'fake', scope: request.scope, windows: out, nodeCount: [...walkElements(out.map((w) => w.root))].length, truncated: false };
}

function fakeLookup(windows: ElementWindow[] | undefined, path: string): ElementLookup {
  if (!windows?.length) return { kind: 'none', reason: 'not-exposed', detail: 'no tree (fake)' };
  const element = [...walkElements(windows.map((w) => w.root))].find((n) => n.path === path);
  return element ? { kind: 'found', element: cut(element, 0) } : { kind: 'missing', matched: '', detail: `no element at ${path} (fake)` };
}

/**
 * A Computer without a display: for the runner's own logic (ordering, limits, stop
 * paths, what the rules are told) in fast tests that need no X server. It records
 * every call in order and answers like a quiet screen. It is never a stand-in for
 * the real desktop tests, which assert what a real app received.
 */
export interface FakeComputer extends Computer {
  /** Every call, in order: "observe", "perform:left_click", "settle", "activeWindow", "releaseAll". */
  readonly calls: string[];
  /** The actions performed, in order (global desktop coordinates, as the runner sent them). */
  readonly performed: Action[];
  /** The focused window the rules are told about (undefined: the OS cannot say). */
  window: ActiveWindow | undefined;
  /** Make the next performs wait this long (abortable), to stop a run mid-action. */
  performDelayMs: number;
  /** Make releaseAll fail with this message (a stuck input device). */
  releaseAllFails: string | undefined;
  /**
   * Whether a performed action changes the screen (default: every one does). Each change
   * makes the next screenshot different pixels with a new frameId, as the real capture reports.
   */
  changesScreen: (action: Action) => boolean;
  /**
   * The accessibility tree this fake publishes: windows as `elementTree({ scope: 'all' })`
   * returns them (the first window is the focused one). Undefined: the focused app exposes
   * nothing (like xcalc).
   */
  elements: ElementWindow[] | undefined;
}

const DISPLAY: DisplayInfo = { id: 'fake-0', name: 'fake', bounds: { x: 0, y: 0, width: 1280, height: 800 }, scaleFactor: 1, primary: true };

const images = new Map<string, Promise<Buffer>>();
/** A real JPEG of the given size (one flat frame, its shade from `frame`), so providers and logs handle real bytes. */
function jpeg(width: number, height: number, frame = 0): Promise<Buffer> {
  const key = `${width}x${height}@${frame}`;
  let image = images.get(key);
  if (!image) {
    const shade = 200 - (frame % 150);
    image = sharp({ create: { width, height, channels: 3, background: { r: shade, g: 200, b: 200 } } }).jpeg({ quality: 60 }).toBuffer();
    if (images.size > 500) images.clear();
    images.set(key, image);
  }
  return image;
}

/** Where a pointer action leaves the pointer (the last of its screen points; zoom is not a move). */
function pointerEnd(action: Action): Point | undefined {
  return action.type === 'zoom' ? undefined : actionPoints(action).at(-1);
}

export function createFakeComputer(display: DisplayInfo = DISPLAY): FakeComputer {
  let pointer: Point = { x: 0, y: 0 };
  let frame = 0;
  const fake: FakeComputer = {
    calls: [],
    performed: [],
    window: undefined,
    performDelayMs: 0,
    releaseAllFails: undefined,
    changesScreen: () => true,
    elements: undefined,
    listDisplays: async () => [display],
    async observe(options: ObserveOptions): Promise<Observation> {
      fake.calls.push('observe');
      const region = options.region ?? display.bounds;
      const capture = { width: Math.round(region.width * display.scaleFactor), height: Math.round(region.height * display.scaleFactor) };
      const size = targetSize(capture.width, capture.height, options.target);
      return {
        record: {
          id: randomUUID(),
          takenAt: Date.now(),
          display,
          capture,
          region,
          image: { width: size.width, height: size.height, format: 'jpeg' },
          cursor: pointer,
        },
        image: await jpeg(size.width, size.height, options.region ? frame + 1000 : frame),
        thumb: jpeg(160, 100),
        frameId: `${options.region ? `zoom-${JSON.stringify(options.region)}-` : ''}${frame}`,
        // The capture in grey when asked: every pixel the frame number (what a test can check it got).
        ...(options.grey ? { grey: { data: new Uint8Array(capture.width * capture.height).fill(frame % 256), width: capture.width, height: capture.height } } : {}),
      };
    },
    async perform(action: Action, signal: AbortSignal) {
      fake.calls.push(`perform:${action.type}`);
      if (signal.aborted) throw abortError(signal);
      if (fake.performDelayMs > 0) await sleep(fake.performDelayMs, signal);
      fake.performed.push(action);
      if (fake.changesScreen(action)) frame += 1;
      pointer = pointerEnd(action) ?? pointer;
      return {};
    },
    async settle() {
      fake.calls.push('settle');
      return { waitedMs: 0, settled: true };
    },
    cursorPosition: async () => pointer,
    async activeWindow() {
      fake.calls.push('activeWindow');
      return fake.window;
    },
    async releaseAll() {
      fake.calls.push('releaseAll');
      if (fake.releaseAllFails) throw new Error(fake.releaseAllFails);
    },
    async elementTree(options = {}) {
      fake.calls.push('elementTree');
      return fakeTree(fake.elements, options);
    },
    async findElement(path: string) {
      fake.calls.push('findElement');
      return fakeLookup(fake.elements, path);
    },
  };
  return fake;
}
