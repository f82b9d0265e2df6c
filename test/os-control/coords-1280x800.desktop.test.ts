/** Model-image clicks land on the intended pixel on a 1280×800 screen, downscaled to 1024×640. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { startProbe, type Probe } from '../harness/probe/probe.js';
import { expectModelClicksLand } from './model-clicks.js';

let xvfb: Xvfb;
let probe: Probe;
let computer: DesktopComputer;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  process.env.DISPLAY = xvfb.display;
  probe = await startProbe(xvfb, { x: 0, y: 0, width: 1280, height: 800 });
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = createComputer();
});
afterAll(async () => {
  await probe?.close();
});

it('lands clicks given in a 1024-px-wide model image (scale 1.25)', async () => {
  const size = await expectModelClicksLand(computer, probe, { format: 'jpeg', maxLongEdge: 1024 });
  expect(size).toEqual({ imageWidth: 1024, imageHeight: 640 });
});

it('lands clicks given in a smart-resized image (multiples of 28, patch cap)', async () => {
  const size = await expectModelClicksLand(computer, probe, { format: 'png', multipleOf: 28, maxPatches: 700 });
  expect(size.imageWidth % 28).toBe(0);
  expect(size.imageHeight % 28).toBe(0);
  expect(size.imageWidth).toBeLessThan(1280);
});
