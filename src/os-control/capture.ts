/**
 * Screen capture of a region. It grabs in-process through nut.js (libnut: XGetImage on
 * X11), which returns BGRA rows with alpha 0; image.ts fixes the channels. The fallback
 * is screenshot-desktop (an external program per shot), for when libnut cannot load.
 * Whole-display grabs (settle, observe) go through display-grab.ts.
 */
import sharp from 'sharp';
import type { Rect } from '../shared/actions.js';
import type { DisplayInfo } from '../shared/observation.js';
import { regionToDisplayPixels } from './coords.js';
import { toRgb, type RawImage } from './image.js';
import { loadNut } from './native.js';

export type CaptureBackend = 'nut' | 'screenshot-desktop';

export interface Captured {
  /** Tightly packed RGB. */
  rgb: RawImage;
  /** The global logical region the pixels cover (whole pixels of the display). */
  region: Rect;
}

/** The logical region covered by whole physical pixels of `px` on `display`. */
export function pxToRegion(px: Rect, display: DisplayInfo): Rect {
  const s = display.scaleFactor;
  return { x: display.bounds.x + px.x / s, y: display.bounds.y + px.y / s, width: px.width / s, height: px.height / s };
}

/** One nut.js grab as it comes from libnut (BGRA rows on X11). */
export interface NutFrame {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
  byteWidth: number;
  colorMode: number;
}

/** Grabs a whole display through libnut (display-grab.ts's way where our X connection cannot be had). */
export async function grabDisplayNut(display: DisplayInfo): Promise<NutFrame> {
  const nut = await loadNut();
  const { x, y, width, height } = display.bounds;
  return nut.providerRegistry.getScreen().grabScreenRegion(new nut.Region(x, y, width, height));
}

/** A libnut grab's pixels as they are (BGRA on X11). */
function nutFrameRaw(grab: NutFrame): RawImage {
  return { data: grab.data, width: grab.width, height: grab.height, channels: grab.channels === 3 ? 3 : 4, order: grab.colorMode === 1 ? 'rgb' : 'bgr' };
}

async function captureNut(display: DisplayInfo, px: Rect): Promise<RawImage> {
  const nut = await loadNut();
  const screen = nut.providerRegistry.getScreen();
  // nut.js takes logical coordinates and returns physical pixels (pixelDensity on HiDPI macOS).
  const s = display.scaleFactor;
  const grab = await screen.grabScreenRegion(
    new nut.Region(display.bounds.x + px.x / s, display.bounds.y + px.y / s, px.width / s, px.height / s),
  );
  return nutFrameToRgb(grab);
}

function nutFrameToRgb(grab: NutFrame): RawImage {
  return toRgb(nutFrameRaw(grab), grab.byteWidth);
}

async function captureScreenshotDesktop(display: DisplayInfo, px: Rect): Promise<RawImage> {
  const { default: screenshot } = await import('screenshot-desktop');
  const png = await screenshot({ format: 'png' });
  // screenshot-desktop on X11 grabs the whole X screen: global pixels from (0, 0).
  const left = Math.round(display.bounds.x * display.scaleFactor) + px.x;
  const top = Math.round(display.bounds.y * display.scaleFactor) + px.y;
  const { data, info } = await sharp(png)
    .extract({ left, top, width: px.width, height: px.height })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3, order: 'rgb' };
}

/**
 * Captures `region` (global logical coordinates; the whole display when omitted) of
 * `display` at full physical resolution.
 */
export async function capture(display: DisplayInfo, region: Rect | undefined, backend: CaptureBackend = 'nut'): Promise<Captured> {
  const px = region
    ? regionToDisplayPixels(region, display)
    : { x: 0, y: 0, width: Math.round(display.bounds.width * display.scaleFactor), height: Math.round(display.bounds.height * display.scaleFactor) };
  const rgb = backend === 'nut' ? await captureNut(display, px) : await captureScreenshotDesktop(display, px);
  return { rgb, region: pxToRegion({ ...px, width: rgb.width, height: rgb.height }, display) };
}
