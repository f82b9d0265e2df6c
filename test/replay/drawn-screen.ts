/** The drawn screen the replay's turn-by-turn tests share: a white 640×400 screen with a grey Save button and a status line. */
import sharp from 'sharp';
import type { ObservationRecord } from '../../src/shared/observation.js';
import type { TurnRequest } from '../../src/main/agent/providers/types.js';

export const W = 640;
export const H = 400;

/** The screen with this status line (and a dark dialog over it). */
export async function screen(status: string, dialog = false): Promise<Buffer> {
  const over = dialog ? '<rect x="250" y="50" width="360" height="300" fill="#333"/>' : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="white"/><rect x="100" y="100" width="120" height="30" fill="#e6e6e6" stroke="#666"/><text x="160" y="120" font-family="DejaVu Sans" font-size="14" text-anchor="middle">Save</text><text x="40" y="300" font-family="DejaVu Sans" font-size="40">${status}</text>${over}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** How that screen was taken: the whole display, at its own size. */
export const record: ObservationRecord = {
  id: 'obs',
  takenAt: 0,
  display: { id: 'd1', name: '', bounds: { x: 0, y: 0, width: W, height: H }, scaleFactor: 1, primary: true },
  capture: { width: W, height: H },
  region: { x: 0, y: 0, width: W, height: H },
  image: { width: W, height: H, format: 'png' },
};

/** The runner's request for a turn on this screen: the screenshot as the latest image. */
export function requestOn(png: Buffer): TurnRequest {
  return { system: '', tools: [], observation: record, transcript: [{ role: 'user', text: 'screen', image: { observationId: 'obs', mediaType: 'image/png', width: W, height: H, load: async () => png } }] };
}
