import { describe, expect, it } from 'vitest';
import type { ObservationRecord } from '../../../src/shared/observation.js';
import { checkInSpace, recordedSpace } from '../../../src/main/agent/harness/code/recorded-space.js';

// A replayed block's computer calls are in the pixels its model was sent (1024×640 of a
// 1280×800 region at (100, 50)); the replay's screenshot covers the same region at its
// capture size. The same desktop point is (x·1.25, y·1.25) there.

const SEEN: ObservationRecord = {
  id: 'obs-replay',
  takenAt: 0,
  display: { id: 'd', name: 'd', bounds: { x: 0, y: 0, width: 1600, height: 1000 }, scaleFactor: 1, primary: true },
  capture: { width: 1280, height: 800 },
  region: { x: 100, y: 50, width: 1280, height: 800 },
  image: { width: 1280, height: 800, format: 'jpeg' },
};
const RECORDED = { width: 1024, height: 640 };

describe('a replayed block\'s coordinate space', () => {
  it('is the replay\'s screenshot at the recorded size (region and capture kept); the same record when the sizes agree or none was recorded', () => {
    const space = recordedSpace(SEEN, RECORDED);
    expect(space.image).toEqual({ width: 1024, height: 640, format: 'jpeg' });
    expect(space.region).toBe(SEEN.region);
    expect(space.capture).toBe(SEEN.capture);
    expect(space.id).toBe(SEEN.id);
    expect(recordedSpace(SEEN, { width: 1280, height: 800 })).toBe(SEEN);
    expect(recordedSpace(SEEN, undefined)).toBe(SEEN);
    // One side differing is enough to be another space.
    expect(recordedSpace(SEEN, { width: 1280, height: 640 }).image).toMatchObject({ width: 1280, height: 640 });
    expect(recordedSpace(SEEN, { width: 1024, height: 800 }).image).toMatchObject({ width: 1024, height: 800 });
  });

  it('moves each point of a call from the recorded pixels onto the replay\'s screenshot: the same desktop point', () => {
    const space = recordedSpace(SEEN, RECORDED);
    const click = checkInSpace({ type: 'click', x: 496, y: 44, button: 'left', clicks: 1 }, space, SEEN);
    // Pixel centres scale: (496 + 0.5) × 1.25 − 0.5 = 620.125, (44 + 0.5) × 1.25 − 0.5 = 55.125.
    expect(click).toEqual({ ok: true, action: { type: 'click', x: 620.125, y: 55.125, button: 'left', clicks: 1, modifiers: [] } });
    const drag = checkInSpace({ type: 'drag', path: [{ x: 0, y: 0 }, { x: 1023, y: 639 }] }, space, SEEN);
    expect(drag.ok && drag.action.type === 'drag' && drag.action.path).toEqual([
      { x: 0.125, y: 0.125 },
      { x: 1278.875, y: 798.875 },
    ]);
    // Keys have no point: unchanged.
    expect(checkInSpace({ type: 'type', text: 'Grüße ✓' }, space, SEEN)).toEqual({ ok: true, action: { type: 'type', text: 'Grüße ✓' } });
  });

  it('checks a point against the recorded size, not the larger screenshot: (1100, 700) is outside 1024×640 and nothing is moved', () => {
    const space = recordedSpace(SEEN, RECORDED);
    const outside = checkInSpace({ type: 'click', x: 1100, y: 700, button: 'left', clicks: 1 }, space, SEEN);
    expect(outside.ok).toBe(false);
    expect(!outside.ok && outside.error).toContain('1024×640');
    // The same numbers are inside the replay's 1280×800: checked there, they would pass.
    expect(checkInSpace({ type: 'click', x: 1100, y: 700, button: 'left', clicks: 1 }, SEEN, SEEN).ok).toBe(true);
  });

  it('in the same space, checks as checkAction does and returns its answer untouched', () => {
    const same = checkInSpace({ type: 'move', x: 10, y: 20 }, SEEN, SEEN);
    expect(same).toEqual({ ok: true, action: { type: 'move', x: 10, y: 20 } });
    const bad = checkInSpace({ type: 'click', x: 'a' }, recordedSpace(SEEN, RECORDED), SEEN);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/^invalid click action/);
  });
});
