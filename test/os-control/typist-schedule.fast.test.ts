/**
 * The typing call's schedule as values (src/os-control/x11/typist-schedule.ts): pace and
 * limits, the sentinel, which spares a reuse round frees and when, how far the keys are
 * ahead of their pace, the keycode runs one request each writes. typist-xev.desktop
 * checks the same decisions in what xev receives; these pin the numbers it cannot time.
 */
import { describe, expect, it } from 'vitest';
import {
  evictLeastRecent,
  keycodeRuns,
  NO_RECORD_PAUSE_MS,
  paceWaitMs,
  RESTORE_IDLE_MS,
  restoreMarginMs,
  reuseCount,
  reuseWaitMs,
  heldUses,
  sparePool,
  timeLeftMs,
  typingPace,
  unobservedPauseMs,
} from '../../src/os-control/x11/typist-schedule.js';

describe('typingPace', () => {
  it('fills in 16 strokes a chunk, 1 ms a stroke and 10 s to catch up', () => {
    expect(typingPace({})).toEqual({ chunk: 16, intervalMs: 1, catchUpMs: 10_000 });
  });

  it('keeps what the caller gave, 0 included', () => {
    expect(typingPace({ chunk: 5, strokeIntervalMs: 0, catchUpTimeoutMs: 300 })).toEqual({ chunk: 5, intervalMs: 0, catchUpMs: 300 });
  });
});

describe('sparePool', () => {
  it('keeps the last free spare (the lowest keycode) as the sentinel when there are two or more', () => {
    expect(sparePool([], [30, 20, 10])).toEqual({ sentinel: 10, spares: [30, 20] });
    expect(sparePool([40], [10])).toEqual({ sentinel: 10, spares: [40] });
  });

  it('has no sentinel with a single spare: it types', () => {
    expect(sparePool([], [10])).toEqual({ sentinel: undefined, spares: [10] });
    expect(sparePool([40], [])).toEqual({ sentinel: undefined, spares: [40] });
  });

  it('never takes a keycode of ours as the sentinel: it holds a character the app may still translate', () => {
    expect(sparePool([40, 41], [])).toEqual({ sentinel: undefined, spares: [40, 41] });
    expect(sparePool([], [])).toEqual({ sentinel: undefined, spares: [] });
  });
});

describe('reuseCount', () => {
  it('frees half the spares, rounded down, at least one', () => {
    expect(reuseCount(18)).toBe(9);
    expect(reuseCount(5)).toBe(2);
    expect(reuseCount(3)).toBe(1);
    expect(reuseCount(1)).toBe(1);
    expect(reuseCount(0)).toBe(1);
  });
});

describe('evictLeastRecent', () => {
  it('frees the keycodes whose last use is the earliest item, and only those', () => {
    // keysym → keycode; keycode → index of the item that last used it.
    const mapped = new Map([
      [0x3b1, 10],
      [0x3b2, 11],
      [0x3b3, 12],
      [0x3b4, 13],
    ]);
    const lastUse = new Map([
      [10, 7],
      [11, 2],
      [12, 9],
      [13, 4],
    ]);
    expect(evictLeastRecent(mapped, lastUse, 2)).toEqual([11, 13]);
    expect([...mapped]).toEqual([
      [0x3b1, 10],
      [0x3b3, 12],
    ]);
  });

  it('frees a keycode not used in this call (mapped by an earlier one) before one used at item 0', () => {
    const mapped = new Map([
      [0x3b1, 10],
      [0x3b2, 11],
    ]);
    expect(evictLeastRecent(mapped, new Map([[10, 0]]), 1)).toEqual([11]);
    expect([...mapped]).toEqual([[0x3b1, 10]]);
    // Whichever side of the comparison the unused one is on.
    const again = new Map([
      [0x3b1, 10],
      [0x3b2, 11],
      [0x3b3, 12],
    ]);
    expect(evictLeastRecent(again, new Map([[10, 1], [12, 0]]), 2)).toEqual([11, 12]);
    const reversed = new Map([
      [0x3b1, 12],
      [0x3b2, 11],
      [0x3b3, 10],
    ]);
    expect(evictLeastRecent(reversed, new Map([[10, 1], [12, 0]]), 2)).toEqual([11, 12]);
  });

  it('frees no more than there are', () => {
    const mapped = new Map([[0x3b1, 10]]);
    expect(evictLeastRecent(mapped, new Map(), 9)).toEqual([10]);
    expect(mapped.size).toBe(0);
  });
});

describe('reuseWaitMs', () => {
  it('waits until RESTORE_IDLE_MS after the newest last key of the freed keycodes', () => {
    expect(RESTORE_IDLE_MS).toBe(3_000);
    const lastUseAt = new Map([
      [10, 5_000],
      [11, 6_500],
      [12, 9_000],
    ]);
    expect(reuseWaitMs([10, 11], lastUseAt, 7_000)).toBe(2_500);
    expect(reuseWaitMs([10], lastUseAt, 7_000)).toBe(1_000);
  });

  it('is 0 once the margin has passed, never negative', () => {
    expect(reuseWaitMs([10], new Map([[10, 5_000]]), 8_000)).toBe(0);
    expect(reuseWaitMs([10], new Map([[10, 5_000]]), 20_000)).toBe(0);
  });

  it('needs no wait for a keycode never pressed (mapped ahead, not reached yet)', () => {
    expect(reuseWaitMs([10], new Map(), 1_000)).toBe(0);
    expect(reuseWaitMs([10, 11], new Map([[11, 500]]), 1_000)).toBe(2_500);
  });

  it('waits for a keycode held from the call before as for one pressed at that call\'s last key', () => {
    // The call before ended at 4,000; this one reuses its keycode 10 at 5,000.
    expect(heldUses([10, 11], 4_000)).toEqual(new Map([[10, 4_000], [11, 4_000]]));
    expect(reuseWaitMs([10], heldUses([10], 4_000), 5_000)).toBe(2_000);
    // Pressed again in this call at 4,500: that counts.
    const uses = heldUses([10], 4_000);
    uses.set(10, 4_500);
    expect(reuseWaitMs([10], uses, 5_000)).toBe(2_500);
    expect(heldUses([], 4_000)).toEqual(new Map());
  });
});

describe('paceWaitMs', () => {
  it('is how far the strokes sent are ahead of their pace', () => {
    // 32 strokes at 2 ms from 1,000: due at 1,064.
    expect(paceWaitMs(1_000, 32, 2, 1_010)).toBe(54);
    expect(paceWaitMs(1_000, 32, 2, 1_063)).toBe(1);
  });

  it('is 0 when less than 1 ms ahead, on time or behind', () => {
    expect(paceWaitMs(1_000, 32, 2, 1_063.5)).toBe(0);
    expect(paceWaitMs(1_000, 32, 2, 1_064)).toBe(0);
    expect(paceWaitMs(1_000, 32, 2, 1_200)).toBe(0);
  });
});

describe('keycodeRuns', () => {
  it('sorts the rows and cuts them into runs of consecutive keycodes', () => {
    expect(
      keycodeRuns([
        [21, [0x62, 0x62]],
        [12, [0x3b1]],
        [20, [0x61, 0x61]],
        [14, []],
        [13, [0x3b2]],
      ]),
    ).toEqual([
      { first: 12, rows: [[0x3b1], [0x3b2], []] },
      { first: 20, rows: [[0x61, 0x61], [0x62, 0x62]] },
    ]);
  });

  it('gives nothing for no rows and one run for one row', () => {
    expect(keycodeRuns([])).toEqual([]);
    expect(keycodeRuns([[8, []]])).toEqual([{ first: 8, rows: [[]] }]);
  });

  it('leaves the caller\'s rows in their order', () => {
    const rows: [number, number[]][] = [
      [9, []],
      [8, []],
    ];
    keycodeRuns(rows);
    expect(rows.map(([k]) => k)).toEqual([9, 8]);
  });
});

describe('restoreMarginMs', () => {
  it('is what is left of RESTORE_IDLE_MS after the last key, 0 once passed', () => {
    expect(restoreMarginMs(10_000, 10_500)).toBe(2_500);
    expect(restoreMarginMs(10_000, 12_999)).toBe(1);
    expect(restoreMarginMs(10_000, 13_000)).toBe(0);
    expect(restoreMarginMs(10_000, 20_000)).toBe(0);
  });

  it('is 0 before any typing call (the last key at -Infinity)', () => {
    expect(restoreMarginMs(-Infinity, 5)).toBe(0);
  });
});

describe('unobservedPauseMs', () => {
  it('pauses 200 ms, or the whole limit when it is shorter', () => {
    expect(NO_RECORD_PAUSE_MS).toBe(200);
    expect(unobservedPauseMs(10_000)).toBe(200);
    expect(unobservedPauseMs(100)).toBe(100);
    expect(unobservedPauseMs(0)).toBe(0);
  });
});

describe('timeLeftMs', () => {
  it('is the limit less the time since the start, 0 once passed', () => {
    expect(timeLeftMs(3_000, 1_000, 1_400)).toBe(2_600);
    expect(timeLeftMs(3_000, 1_000, 4_000)).toBe(0);
    expect(timeLeftMs(3_000, 1_000, 9_000)).toBe(0);
  });
});
