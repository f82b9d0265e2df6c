import type { Point, Rect } from '../shared/actions.js';
import type { CheckedAction } from './check-action.js';
import type { DisplayInfo, ObservationRecord } from '../shared/observation.js';
import type { ActiveWindow } from './active-window.js';
import type { ElementLookup, ElementTreeOptions, ElementTreeResult } from '../shared/elements.js';
import type { GreyImage } from './screen-match.js';

/** How big, and in which format, the image for a model must be. */
export interface ImageTarget {
  format: 'jpeg' | 'png' | 'webp';
  /** JPEG/WebP quality, 1–100. */
  quality?: number;
  /** Cap on the long edge in pixels. */
  maxLongEdge?: number;
  /** Cap on width × height. */
  maxPixels?: number;
  /** Smart resize (Qwen-VL / UI-TARS): both sides a multiple of this (28 or 32). */
  multipleOf?: number;
  /** Cap on the number of multipleOf × multipleOf patches (Claude's 1568-patch rule uses 28). */
  maxPatches?: number;
  /** Exact size; overrides the caps (used for fixed XGA/WXGA style targets). */
  exact?: { width: number; height: number };
  /** Draw the mouse pointer into the image. */
  drawCursor?: boolean;
}

export interface Observation {
  record: ObservationRecord;
  /** The encoded image for the model (record.image describes it). */
  image: Buffer;
  /**
   * A small JPEG for the UI's thumbnail stream. It is made after the model image, so it
   * may still be on its way when observe returns (the model's request does not wait for it).
   */
  thumb: Promise<Buffer>;
  /**
   * Equal ids mean equal pixels: the same display (or region) captured again without a
   * single pixel changing gets the id of the earlier capture. The runner sends "the
   * screen did not change" instead of an identical image. Absent when unknown.
   */
  frameId?: string;
  /** The captured pixels in grey, at capture size: only when asked for (ObserveOptions.grey). */
  grey?: GreyImage;
}

export interface ObserveOptions {
  /** Which display; the primary one when omitted. */
  displayId?: string;
  target: ImageTarget;
  /** Long edge of the UI thumbnail; default 320. */
  thumbLongEdge?: number;
  /**
   * Also the captured pixels in grey (Observation.grey), for a caller that compares
   * screens itself (a replay): made from the grab beside the model image, ~3 ms, where
   * decoding the encoded image again costs ~12 ms and adds its noise.
   */
  grey?: boolean;
  /** Capture only this region (global logical coordinates), at full resolution: zoom. */
  region?: Rect;
  signal?: AbortSignal;
}

export interface SettleOptions {
  /** Never return before this many ms. */
  minMs?: number;
  /** Give up waiting after this many ms. */
  maxMs?: number;
  /** The screen counts as settled once no frame has changed for this many ms (default 75). */
  quietMs?: number;
  signal?: AbortSignal;
  displayId?: string;
}

export interface SettleResult {
  waitedMs: number;
  /** False when maxMs passed while the screen still changed. */
  settled: boolean;
}

export interface PerformResult {
  /** A text result for the model, e.g. the cursor position. */
  output?: string;
}

/**
 * The computer, and nothing else. Every method that moves the mouse or presses a key
 * takes an AbortSignal; on abort or error every held key and button is released.
 */
export interface Computer {
  listDisplays(): Promise<DisplayInfo[]>;
  observe(options: ObserveOptions): Promise<Observation>;
  /**
   * Perform one input or observe action whose points are in global desktop
   * coordinates (already mapped through the coordinate pipeline).
   * Shell, ask_user and finish are not the computer's business. Only a checked action
   * (check-action.ts) is accepted: there is no unchecked path to the keyboard.
   */
  perform(action: CheckedAction, signal: AbortSignal): Promise<PerformResult>;
  settle(options?: SettleOptions): Promise<SettleResult>;
  cursorPosition(): Promise<Point>;
  /**
   * The focused window (title, application), for the risk and user rules; undefined
   * when the OS cannot say. Never throws: an unknown window is judged conservatively.
   */
  activeWindow(): Promise<ActiveWindow | undefined>;
  /** Release every key and mouse button this process may hold. Safe to call any time. */
  releaseAll(): Promise<void>;
  /**
   * The accessibility tree of the focused window (or of all windows): roles, names,
   * values, states, actions and bounds in global desktop points (os-control/accessibility).
   * An app that exposes nothing, or no accessibility bus, is `{ kind: 'none' }` with the
   * reason, never an exception.
   */
  elementTree(options?: ElementTreeOptions): Promise<ElementTreeResult>;
  /** The element a stable path (from an earlier tree) names, read again now. */
  findElement(path: string): Promise<ElementLookup>;
}
