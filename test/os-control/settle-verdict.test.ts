/**
 * settle.ts's verdict after input (issue 26 items 1–3), rule by rule, on recorded moments
 * rather than a clock: a settle that has seen no answer to input that must show keeps
 * waiting; the quiet window grows with the app's answer time, within its floor and cap.
 * The desktop test (settle-input.desktop.test.ts) checks the screenshots themselves.
 */
import { describe, expect, it } from 'vitest';
import { REACTION_LIMITS, SETTLE_DEFAULTS, settleVerdict, type SettleState } from '../../src/os-control/settle.js';

const base = { minMs: 0, maxMs: 3_000, quietMs: SETTLE_DEFAULTS.quietMs };
const state = (o: Partial<SettleState>): SettleState => ({ start: 1_000, now: 1_000, lastChange: 1_000, firstReaction: undefined, compared: 1, unchanged: 100, ...o });

describe('settleVerdict', () => {
  it('without input: quiet for quietMs is settled (the old rule)', () => {
    expect(settleVerdict(state({ now: 1_074 }), base)).toBe('wait');
    expect(settleVerdict(state({ now: 1_075 }), base)).toBe('settled');
    expect(settleVerdict(state({ now: 1_075, compared: 0 }), base)).toBe('wait');
  });

  it('typed text with no change since: waits up to waitMs, then takes the quiet screen', () => {
    const reaction = { since: 990, expectChange: true };
    expect(settleVerdict(state({ now: 1_500 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ now: 990 + REACTION_LIMITS.waitMs - 1 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ now: 990 + REACTION_LIMITS.waitMs }), { ...base, reaction })).toBe('settled');
  });

  it('after an answer to keys: quiet for the floor and for quietGrabs grabs, not just quietMs', () => {
    const reaction = { since: 990, expectChange: true };
    const answered = { firstReaction: 1_010, lastChange: 1_010 };
    expect(settleVerdict(state({ ...answered, now: 1_010 + SETTLE_DEFAULTS.quietMs }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...answered, now: 1_010 + REACTION_LIMITS.quietFloorMs }), { ...base, reaction })).toBe('settled');
    expect(settleVerdict(state({ ...answered, now: 1_010 + REACTION_LIMITS.quietFloorMs, unchanged: REACTION_LIMITS.quietGrabs - 1 }), { ...base, reaction })).toBe('wait');
  });

  it('a slow answer grows the quiet window to the answer time, up to quietCapMs', () => {
    const reaction = { since: 1_000, expectChange: false };
    // The app showed its first change 600 ms after the click: 600 ms of quiet after the last change.
    const slow = { firstReaction: 1_600, lastChange: 1_700 };
    expect(settleVerdict(state({ ...slow, now: 2_299 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...slow, now: 2_300 }), { ...base, reaction })).toBe('settled');
    const slower = { firstReaction: 1_000 + 5_000, lastChange: 6_000 };
    expect(settleVerdict(state({ ...slower, now: 6_000 + REACTION_LIMITS.quietCapMs - 1 }), { ...base, maxMs: 60_000, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...slower, now: 6_000 + REACTION_LIMITS.quietCapMs }), { ...base, maxMs: 60_000, reaction })).toBe('settled');
  });

  it('pointer input that shows nothing keeps the plain quiet window', () => {
    const reaction = { since: 995, expectChange: false };
    expect(settleVerdict(state({ now: 1_075 }), { ...base, reaction })).toBe('settled');
  });

  it('a round trip through the app still out: the app owes it, up to echoMs after the input, even past maxMs on a quiet screen', () => {
    const reaction = { since: 995, expectChange: false };
    const out = { roundTrip: { sent: 1_000, answered: undefined } };
    expect(settleVerdict(state({ ...out, now: 1_500 }), { ...base, reaction })).toBe('wait');
    // Past waitMs and maxMs: mousepad at load ~85 had not handled the click yet.
    expect(settleVerdict(state({ ...out, now: 995 + REACTION_LIMITS.waitMs + 1 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...out, now: 995 + base.maxMs + 1 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...out, now: 995 + REACTION_LIMITS.echoMs - 1 }), { ...base, reaction })).toBe('wait');
    // A hung app: from echoMs after the input the screen decides alone (quiet: settled; changing: gave-up).
    expect(settleVerdict(state({ ...out, now: 995 + REACTION_LIMITS.echoMs }), { ...base, reaction })).toBe('settled');
    expect(settleVerdict(state({ ...out, lastChange: 995 + REACTION_LIMITS.echoMs - 10, now: 995 + REACTION_LIMITS.echoMs }), { ...base, reaction })).toBe('gave-up');
    // Without input there is no round trip to owe: a quiet screen is taken at once.
    expect(settleVerdict(state({ ...out, now: 1_500 }), base)).toBe('settled');
  });

  it('the quiet window counts from the round trip’s answer, and is not grown by it', () => {
    const reaction = { since: 995, expectChange: false };
    // The menu closed at 1 060 (a change); the app answered the ping at 1 800 (it built a dialog meanwhile).
    const answered = { lastChange: 1_060, firstReaction: 1_060, roundTrip: { sent: 1_000, answered: 1_800 } };
    expect(settleVerdict(state({ ...answered, now: 1_800 + SETTLE_DEFAULTS.quietMs - 1 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...answered, now: 1_800 + SETTLE_DEFAULTS.quietMs }), { ...base, reaction })).toBe('settled');
    // After keys: the floor, from the answer.
    const keys = { since: 995, expectChange: true };
    expect(settleVerdict(state({ ...answered, now: 1_800 + REACTION_LIMITS.quietFloorMs - 1 }), { ...base, reaction: keys })).toBe('wait');
    expect(settleVerdict(state({ ...answered, now: 1_800 + REACTION_LIMITS.quietFloorMs }), { ...base, reaction: keys })).toBe('settled');
    // A change after the answer restarts the window from that change.
    const later = { lastChange: 1_900, roundTrip: { sent: 1_000, answered: 1_010 } };
    expect(settleVerdict(state({ ...later, now: 1_900 + SETTLE_DEFAULTS.quietMs - 1 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...later, now: 1_900 + SETTLE_DEFAULTS.quietMs }), { ...base, reaction })).toBe('settled');
  });

  it('once all of the typed text was reported back, quiet is counted in time, not in grabs', () => {
    const reaction = { since: 990, expectChange: true };
    // Grabs ~128 ms apart (load 20): two quiet grabs in the floor; the app answered its round trip.
    const slowGrabs = { firstReaction: 1_050, lastChange: 1_050, unchanged: 2, roundTrip: { sent: 1_000, answered: 1_020 } as { sent: number; answered: number | undefined } };
    const whole = { seen: true, completeAt: 1_040 };
    expect(settleVerdict(state({ ...slowGrabs, echo: whole, now: 1_050 + REACTION_LIMITS.quietFloorMs - 1 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...slowGrabs, echo: whole, now: 1_050 + REACTION_LIMITS.quietFloorMs }), { ...base, reaction })).toBe('settled');
    // Not before the whole text: the same moment with part of it, or with no report, waits for grabs and the answer.
    expect(settleVerdict(state({ ...slowGrabs, echo: { seen: true, completeAt: undefined }, now: 1_050 + REACTION_LIMITS.quietFloorMs }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...slowGrabs, now: 1_050 + REACTION_LIMITS.quietFloorMs }), { ...base, reaction })).toBe('wait');
    // The round trip is still awaited (a page may answer the keys' release), and quiet counts from its answer.
    expect(settleVerdict(state({ ...slowGrabs, roundTrip: { sent: 1_000, answered: undefined }, echo: whole, now: 1_050 + REACTION_LIMITS.quietFloorMs }), { ...base, reaction })).toBe('wait');
    const lateAnswer = { ...slowGrabs, roundTrip: { sent: 1_000, answered: 1_850 }, echo: whole };
    expect(settleVerdict(state({ ...lateAnswer, now: 1_850 + REACTION_LIMITS.quietFloorMs - 1 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...lateAnswer, now: 1_850 + REACTION_LIMITS.quietFloorMs }), { ...base, reaction })).toBe('settled');
    // A change after the whole text still restarts quiet.
    expect(settleVerdict(state({ ...slowGrabs, echo: whole, lastChange: 1_200, now: 1_050 + REACTION_LIMITS.quietFloorMs }), { ...base, reaction })).toBe('wait');
  });

  it('a report owed by a window that reported before: waits with nothing changed nor reported, past maxMs, up to echoMs', () => {
    const reaction = { since: 990, expectChange: true };
    // Chromium at load ~37: the ping answered at 1 s, nothing drawn nor reported for 4.7 s.
    const quiet = { roundTrip: { sent: 1_000, answered: 2_000 } as { sent: number; answered: number | undefined }, unchanged: 100 };
    const owed = { seen: false, completeAt: undefined, expected: true };
    expect(settleVerdict(state({ ...quiet, echo: owed, now: 990 + REACTION_LIMITS.waitMs + 500 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...quiet, echo: owed, now: 1_000 + base.maxMs }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...quiet, echo: owed, now: 990 + REACTION_LIMITS.echoMs - 1 }), { ...base, reaction })).toBe('wait');
    // At echoMs the report is no longer awaited: a quiet screen is taken, a changing one given up on.
    expect(settleVerdict(state({ ...quiet, echo: owed, now: 990 + REACTION_LIMITS.echoMs }), { ...base, reaction })).toBe('settled');
    expect(settleVerdict(state({ ...quiet, echo: owed, unchanged: 0, lastChange: 990 + REACTION_LIMITS.echoMs, now: 990 + REACTION_LIMITS.echoMs }), { ...base, reaction })).toBe('gave-up');
    // Not expected (the old rule): the quiet screen is taken once waitMs passed.
    expect(settleVerdict(state({ ...quiet, echo: { ...owed, expected: false }, now: 990 + REACTION_LIMITS.waitMs + 500 }), { ...base, reaction })).toBe('settled');
    expect(settleVerdict(state({ ...quiet, echo: { seen: false, completeAt: undefined }, now: 990 + REACTION_LIMITS.waitMs + 500 }), { ...base, reaction })).toBe('settled');
    // Part of the text reported: waits past maxMs too.
    expect(settleVerdict(state({ ...quiet, echo: { seen: true, completeAt: undefined }, now: 1_000 + base.maxMs + 1_000 }), { ...base, reaction })).toBe('wait');
    // Without input nothing is owed.
    expect(settleVerdict(state({ ...quiet, echo: owed, unchanged: 0, lastChange: 1_000 + base.maxMs, now: 1_000 + base.maxMs }), base)).toBe('gave-up');
  });

  it('a report that came after maxMs: the text is given the floor to be drawn, then quiet or gave-up', () => {
    const reaction = { since: 990, expectChange: true };
    const late = { roundTrip: { sent: 1_000, answered: 2_000 } as { sent: number; answered: number | undefined }, echo: { seen: true, completeAt: 5_700, expected: true } };
    // Drawn at 5 720: a change after the report.
    const drawn = { ...late, lastChange: 5_720, firstReaction: 5_720, unchanged: 0 };
    expect(settleVerdict(state({ ...drawn, now: 5_720 }), { ...base, reaction })).toBe('wait');
    // The floor counts from the later of the report and the first drawing.
    expect(settleVerdict(state({ ...drawn, now: 5_720 + REACTION_LIMITS.quietFloorMs - 1 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...drawn, now: 5_720 + REACTION_LIMITS.quietFloorMs }), { ...base, reaction })).toBe('gave-up');
    // Quiet from the drawing for the floor: settled.
    expect(settleVerdict(state({ ...drawn, unchanged: 3, now: 5_720 + REACTION_LIMITS.quietFloorMs }), { ...base, maxMs: 60_000, reaction })).toBe('settled');
    // Without input a late report gives no grace.
    expect(settleVerdict(state({ ...drawn, now: 5_720 }), base)).toBe('gave-up');
  });

  it('all of the text reported but nothing drawn since the keys: waits for the change, past maxMs, up to echoMs', () => {
    const reaction = { since: 990, expectChange: true };
    // mousepad at load ~56: the report at 3.8 s, no change on screen; the text drawn 3.9 s later.
    const reported = { roundTrip: { sent: 1_000, answered: 1_500 } as { sent: number; answered: number | undefined }, echo: { seen: true, completeAt: 4_790 } };
    expect(settleVerdict(state({ ...reported, now: 4_790 + REACTION_LIMITS.quietFloorMs }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...reported, now: 990 + REACTION_LIMITS.echoMs - 1 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...reported, now: 990 + REACTION_LIMITS.echoMs }), { ...base, reaction })).toBe('settled');
    // Drawn at 8 700: quiet for the floor from the change, then settled.
    const drawn = { ...reported, firstReaction: 8_700, lastChange: 8_700 };
    expect(settleVerdict(state({ ...drawn, now: 8_700 + REACTION_LIMITS.quietFloorMs - 1 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...drawn, now: 8_700 + REACTION_LIMITS.quietFloorMs, unchanged: 0 }), { ...base, reaction })).toBe('gave-up');
    expect(settleVerdict(state({ ...drawn, now: 8_700 + REACTION_LIMITS.quietFloorMs }), { ...base, maxMs: 60_000, reaction })).toBe('settled');
    // Pointer input owes no drawing.
    expect(settleVerdict(state({ ...reported, now: 4_790 + REACTION_LIMITS.quietFloorMs }), { ...base, reaction: { since: 990, expectChange: false } })).toBe('settled');
  });

  it('maxMs ends any wait, reported as not settled', () => {
    const reaction = { since: 990, expectChange: true };
    expect(settleVerdict(state({ now: 1_000 + 3_000, lastChange: 3_990 }), { ...base, reaction })).toBe('gave-up');
    expect(settleVerdict(state({ now: 1_000 + 500 }), { ...base, maxMs: 500, reaction })).toBe('gave-up');
  });

  it('a window made since the input and not drawn: waits on a quiet screen, past maxMs, up to echoMs; its first drawing dates the quiet', () => {
    const reaction = { since: 1_000, expectChange: false };
    const owed = { windows: { owed: true, drawnAt: undefined } };
    expect(settleVerdict(state({ ...owed, now: 1_500 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...owed, now: 1_000 + REACTION_LIMITS.echoMs - 1 }), { ...base, reaction })).toBe('wait');
    // Past echoMs the screen decides alone (a window never shown costs this once).
    expect(settleVerdict(state({ ...owed, now: 1_000 + REACTION_LIMITS.echoMs }), { ...base, reaction })).toBe('settled');
    expect(settleVerdict(state({ ...owed, now: 1_000 + REACTION_LIMITS.echoMs, unchanged: 0 }), { ...base, reaction })).toBe('gave-up');
    // Drawn at 4 000 (after maxMs) with no change seen: quiet counts from the drawing, and the floor holds off gave-up.
    const drawn = { windows: { owed: false, drawnAt: 4_000 } };
    expect(settleVerdict(state({ ...drawn, now: 4_000 + SETTLE_DEFAULTS.quietMs - 1 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...drawn, now: 4_000 + SETTLE_DEFAULTS.quietMs }), { ...base, reaction })).toBe('settled');
    // Still drawing (a change since, the grab after it not compared yet): the floor holds off gave-up, then it ends.
    const drawing = { ...drawn, lastChange: 4_100, unchanged: 0 };
    expect(settleVerdict(state({ ...drawing, now: 4_000 + REACTION_LIMITS.quietFloorMs - 1 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...drawing, now: 4_000 + REACTION_LIMITS.quietFloorMs }), { ...base, reaction })).toBe('gave-up');
    // Without input nothing is owed.
    expect(settleVerdict(state({ ...owed, now: 1_075 }), base)).toBe('settled');
  });
});
