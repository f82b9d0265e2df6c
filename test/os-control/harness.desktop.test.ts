/**
 * The harness itself: a private Xvfb answers and goes away, and the probe records real
 * X input (injected with xdotool, independent of our own input code) at the right place.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXvfb, xServerAnswers, type Xvfb } from '../harness/xvfb.js';
import { startProbe, type Probe } from '../harness/probe/probe.js';

let xvfb: Xvfb;
let probe: Probe;

function xdo(...args: string[]): void {
  const r = spawnSync('xdotool', args, { env: xvfb.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
}

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  probe = await startProbe(xvfb);
});
afterAll(async () => {
  await probe?.close();
  await xvfb?.stop();
});

describe('xvfb', () => {
  it('gives each caller its own display, and stop() takes it down', async () => {
    const other = await startXvfb({ width: 640, height: 480, windowManager: false });
    expect(other.display).not.toBe(xvfb.display);
    expect(xServerAnswers(other.display)).toBe(true);
    const info = spawnSync('xdpyinfo', [], { env: other.env, encoding: 'utf8' }).stdout;
    expect(info).toContain('dimensions:    640x480 pixels');
    await other.stop();
    expect(xServerAnswers(other.display)).toBe(false);
  });
});

describe('probe', () => {
  it('records a left click at the screen pixel xdotool clicked', async () => {
    const pad = probe.padRect();
    const x = Math.round(pad.x + 37);
    const y = Math.round(pad.y + 23);
    const since = probe.nextSeq();
    xdo('mousemove', '--sync', String(x), String(y), 'click', '1');
    const { down } = await probe.expectClickAt(x, y, { button: 'left', tolerance: 0, sinceSeq: since });
    // Chromium's own screenX agrees with the calibrated origin.
    expect(down.screenX).toBe(x);
    expect(down.screenY).toBe(y);
  });

  it('records right and middle buttons and held modifiers', async () => {
    const pad = probe.padRect();
    const x = Math.round(pad.x + 200);
    const y = Math.round(pad.y + 100);
    let since = probe.nextSeq();
    xdo('mousemove', '--sync', String(x), String(y), 'click', '3');
    await probe.expectClickAt(x, y, { button: 'right', sinceSeq: since });
    since = probe.nextSeq();
    xdo('keydown', 'shift', 'click', '2', 'keyup', 'shift');
    const { down } = await probe.expectClickAt(x, y, { button: 'middle', sinceSeq: since });
    expect(down.shift).toBe(true);
  });

  it('records typed text exactly in the field', async () => {
    await probe.reset();
    const c = probe.fieldCenter();
    xdo('mousemove', '--sync', String(c.x), String(c.y), 'click', '1');
    xdo('type', '--delay', '5', 'abc def');
    await probe.waitForText('abc def');
    // The field's text and the event stream come back separately: a busy machine delivers the events later.
    const keys = () => probe.events().filter((e) => e.type === 'keydown').map((e) => e.code);
    await expect.poll(keys, { timeout: 10_000 }).toContain('KeyA');
    expect(keys()).toContain('Space');
  });

  it('changes the pad some ms after the next click', async () => {
    await probe.reset();
    await probe.changeAfterNextClick(100);
    const pad = probe.padRect();
    const since = probe.nextSeq();
    xdo('mousemove', '--sync', String(pad.x + 10), String(pad.y + 10), 'click', '1');
    const changed = await probe.waitFor((e) => e.type === 'changed', { sinceSeq: since });
    const click = probe.events().find((e) => e.seq >= since && e.type === 'click')!;
    expect(changed.t - click.t).toBeGreaterThanOrEqual(95);
  });

  it('draws labels at known positions', async () => {
    const boxes = await probe.showPattern([{ text: 'HELLO', x: 100, y: 50, fontSize: 32 }]);
    expect(boxes[0]!.x).toBe(probe.contentOrigin.x + 100);
    expect(boxes[0]!.y).toBe(probe.contentOrigin.y + 50);
    await probe.reset();
  });
});
