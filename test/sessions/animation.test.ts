import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { actionPoints } from '../../src/shared/actions.js';
import { exportRun, OVERLAY_RGB } from '../../src/main/sessions/export/index.js';
import { IMAGE, makeScreenshot, tempHome, writeSampleRun } from './fixture.js';

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

async function pixel(file: string, page: number, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(file, { page }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (Math.round(y) * info.width + Math.round(x)) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

const near = (p: [number, number, number], q: { r: number; g: number; b: number }, tol: number) =>
  Math.abs(p[0] - q.r) <= tol && Math.abs(p[1] - q.g) <= tol && Math.abs(p[2] - q.b) <= tol;

describe.each(['gif', 'webp'] as const)('animated %s export (format animation, once called replay)', (format) => {
  it('has one frame per step with the action overlay drawn at the action point', async () => {
    const steps = 5;
    const { log, actions } = await writeSampleRun({ home, steps });
    const out = path.join(home, `replay.${format}`);
    await exportRun(log.dir, format, out);
    const meta = await sharp(out, { animated: true }).metadata();
    expect(meta.format).toBe(format);
    expect(meta.pages).toBe(steps);
    expect(meta.width).toBe(IMAGE.width);
    expect(meta.pageHeight).toBe(IMAGE.height);
    let checked = 0;
    for (let step = 0; step < steps; step += 1) {
      const point = actionPoints(actions[step]!)[0];
      if (!point) continue;
      const drawn = await pixel(out, step, point.x, point.y);
      expect(near(drawn, OVERLAY_RGB, 40), `frame ${step} at (${point.x}, ${point.y}) is ${drawn}`).toBe(true);
      // And the screenshot itself is not that colour there: the overlay made it.
      const { data, info } = await sharp(await makeScreenshot(step)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const i = (point.y * info.width + point.x) * info.channels;
      expect(near([data[i]!, data[i + 1]!, data[i + 2]!], OVERLAY_RGB, 40)).toBe(false);
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });
});
