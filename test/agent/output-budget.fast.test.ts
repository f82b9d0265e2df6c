import { describe, expect, it } from 'vitest';
import { OutputBudget, cutMiddle } from '../../src/main/agent/tools/output-budget.js';

// The one cut of command and block output (tools/output-budget.ts), exactly: what is kept,
// where the note goes and the count it says. The real paths that use it (bash, bubblewrap,
// the sandbox session, Python, QuickJS) are in output-cut-count.test.ts.

/** n characters that differ at every place, so a kept slice from the wrong place shows. */
const text = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(0x4e00 + i)).join('');

describe('cutMiddle', () => {
  it('gives a text within the budget back as it is, uncut', () => {
    expect(cutMiddle('abcd', 4)).toEqual({ text: 'abcd', truncated: false });
    expect(cutMiddle('', 0)).toEqual({ text: '', truncated: false });
  });

  it('keeps half the budget from each end and counts the rest', () => {
    const t = text(11);
    expect(cutMiddle(t, 4)).toEqual({ text: `${t.slice(0, 2)}\n[... 7 characters cut ...]\n${t.slice(9)}`, truncated: true });
    // An odd budget keeps its floor half at each end: one more character is cut.
    expect(cutMiddle(t, 5).text).toBe(`${t.slice(0, 2)}\n[... 7 characters cut ...]\n${t.slice(9)}`);
    expect(cutMiddle(t, 10).text).toBe(`${t.slice(0, 5)}\n[... 1 characters cut ...]\n${t.slice(6)}`);
  });

  it('adds what was left out before, and says so even when what is left fits', () => {
    const t = text(6);
    expect(cutMiddle(t, 4, 100)).toEqual({ text: `${t.slice(0, 2)}\n[... 102 characters cut ...]\n${t.slice(4)}`, truncated: true });
    // Fits, but 9 were dropped on the way: all of it is kept around the note.
    expect(cutMiddle(t, 10, 9)).toEqual({ text: `${t.slice(0, 3)}\n[... 9 characters cut ...]\n${t.slice(3)}`, truncated: true });
    expect(cutMiddle(text(5), 10, 1).text).toBe(`${text(5).slice(0, 2)}\n[... 2 characters cut ...]\n${text(5).slice(3)}`);
  });
});

describe('OutputBudget', () => {
  it('holds everything up to four budgets, uncut, and cuts only at the end', () => {
    const t = text(40);
    const budget = new OutputBudget(10);
    budget.add(t.slice(0, 25));
    budget.add(t.slice(25));
    expect(budget.text).toBe(t);
    expect(budget.cut()).toEqual({ text: `${t.slice(0, 5)}\n[... 30 characters cut ...]\n${t.slice(35)}`, truncated: true });
  });

  it('past four budgets keeps one budget from each end and counts the middle it left out', () => {
    const t = text(41);
    const budget = new OutputBudget(10);
    budget.add(t);
    expect(budget.text).toBe(t.slice(0, 10) + t.slice(31));
    expect(budget.cut().text).toBe(`${t.slice(0, 5)}\n[... 31 characters cut ...]\n${t.slice(36)}`);
  });

  it('cut many times as a flood streams in, the note counts every character left out and the ends are the true ends', () => {
    const t = text(1_000);
    const budget = new OutputBudget(8);
    for (let i = 0; i < t.length; i += 7) budget.add(t.slice(i, i + 7));
    expect(budget.text.length).toBeLessThanOrEqual(4 * 8);
    expect(budget.text.startsWith(t.slice(0, 8))).toBe(true);
    expect(budget.cut()).toEqual({ text: `${t.slice(0, 4)}\n[... 992 characters cut ...]\n${t.slice(996)}`, truncated: true });
  });

  it('counts what was dropped before it arrived (the sandbox supervisor) with its own cut', () => {
    const budget = new OutputBudget(4);
    budget.add('abcdef');
    budget.addDropped(50);
    budget.addDropped(7);
    expect(budget.text).toBe('abcdef');
    expect(budget.cut()).toEqual({ text: 'ab\n[... 59 characters cut ...]\nef', truncated: true });
  });

  it('a budget of 0 keeps nothing and still counts it all', () => {
    const budget = new OutputBudget(0);
    budget.add('abc');
    budget.add('de');
    expect(budget.text).toBe('');
    expect(budget.cut()).toEqual({ text: '\n[... 5 characters cut ...]\n', truncated: true });
  });

  it('an output within the budget comes back whole, and nothing added is nothing cut', () => {
    const budget = new OutputBudget(10);
    expect(budget.cut()).toEqual({ text: '', truncated: false });
    budget.add('0123456789');
    expect(budget.cut()).toEqual({ text: '0123456789', truncated: false });
  });
});
