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

  it('a change after the app answered asks again, and the quiet waits for that answer', async () => {
    let grabs = 0;
    const answers: Array<() => void> = [];
    let secondAnsweredAtGrab = -1;
    const { result, last } = await waitForSettle(
      async () => {
        grabs++;
        if (grabs === 3) answers[0]!();
        // The app draws at grab 4 (right after its first answer), the second ask is answered at grab 15.
        if (grabs === 15 && answers[1]) {
          secondAnsweredAtGrab = grabs;
          answers[1]();
        }
        return unpooled(Buffer.alloc(64, grabs >= 4 ? 9 : 7));
      },
      {
        minMs: 0,
        maxMs: 10_000,
        quietMs: 1,
        reaction: { since: performance.now(), expectChange: false },
        roundTrip: () => new Promise<void>((resolve) => answers.push(resolve)),
      },
    );
    last?.release();
    expect(result.settled).toBe(true);
    expect(answers).toHaveLength(2);
    expect(secondAnsweredAtGrab).toBe(15);
    expect(grabs).toBeGreaterThan(15);
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
