/**
 * settle-echo.ts's match of the typed text against what the app reports inserting, and
 * settle.ts's rule 5 on it (issue 26 item 1): once the app has reported part of the
 * typed text, settle waits for the rest; an app that reports nothing costs nothing.
 * The desktop test (settle-echo.desktop.test.ts) checks the screenshot itself.
 */
import { describe, expect, it } from 'vitest';
import { EchoMatch, insertedText } from '../../src/os-control/settle-echo.js';
import { REACTION_LIMITS, SETTLE_DEFAULTS, settleVerdict, type SettleState } from '../../src/os-control/settle.js';

function match(typed: string, ...inserts: string[]): EchoMatch {
  const m = new EchoMatch();
  m.expect(typed);
  for (const i of inserts) m.insert(i);
  return m;
}

describe('EchoMatch', () => {
  it('is complete once every typed character came back in order, however the app split it', () => {
    expect(match('Replay ✓ Grüße 7', 'Re').complete).toBe(false);
    expect(match('Replay ✓ Grüße 7', 'Re', 'play ✓ Grüße').complete).toBe(false);
    expect(match('Replay ✓ Grüße 7', 'Re', 'play ✓ Grüße 7').complete).toBe(true);
    expect(match('Replay ✓ Grüße 7', 'Replay ✓ Grüße 7').complete).toBe(true);
    // Out of order is not the text.
    expect(match('ab', 'b', 'a').complete).toBe(false);
  });

  it('allows what the app inserts between the typed characters (an autocompletion)', () => {
    expect(match('goo', 'g', 'o', 'ogle.com').complete).toBe(true);
    expect(match('goo', 'g', 'xx', 'o').complete).toBe(false);
  });

  it('leaves control characters out: Return and Tab are keys, never inserted', () => {
    expect(match('name\tsecond\n', 'name', 'second').complete).toBe(true);
    expect(match('line one\r\nline two', 'line one', 'line two').complete).toBe(true);
  });

  it('takes a password mask: as many inserted characters as typed, all one character', () => {
    expect(match('hunter2', '•••', '••••').complete).toBe(true);
    expect(match('hunter2', '•••', '•••').complete).toBe(false);
    expect(match('hunter2', '•••', '*', '•••').complete).toBe(false);
  });

  it('counts text typed in two calls before one settle as one text', () => {
    const m = match('abc', 'abc');
    expect(m.complete).toBe(true);
    m.expect('def');
    expect(m.complete).toBe(false);
    m.insert('de');
    expect(m.complete).toBe(false);
    m.insert('f');
    expect(m.complete).toBe(true);
  });

  it('with nothing typed (only keys such as Return), it is complete at once and waits for nothing', () => {
    expect(match('\n').complete).toBe(true);
    expect(match('').complete).toBe(true);
  });

  it('has seen nothing until the first insert', () => {
    const m = match('abc');
    expect(m.seen).toBe(false);
    expect(m.complete).toBe(false);
    m.insert('x');
    expect(m.seen).toBe(true);
  });
});

describe('insertedText', () => {
  const variant = (value: unknown) => ({ signature: 's', value });
  it('reads the text of an insert (AT-SPI TextChanged: detail, offset, length, the text, properties)', () => {
    expect(insertedText(['insert', 0, 2, variant('Re'), {}])).toBe('Re');
    expect(insertedText(['insert:system', 3, 1, variant('✓'), {}])).toBe('✓');
    // A field more than today's five (a later AT-SPI) does not hide the text.
    expect(insertedText(['insert', 0, 2, variant('Re'), {}, 'later'])).toBe('Re');
  });
  it('ignores a deletion and any other shape', () => {
    expect(insertedText(['delete', 0, 2, variant('Re'), {}])).toBeUndefined();
    expect(insertedText(['insert', 0, 2, variant(7), {}])).toBeUndefined();
    expect(insertedText(['insert', 0, 2])).toBeUndefined();
    expect(insertedText('insert')).toBeUndefined();
  });
});

describe('settleVerdict rule 5: the typed text reported back', () => {
  const base = { minMs: 0, maxMs: 3_000, quietMs: SETTLE_DEFAULTS.quietMs };
  const reaction = { since: 990, expectChange: true };
  // The app drew part of the text at 1 010 and has been still since.
  const state = (o: Partial<SettleState>): SettleState => ({ start: 1_000, now: 2_000, lastChange: 1_010, firstReaction: 1_010, compared: 50, unchanged: 49, ...o });

  it('waits while the app has reported part of the text, past waitMs and maxMs, until echoMs after the keys', () => {
    const partial = { seen: true, completeAt: undefined };
    expect(settleVerdict(state({ echo: partial }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ echo: partial, now: 990 + REACTION_LIMITS.waitMs + 500 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ echo: partial, now: 1_000 + base.maxMs }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ echo: partial, now: 990 + REACTION_LIMITS.echoMs - 1 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ echo: partial, now: 990 + REACTION_LIMITS.echoMs, unchanged: 0, lastChange: 990 + REACTION_LIMITS.echoMs }), { ...base, reaction })).toBe('gave-up');
  });

  it('counts the quiet window from the moment all of it came back', () => {
    const complete = { seen: true, completeAt: 1_900 };
    expect(settleVerdict(state({ echo: complete, now: 1_900 + REACTION_LIMITS.quietFloorMs - 1 }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ echo: complete, now: 1_900 + REACTION_LIMITS.quietFloorMs }), { ...base, reaction })).toBe('settled');
  });

  it('once all of it came back, a slow first reaction no longer grows the quiet window (only drawing is left)', () => {
    // First change 900 ms after the keys: without the report the window is 900 ms.
    const slow = { firstReaction: 1_890, lastChange: 1_900 };
    expect(settleVerdict(state({ ...slow, now: 1_900 + REACTION_LIMITS.quietFloorMs }), { ...base, reaction })).toBe('wait');
    expect(settleVerdict(state({ ...slow, echo: { seen: true, completeAt: 1_895 }, now: 1_900 + REACTION_LIMITS.quietFloorMs }), { ...base, reaction })).toBe('settled');
  });

  it('does not wait for an app that reported nothing (no accessibility bridge)', () => {
    expect(settleVerdict(state({ echo: { seen: false, completeAt: undefined } }), { ...base, reaction })).toBe('settled');
    expect(settleVerdict(state({ echo: undefined }), { ...base, reaction })).toBe('settled');
  });
});
