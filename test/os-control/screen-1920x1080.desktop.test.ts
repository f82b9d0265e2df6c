/**
 * On a 1920×1080 screen: model-image clicks after downscaling, what observe() shows,
 * zoom at full resolution, several monitors, and settle.
 */
import { spawnSync } from 'node:child_process';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { globalToImage } from '../../src/os-control/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { startProbe, type Probe } from '../harness/probe/probe.js';
import { expectModelClicksLand } from './model-clicks.js';
import { centroidOf, countColour, decode, MARKER_COLOURS } from './screen-helpers.js';
import { checked } from '../harness/checked.js';

let xvfb: Xvfb;
let probe: Probe;
let computer: DesktopComputer;
const never = new AbortController().signal;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1920, height: 1080 });
  process.env.DISPLAY = xvfb.display;
  probe = await startProbe(xvfb, { x: 0, y: 0, width: 1920, height: 1080 });
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = createComputer({ displayCacheMs: 0 });
});
afterAll(async () => {
  await probe?.close();
});
beforeEach(async () => {
  await probe.reset();
  await probe.blurField();
});

describe('coordinates', () => {
  it('lands clicks given in a 1280×720 model image (scale 1.5)', async () => {
    expect(await expectModelClicksLand(computer, probe, { format: 'jpeg', maxLongEdge: 1280 })).toEqual({ imageWidth: 1280, imageHeight: 720 });
  });

  it('lands clicks given in an XGA-style exact 1024×768 image (aspect not kept)', async () => {
    await expectModelClicksLand(computer, probe, { format: 'png', exact: { width: 1024, height: 768 } });
  });
});

describe('observe', () => {
  it('records how the image was made and shows the screen in it', async () => {
    const pad = probe.padRect();
    const obs = await computer.observe({ target: { format: 'png', maxLongEdge: 1280 } });
    expect(obs.record.display.bounds).toEqual({ x: 0, y: 0, width: 1920, height: 1080 });
    expect(obs.record.capture).toEqual({ width: 1920, height: 1080 });
    expect(obs.record.region).toEqual({ x: 0, y: 0, width: 1920, height: 1080 });
    expect(obs.record.image).toEqual({ width: 1280, height: 720, format: 'png' });
    const img = await decode(obs.image);
    // The pad's colour (#e8eef5) at the image point the record says the pad centre is.
    const c = globalToImage({ x: pad.x + pad.width / 2, y: pad.y + pad.height / 2 }, obs.record)!;
    const px = img.at(Math.round(c.x), Math.round(c.y));
    expect(px.map((v, i) => Math.abs(v - [0xe8, 0xee, 0xf5][i]!) <= 2)).toEqual([true, true, true]);
    const thumb = await decode(await obs.thumb);
    expect([thumb.width, thumb.height]).toEqual([320, 180]);
    expect(obs.grey).toBeUndefined();
  });

  it('hands over the capture in grey when asked (a replay compares it), also for an unchanged screen', async () => {
    const pad = probe.padRect();
    const target = { format: 'jpeg' as const, maxLongEdge: 1280 };
    // A still screen: no caret blinking in a focused field.
    await probe.blurField();
    await computer.settle({ maxMs: 1_000 });
    const first = await computer.observe({ target, grey: true });
    const grey = first.grey!;
    expect([grey.width, grey.height, grey.data.length]).toEqual([1920, 1080, 1920 * 1080]);
    // The pad (#e8eef5) in grey, at its centre in capture pixels: libvips's sRGB → B-W of that colour.
    const [expected] = await sharp(Buffer.from([0xe8, 0xee, 0xf5]), { raw: { width: 1, height: 1, channels: 3 } }).greyscale().raw().toBuffer();
    const at = Math.round(pad.y + pad.height / 2) * 1920 + Math.round(pad.x + pad.width / 2);
    expect(Math.abs(grey.data[at]! - expected!)).toBeLessThanOrEqual(1);
    // Nothing changed: the frame's encodings are reused, its grey pixels with them.
    const again = await computer.observe({ target, grey: true });
    expect(again.frameId).toBe(first.frameId);
    expect(Buffer.from(again.grey!.data).equals(Buffer.from(grey.data))).toBe(true);
    expect((await computer.observe({ target })).grey).toBeUndefined();
  });

  it('captures the same picture through the screenshot-desktop fallback', async () => {
    const { createComputer } = await import('../../src/os-control/index.js');
    const fallback = createComputer({ capture: 'screenshot-desktop' });
    await probe.showMarkers([{ x: 700, y: 500, size: 9, color: 'rgb(0,0,255)' }]);
    const [a, b] = [
      await computer.observe({ target: { format: 'png', maxLongEdge: 1280 } }),
      await fallback.observe({ target: { format: 'png', maxLongEdge: 1280 } }),
    ];
    expect(b.record.capture).toEqual(a.record.capture);
    expect(b.record.image).toEqual(a.record.image);
    const ca = centroidOf(await decode(a.image), MARKER_COLOURS.blue!)!;
    const cb = centroidOf(await decode(b.image), MARKER_COLOURS.blue!)!;
    expect(Math.abs(ca.x - cb.x)).toBeLessThan(0.5);
    expect(Math.abs(ca.y - cb.y)).toBeLessThan(0.5);
  });

  it('a still screen keeps its frame id (encodings reused); a change on screen gives a new id and new pixels', async () => {
    const target = { format: 'jpeg' as const, maxLongEdge: 1024 };
    const first = await computer.observe({ target });
    const again = await computer.observe({ target });
    expect(first.frameId).toBeDefined();
    expect(again.frameId).toBe(first.frameId);
    expect(again.image.equals(first.image)).toBe(true);
    expect(again.record.id).not.toBe(first.record.id);
    // Another target of the same pixels is encoded for itself, under the same frame id.
    const png = await computer.observe({ target: { format: 'png', maxLongEdge: 640 } });
    expect(png.frameId).toBe(first.frameId);
    expect(png.record.image).toEqual({ width: 640, height: 360, format: 'png' });
    await probe.focusField();
    await computer.perform(checked({ type: 'type', text: 'frame' }), never);
    await computer.settle({ maxMs: 2_000 });
    const changed = await computer.observe({ target });
    expect(changed.frameId).not.toBe(first.frameId);
    expect(changed.image.equals(first.image)).toBe(false);
    // A zoom is not a whole-screen frame: no identity to compare.
    expect((await computer.observe({ target, region: { x: 0, y: 0, width: 200, height: 100 } })).frameId).toBeUndefined();
  });

  it('zooms: a region at full resolution, mapped back exactly', async () => {
    const o = probe.contentOrigin;
    await probe.showMarkers([{ x: 600, y: 400, size: 3, color: 'rgb(255,0,0)' }]);
    const region = { x: o.x + 590, y: o.y + 390, width: 40, height: 30 };
    const obs = await computer.observe({ target: { format: 'png' }, region });
    expect(obs.record.region).toEqual(region);
    expect(obs.record.capture).toEqual({ width: 40, height: 30 });
    expect(obs.record.image).toMatchObject({ width: 40, height: 30 });
    const img = await decode(obs.image);
    // The 3×3 marker is at region pixels 10..12 — exactly, not blurred by scaling.
    expect(img.at(10, 10)).toEqual([255, 0, 0]);
    expect(img.at(12, 12)).toEqual([255, 0, 0]);
    expect(img.at(9, 10)).not.toEqual([255, 0, 0]);
    expect(img.at(13, 12)).not.toEqual([255, 0, 0]);
  });

  it('draws the pointer into the image when asked', async () => {
    const pad = probe.padRect();
    const at = { x: Math.round(pad.x + 300), y: Math.round(pad.y + 200) };
    await computer.perform(checked({ type: 'move', x: at.x, y: at.y }), never);
    const plain = await decode((await computer.observe({ target: { format: 'png' } })).image);
    const drawn = await decode((await computer.observe({ target: { format: 'png', drawCursor: true } })).image);
    // X11 grabs never contain the pointer; the drawn arrow is dark just below-right of the hotspot.
    expect(plain.at(at.x + 2, at.y + 6)).toEqual([0xe8, 0xee, 0xf5]);
    expect(Math.max(...drawn.at(at.x + 2, at.y + 6))).toBeLessThan(80);
  });
});

describe('several monitors', () => {
  it('lists monitors with their offsets and lands clicks on the right one', async () => {
    const xr = (...args: string[]) => {
      const r = spawnSync('xrandr', args, { env: xvfb.env, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    };
    xr('--setmonitor', 'LEFT', '960/254x1080/286+0+0', 'none');
    xr('--setmonitor', 'RIGHT', '960/254x1080/286+960+0', 'none');
    try {
      const displays = await computer.listDisplays();
      expect(displays.find((d) => d.id === 'RIGHT')?.bounds).toEqual({ x: 960, y: 0, width: 960, height: 1080 });
      const o = probe.contentOrigin;
      // A marker on the right monitor, found in a screenshot of that monitor alone.
      await probe.showMarkers([{ x: 1500 - o.x, y: 600 - o.y, size: 9, color: 'rgb(0,0,255)' }]);
      const obs = await computer.observe({ displayId: 'RIGHT', target: { format: 'jpeg', maxLongEdge: 640 } });
      expect(obs.record.region).toEqual({ x: 960, y: 0, width: 960, height: 1080 });
      expect(obs.record.image).toMatchObject({ width: 568, height: 640 });
      const c = centroidOf(await decode(obs.image), MARKER_COLOURS.blue!)!;
      const { actionToGlobal } = await import('../../src/os-control/index.js');
      const click = actionToGlobal({ type: 'click', x: Math.round(c.x), y: Math.round(c.y), button: 'left', clicks: 1, modifiers: [] }, obs.record);
      const since = probe.nextSeq();
      await computer.perform(checked(click), never);
      await probe.expectClickAt(1504, 604, { tolerance: 1, sinceSeq: since });
    } finally {
      xr('--delmonitor', 'LEFT');
      xr('--delmonitor', 'RIGHT');
    }
  });
});

describe('settle', () => {
  it('waits through a reaction that comes 300 ms after a click, and the screenshot shows it', async () => {
    await probe.changeAfterNextClick(300);
    const pad = probe.padRect();
    await computer.perform(checked({ type: 'click', x: Math.round(pad.x + 50), y: Math.round(pad.y + 50), button: 'left', clicks: 1, modifiers: [] }), never);
    const result = await computer.settle({ quietMs: 400, maxMs: 5_000 });
    expect(result.settled).toBe(true);
    const img = await decode((await computer.observe({ target: { format: 'png', maxLongEdge: 960 } })).image);
    // The pad turned red (#d01010): a large share of the image is that colour.
    expect(countColour(img, [0xd0, 0x10, 0x10], 10)).toBeGreaterThan((960 * 540) / 3);
  });

  it('the screenshot right after a quiet settle (its last frame reused) is the same picture as a fresh capture', async () => {
    await probe.reset();
    // A focused field's caret blinks (18 px that change every ~500 ms): no static screen then.
    await probe.blurField();
    expect((await computer.settle({ quietMs: 200, maxMs: 3_000 })).settled).toBe(true);
    const target = { format: 'png' as const, maxLongEdge: 960 };
    const pixels = async (png: Buffer) => (await sharp(png).raw().toBuffer()).toString('base64');
    const afterSettle = await pixels((await computer.observe({ target })).image);
    const fresh = await pixels((await computer.observe({ target })).image);
    expect(afterSettle.length).toBeGreaterThan(960 * 540);
    expect(afterSettle === fresh).toBe(true);
  });

  it('settles on a still screen, and reports not settled when the screen keeps changing past maxMs', async () => {
    // quietMs well above the page's 25 ms repaint, so a loaded machine's paint hiccups do not look like quiet.
    expect((await computer.settle({ quietMs: 300, maxMs: 1_500 })).settled).toBe(true);
    await probe.animate(true);
    try {
      const result = await computer.settle({ quietMs: 300, maxMs: 1_500 });
      expect(result.settled).toBe(false);
      expect(result.waitedMs).toBeGreaterThanOrEqual(1_500);
    } finally {
      await probe.animate(false);
    }
  });

  it('stops waiting on abort', async () => {
    await probe.animate(true);
    try {
      const ac = new AbortController();
      // A quiet window no screen can meet before the abort: with the default 75 ms, one
      // repaint gap of the starved page's animation (fresh root, niced, load ~20) let settle
      // resolve `settled` after 588 ms, and the abort was never what ended the wait.
      const waiting = computer.settle({ quietMs: 20_000, maxMs: 30_000, signal: ac.signal });
      setTimeout(() => ac.abort(new Error('stopped')), 100);
      await expect(waiting).rejects.toThrow('stopped');
    } finally {
      await probe.animate(false);
    }
  });
});
