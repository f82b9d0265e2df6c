/**
 * waitForSettle with a round trip through the app (settle.ts rule 2, settle-ping.ts): a
 * still screen after input is not settled while the app has not answered; once it has,
 * the quiet window runs from the answer. Ordered by the grabs themselves, never a clock:
 * the round trip is answered by the test at a chosen grab.
 */
import { describe, expect, it } from 'vitest';
import { unpooled } from '../../src/os-control/frame-pool.js';
import { waitForSettle } from '../../src/os-control/settle.js';

const still = () => unpooled(Buffer.alloc(64, 7));

describe('waitForSettle and the app’s round trip', () => {
  it('after pointer input, a still screen waits for the app’s answer and then for a quiet window from it', async () => {
    let grabs = 0;
    let answer!: () => void;
    let answeredAtGrab = -1;
    const { result, last } = await waitForSettle(
      async () => {
        grabs++;
        // The app answers at the 12th grab (a still screen: the plain 1 ms window was long met by then).
        if (grabs === 12) {
          answeredAtGrab = grabs;
          answer();
        }
        return still();
      },
      {
        minMs: 0,
        maxMs: 10_000,
        quietMs: 1,
        reaction: { since: performance.now(), expectChange: false },
        roundTrip: () => new Promise<void>((resolve) => (answer = resolve)),
      },
    );
    last?.release();
    expect(result.settled).toBe(true);
    expect(answeredAtGrab).toBe(12);
    // At least one grab after the answer: quiet is seen after it, not before.
    expect(grabs).toBeGreaterThan(12);
  });

  it('a failed round trip (the X connection broke) leaves the screen to decide', async () => {
    let grabs = 0;
    const { result, last } = await waitForSettle(
      async () => {
        grabs++;
        return still();
      },
      {
        minMs: 0,
        maxMs: 10_000,
        quietMs: 1,
        reaction: { since: performance.now(), expectChange: false },
        roundTrip: () => Promise.reject(new Error('X connection closed')),
      },
    );
    last?.release();
    expect(result.settled).toBe(true);
    expect(grabs).toBeLessThan(12);
  });

  it('no input, no round trip: it is not asked', async () => {
    let asked = false;
    const { result, last } = await waitForSettle(async () => still(), {
      minMs: 0,
      maxMs: 10_000,
      quietMs: 1,
      roundTrip: async () => {
        asked = true;
      },
    });
    last?.release();
    expect(result.settled).toBe(true);
    expect(asked).toBe(false);
  });
});
