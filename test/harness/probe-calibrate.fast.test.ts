/**
 * The probe's origin measurement against the event orders Chromium produces: its own
 * pointermove for where the pointer already was, arriving after our move was sent (the
 * fresh-root serve-e2e failures: every click reported (+11, +85) off). The real page is
 * exercised by every desktop test that starts a probe; these cases pin the orders that
 * a loaded machine produces only now and then.
 */
import { describe, expect, it } from 'vitest';
import { calibrateOrigin, type CalibrationIo, type Point } from './probe/calibrate.js';
import type { ProbeEvent } from './probe/server.js';

/** A page whose client (0,0) is at `origin`; each move is reported one tick later, after anything `before` queues. */
function page(origin: Point, opts: { lateFrom?: Point[]; silent?: boolean } = {}) {
  const events: ProbeEvent[] = [];
  const listeners = new Set<() => void>();
  const moves: Point[] = [];
  let seq = 0;
  const report = (screen: Point) => {
    events.push({ seq: seq++, t: seq, type: 'pointermove', clientX: screen.x - origin.x, clientY: screen.y - origin.y } as ProbeEvent);
    for (const l of [...listeners]) l();
  };
  const late = [...(opts.lateFrom ?? [])];
  const io: CalibrationIo = {
    move(to) {
      moves.push(to);
      // A stale move (where the pointer was before) lands first, then ours.
      const stale = late.shift();
      if (opts.silent) return;
      setTimeout(() => {
        if (stale) report(stale);
        setTimeout(() => report(to), 1);
      }, 1);
    },
    nextSeq: () => seq,
    eventsSince: (since) => events.filter((e) => e.seq >= since),
    waitFor: (accept, since, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const hit = events.find((e) => e.seq >= since && accept(e));
          if (!hit) return false;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(hit);
          return true;
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error('timeout'));
        }, timeoutMs);
        if (!check()) listeners.add(check);
      }),
  };
  return { io, moves };
}

describe('probe calibration', () => {
  it('measures the origin when every event is our own', async () => {
    const { io } = page({ x: 201, y: 120 });
    expect(await calibrateOrigin(io, { x: 650, y: 485 }, { waitMs: 200 })).toEqual({ x: 201, y: 120 });
  });

  it("is not fooled by Chromium's move for the pointer's old place arriving after ours was sent", async () => {
    // The root's numbers: the pointer sat at Xvfb's centre; the probe measured from (650, 485).
    // Taking the first event would give (650 − 439, 485 − 280) = (211, 205): (+10, +85) off.
    const { io } = page({ x: 201, y: 120 }, { lateFrom: [{ x: 640, y: 400 }] });
    expect(await calibrateOrigin(io, { x: 650, y: 485 }, { waitMs: 200 })).toEqual({ x: 201, y: 120 });
  });

  it('holds when stale events come after both moves, and tries again further on', async () => {
    const { io, moves } = page({ x: 33, y: 60 }, { lateFrom: [{ x: 500, y: 300 }, { x: 505, y: 309 }, { x: 90, y: 90 }] });
    expect(await calibrateOrigin(io, { x: 400, y: 300 }, { waitMs: 200 })).toEqual({ x: 33, y: 60 });
    expect(new Set(moves.map((m) => `${m.x},${m.y}`)).size).toBe(moves.length); // never a move to where the pointer is
  });

  it('fails naming what the page saw when it reports no move', async () => {
    const { io, moves } = page({ x: 0, y: 0 }, { silent: true });
    await expect(calibrateOrigin(io, { x: 100, y: 100 }, { attempts: 2, waitMs: 20 })).rejects.toThrow(
      /could not measure where the page is on the screen; move to \(100, 100\): the page reported no pointermove; move to \(107, 105\)/,
    );
    expect(moves).toHaveLength(2);
  });
});
