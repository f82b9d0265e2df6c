import { randomUUID } from 'node:crypto';
import { throwIfAborted } from '../../shared/abort.js';
import type { DisplayInfo, ObservationRecord } from '../../shared/observation.js';
import { capture, type CaptureBackend } from '../capture.js';
import { globalToCapture } from '../coords.js';
import type { Devices } from '../devices.js';
import { grabRaw, grabRegion } from '../display-grab.js';
import { pickDisplay } from '../displays.js';
import type { FrameCache } from '../frame-cache.js';
import { encodeGrab } from '../image.js';
import type { GreyImage } from '../screen-match.js';
import type { Observation, ObserveOptions } from '../types.js';
import type { ScreenState } from './screen-state.js';

/**
 * How old settle's last frame may be and still serve as the screenshot. The screen had
 * been still for quietMs when it was taken; reusing it a few ms later is as safe as
 * the settle verdict itself.
 */
const SETTLED_FRAME_REUSE_MS = 50;

/** A frame's encodings, kept while the same pixels come again (frame-cache.ts). */
export type EncodedFrame = { image: Buffer; thumb: Promise<Buffer>; info: ObservationRecord['image']; grey?: GreyImage };

export interface ObserveDeps {
  backend: CaptureBackend;
  devices: Devices;
  screen: ScreenState;
  frames: FrameCache<EncodedFrame>;
}

/** The display an observation shows: the one asked for, else the one holding the region's corner, else the main one. */
function displayFor(all: DisplayInfo[], o: ObserveOptions): DisplayInfo {
  if (o.displayId !== undefined) return pickDisplay(all, o.displayId);
  const region = o.region;
  if (!region) return pickDisplay(all);
  const holding = all.find(
    (d) => region.x >= d.bounds.x && region.y >= d.bounds.y && region.x < d.bounds.x + d.bounds.width && region.y < d.bounds.y + d.bounds.height,
  );
  return holding ?? pickDisplay(all);
}

/** A screenshot for the model and the UI: settle's last frame when it is fresh, else a new grab; encodings reused for the same pixels. */
export async function observeScreen(deps: ObserveDeps, o: ObserveOptions): Promise<Observation> {
  const { backend, devices, screen, frames } = deps;
  const display = displayFor(await screen.displays.list(), o);
  throwIfAborted(o.signal);
  const reusable = screen.takeSettled();
  const wholeNut = backend === 'nut' && !o.region;
  const fresh = wholeNut && reusable?.displayId === display.id && performance.now() - reusable.at <= SETTLED_FRAME_REUSE_MS;
  if (reusable && !fresh) reusable.grab.frame.release();
  const [grabbed, cursor] = await Promise.all([
    wholeNut ? (fresh ? reusable.grab : screen.grabber.grab(display)) : capture(display, o.region, backend),
    devices.position().catch(() => undefined),
  ]);
  try {
    // The same pixels as the last whole-display grab: same frame id, encodings reused.
    const encodingKey = JSON.stringify([o.target, o.thumbLongEdge ?? 320, o.target.drawCursor ? cursor : null, o.grey === true]);
    const frame = 'rgb' in grabbed ? undefined : frames.identify(display.id, grabbed.frame, encodingKey);
    const raw = 'rgb' in grabbed ? grabbed.rgb : grabRaw(grabbed);
    const recordBase = {
      display,
      capture: { width: raw.width, height: raw.height },
      region: 'rgb' in grabbed ? grabbed.region : grabRegion(display, grabbed),
    };
    const recordOf = (image: ObservationRecord['image']): ObservationRecord => ({
      id: randomUUID(),
      takenAt: Date.now(),
      ...recordBase,
      image,
      ...(cursor ? { cursor } : {}),
    });
    if (frame?.cached) {
      const { info, image, thumb, grey } = frame.cached;
      return { record: recordOf(info), image, thumb, frameId: frame.frameId, ...(grey ? { grey } : {}) };
    }
    // The pointer in the grab's pixels; encodeForModel maps it to the model image.
    const cursorPx = cursor ? globalToCapture(cursor, recordBase) : undefined;
    const { image, thumb, grey } = await encodeGrab(raw, 'rgb' in grabbed ? undefined : grabbed.byteWidth, o.target, {
      ...(cursorPx ? { cursor: cursorPx } : {}),
      thumbLongEdge: o.thumbLongEdge ?? 320,
      ...(o.grey ? { grey: true } : {}),
    });
    const imageInfo = { width: image.width, height: image.height, format: image.format };
    if (frame) frames.remember(frame.frameId, encodingKey, { image: image.data, thumb, info: imageInfo, ...(grey ? { grey } : {}) });
    return { record: recordOf(imageInfo), image: image.data, thumb, ...(frame ? { frameId: frame.frameId } : {}), ...(grey ? { grey } : {}) };
  } finally {
    // Encoded (or found in the cache): this call's hold on the pixels ends here.
    if (!('rgb' in grabbed)) grabbed.frame.release();
  }
}
