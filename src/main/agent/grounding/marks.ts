/**
 * Set-of-marks: a copy of the screenshot with each listed element's box outlined and its
 * id drawn at the box's top-left corner, for models that name a target better than they
 * read its coordinates (profile `grounding: elements`). It replaces the plain screenshot
 * in the conversation — never both, which would double the image tokens — and is drawn
 * in the screenshot's own pixels and format, so its coordinate space is unchanged.
 */
import sharp from 'sharp';
import type { ObservationRecord } from '../../../shared/observation.js';
import type { GroundedElement } from './element-list.js';

/** Colours that stay readable on light and dark windows: a dark label box, a bright outline. */
const OUTLINE = '#ff2d95';
const LABEL_FILL = '#1b1b1f';
const LABEL_TEXT = '#ffffff';

const n = (v: number) => (Math.round(v * 10) / 10).toString();

/** The SVG layer of the marks (pure, for tests). */
export function marksSvg(elements: readonly GroundedElement[], size: { width: number; height: number }): string {
  // 11 px digits on a 1280-wide image; larger screenshots get proportionally larger labels.
  const font = Math.max(10, Math.round(size.width / 116));
  const parts: string[] = [];
  for (const e of elements) {
    const b = e.box;
    const label = String(e.id);
    const w = label.length * font * 0.62 + font * 0.5;
    const h = font * 1.25;
    const lx = Math.min(Math.max(0, b.x), size.width - w);
    const ly = Math.min(Math.max(0, b.y), size.height - h);
    parts.push(
      `<rect x="${n(b.x)}" y="${n(b.y)}" width="${n(b.width)}" height="${n(b.height)}" fill="none" stroke="${OUTLINE}" stroke-width="2"/>` +
        `<rect x="${n(lx)}" y="${n(ly)}" width="${n(w)}" height="${n(h)}" fill="${LABEL_FILL}" fill-opacity="0.85"/>` +
        `<text x="${n(lx + font * 0.25)}" y="${n(ly + h * 0.8)}" font-family="DejaVu Sans Mono, monospace" font-size="${font}" font-weight="bold" fill="${LABEL_TEXT}">${label}</text>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}">${parts.join('')}</svg>`;
}

/** The screenshot with the marks drawn, in the same format and size. */
export async function drawMarks(image: Buffer, record: ObservationRecord, elements: readonly GroundedElement[], quality: number | undefined): Promise<Buffer> {
  const svg = Buffer.from(marksSvg(elements, record.image));
  const img = sharp(image).composite([{ input: svg, left: 0, top: 0 }]);
  const q = quality !== undefined ? { quality } : {};
  switch (record.image.format) {
    case 'jpeg':
      return img.jpeg(q).toBuffer();
    case 'webp':
      return img.webp(q).toBuffer();
    case 'png':
      return img.png().toBuffer();
  }
}
