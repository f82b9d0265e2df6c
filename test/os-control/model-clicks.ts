/**
 * The coordinate round trip a real run makes: screenshot → downscaled model image →
 * the "model" finds a target in that image → its image coordinates are mapped back
 * through the observation record → the click lands on the intended screen pixel.
 */
import { expect } from 'vitest';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { actionToGlobal } from '../../src/os-control/index.js';
import type { ImageTarget } from '../../src/os-control/types.js';
import type { Probe } from '../harness/probe/probe.js';
import { centroidOf, decode, MARKER_COLOURS } from './screen-helpers.js';
import { checked } from '../harness/checked.js';

const SIZE = 9; // odd: one centre pixel

export async function expectModelClicksLand(
  computer: DesktopComputer,
  probe: Probe,
  target: ImageTarget,
  options: { displayId?: string } = {},
): Promise<{ imageWidth: number; imageHeight: number }> {
  const w = probe.contentSize.width;
  const h = probe.contentSize.height;
  // Markers near the corners and the middle of the page (client coordinates of their top-left).
  const places: Record<string, { x: number; y: number }> = {
    red: { x: 13, y: 181 },
    green: { x: w - 13 - SIZE, y: 187 },
    blue: { x: Math.round(w / 2) + 3, y: Math.round(h / 2) - 7 },
    magenta: { x: 31, y: h - 11 - SIZE },
  };
  await probe.showMarkers(Object.entries(places).map(([colour, p]) => ({ ...p, size: SIZE, color: `rgb(${MARKER_COLOURS[colour]!.join(',')})` })));
  const obs = await computer.observe({ target, ...(options.displayId ? { displayId: options.displayId } : {}) });
  const img = await decode(obs.image);
  expect([img.width, img.height]).toEqual([obs.record.image.width, obs.record.image.height]);
  for (const [colour, p] of Object.entries(places)) {
    const c = centroidOf(img, MARKER_COLOURS[colour]!);
    expect(c, `${colour} marker visible in the model image`).toBeDefined();
    // What a model answers: whole image pixels.
    const click = actionToGlobal(
      { type: 'click', x: Math.round(c!.x), y: Math.round(c!.y), button: 'left', clicks: 1, modifiers: [] },
      obs.record,
    );
    const since = probe.nextSeq();
    await computer.perform(checked(click), new AbortController().signal);
    const screenX = probe.contentOrigin.x + p.x + (SIZE - 1) / 2;
    const screenY = probe.contentOrigin.y + p.y + (SIZE - 1) / 2;
    await probe.expectClickAt(screenX, screenY, { tolerance: 1, sinceSeq: since });
  }
  return { imageWidth: img.width, imageHeight: img.height };
}
