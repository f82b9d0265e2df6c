import { actionMark, describeAction, type Action, type Point } from '../../../shared/actions.js';
import { assertNever } from '../../../shared/assert-never.js';

/**
 * The action drawn on the screenshot the model saw: a crosshair for clicks and moves,
 * an arrow for drags, a marker with a direction arrow for scrolls, a text label for
 * typing and keys. One SVG, in the pixel space of that image, shared by the HTML report
 * (laid over the <img>) and the animated replay (composited with sharp).
 */

/** Saturated magenta: rare in real UIs, so the overlay stands out and tests can find it. */
export const OVERLAY_COLOR = '#ff00c8';
export const OVERLAY_RGB = { r: 0xff, g: 0x00, b: 0xc8 } as const;
const HALO = '#ffffff';

export interface ImageSize {
  width: number;
  height: number;
}

export interface OverlayOptions {
  /** Where the pointer was, in image pixels: typed text and key labels are placed next to it. */
  cursor?: Point;
  /** Numbers the marks when a step has several actions ("1", "2", …). */
  index?: number;
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const n = (v: number) => Math.round(v * 10) / 10;

/** Sizes scale with the image so a mark reads the same on a thumbnail and a 4K capture. */
function metrics(size: ImageSize) {
  const base = Math.max(size.width, size.height);
  return {
    r: Math.max(10, base / 60),
    stroke: Math.max(2, base / 500),
    dot: Math.max(4, base / 250),
    font: Math.max(12, base / 70),
  };
}

function label(text: string, at: Point, size: ImageSize): string {
  const m = metrics(size);
  const shown = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  const w = Math.min(size.width - 4, shown.length * m.font * 0.62 + m.font);
  const h = m.font * 1.6;
  const x = Math.max(2, Math.min(at.x, size.width - w - 2));
  const y = Math.max(2, Math.min(at.y, size.height - h - 2));
  return (
    `<g class="dp-label"><rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" rx="${n(m.font / 3)}" fill="${OVERLAY_COLOR}" fill-opacity="0.92"/>` +
    `<text x="${n(x + m.font / 2)}" y="${n(y + h * 0.7)}" font-family="DejaVu Sans, Arial, sans-serif" font-size="${n(m.font)}" fill="#ffffff">${esc(shown)}</text></g>`
  );
}

function crosshair(p: Point, size: ImageSize, badge?: string): string {
  const m = metrics(size);
  const arm = m.r * 1.8;
  const lines = (color: string, w: number) =>
    `<circle cx="${n(p.x)}" cy="${n(p.y)}" r="${n(m.r)}" fill="none" stroke="${color}" stroke-width="${n(w)}"/>` +
    `<path d="M${n(p.x - arm)} ${n(p.y)}H${n(p.x - m.r / 2)}M${n(p.x + m.r / 2)} ${n(p.y)}H${n(p.x + arm)}M${n(p.x)} ${n(p.y - arm)}V${n(p.y - m.r / 2)}M${n(p.x)} ${n(p.y + m.r / 2)}V${n(p.y + arm)}" stroke="${color}" stroke-width="${n(w)}"/>`;
  return (
    `<g class="dp-crosshair">${lines(HALO, m.stroke * 2.5)}${lines(OVERLAY_COLOR, m.stroke)}` +
    `<circle cx="${n(p.x)}" cy="${n(p.y)}" r="${n(m.dot)}" fill="${OVERLAY_COLOR}"/>` +
    (badge ? label(badge, { x: p.x + m.r * 1.2, y: p.y + m.r * 0.6 }, size) : '') +
    '</g>'
  );
}

function arrowHead(from: Point, to: Point, len: number): string {
  const ang = Math.atan2(to.y - from.y, to.x - from.x);
  const a1 = ang + Math.PI * 0.85;
  const a2 = ang - Math.PI * 0.85;
  return `M${n(to.x)} ${n(to.y)}L${n(to.x + len * Math.cos(a1))} ${n(to.y + len * Math.sin(a1))}L${n(to.x + len * Math.cos(a2))} ${n(to.y + len * Math.sin(a2))}Z`;
}

function drag(path: Point[], size: ImageSize): string {
  const m = metrics(size);
  const d = path.map((p, i) => `${i ? 'L' : 'M'}${n(p.x)} ${n(p.y)}`).join('');
  const start = path[0]!;
  const end = path[path.length - 1]!;
  const prev = path[path.length - 2]!;
  return (
    `<g class="dp-drag"><path d="${d}" fill="none" stroke="${HALO}" stroke-width="${n(m.stroke * 3)}" stroke-linecap="round" stroke-linejoin="round"/>` +
    `<path d="${d}" fill="none" stroke="${OVERLAY_COLOR}" stroke-width="${n(m.stroke * 1.5)}" stroke-linecap="round" stroke-linejoin="round"/>` +
    `<path d="${arrowHead(prev, end, m.r * 1.4)}" fill="${OVERLAY_COLOR}" stroke="${HALO}" stroke-width="${n(m.stroke / 2)}"/>` +
    `<circle cx="${n(start.x)}" cy="${n(start.y)}" r="${n(m.dot)}" fill="${OVERLAY_COLOR}"/></g>`
  );
}

function scroll(p: Point, direction: 'up' | 'down' | 'left' | 'right', amount: number, size: ImageSize): string {
  const m = metrics(size);
  const len = m.r * 2.6;
  const v = { up: { x: 0, y: -1 }, down: { x: 0, y: 1 }, left: { x: -1, y: 0 }, right: { x: 1, y: 0 } }[direction];
  const from = { x: p.x + v.x * m.r * 1.1, y: p.y + v.y * m.r * 1.1 };
  const to = { x: p.x + v.x * len, y: p.y + v.y * len };
  return (
    `<g class="dp-scroll"><circle cx="${n(p.x)}" cy="${n(p.y)}" r="${n(m.r)}" fill="${OVERLAY_COLOR}" fill-opacity="0.35" stroke="${OVERLAY_COLOR}" stroke-width="${n(m.stroke)}"/>` +
    `<circle cx="${n(p.x)}" cy="${n(p.y)}" r="${n(m.dot)}" fill="${OVERLAY_COLOR}"/>` +
    `<path d="M${n(from.x)} ${n(from.y)}L${n(to.x)} ${n(to.y)}" stroke="${OVERLAY_COLOR}" stroke-width="${n(m.stroke * 1.5)}"/>` +
    `<path d="${arrowHead(from, to, m.r)}" fill="${OVERLAY_COLOR}"/>` +
    label(`scroll ${direction} ×${amount}`, { x: p.x + m.r * 1.3, y: p.y - m.r * 2.5 }, size) +
    '</g>'
  );
}

/** SVG elements (no <svg> wrapper) for one action on an image of `size`. */
export function overlayElements(action: Action, size: ImageSize, options: OverlayOptions = {}): string {
  const badge = options.index !== undefined ? String(options.index) : undefined;
  const near = options.cursor ?? { x: size.width * 0.03, y: size.height * 0.9 };
  const mark = actionMark(action);
  switch (mark.shape) {
    case 'point': {
      const tag = [badge, mark.tag].filter((t) => t !== undefined).join(' ');
      return crosshair(mark.at, size, tag || undefined);
    }
    case 'path':
      return drag(mark.path, size);
    case 'scroll':
      return scroll(mark.at, mark.direction, mark.amount, size);
    case 'region':
      return `<rect class="dp-zoom" x="${n(mark.rect.x)}" y="${n(mark.rect.y)}" width="${n(mark.rect.width)}" height="${n(mark.rect.height)}" fill="none" stroke="${OVERLAY_COLOR}" stroke-width="${n(metrics(size).stroke)}" stroke-dasharray="6 4"/>`;
    case 'text':
      return label(`⌨ ${mark.text}`, near, size);
    case 'keys':
      return label(`⌨ ${mark.verb ? `${mark.verb} ` : ''}${mark.keys}`, near, size);
    case 'note':
    case 'none':
      return label(describeAction(action), near, size);
    default:
      return assertNever(mark, 'action mark');
  }
}

/**
 * A whole SVG document for the actions of one step on an image of `size` (viewBox in
 * image pixels). `render` sets the output size when it differs (the replay's frames).
 */
export function overlaySvg(actions: readonly Action[], size: ImageSize, options: { cursor?: Point; render?: ImageSize } = {}): string {
  const out = options.render ?? size;
  const body = actions
    .map((a, i) => overlayElements(a, size, { cursor: options.cursor, index: actions.length > 1 ? i + 1 : undefined }))
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${out.width}" height="${out.height}" viewBox="0 0 ${size.width} ${size.height}" preserveAspectRatio="none">${body}</svg>`;
}
