/**
 * echo-memory.ts: which windows settle expects typed text back from (issue 26 item 1).
 * A window is expected once a typing into it came back whole, unmarked when an expected
 * report never came; no window (0) is never expected; the memory keeps the newest 32.
 */
import { describe, expect, it } from 'vitest';
import { ECHO_MEMORY_SIZE, EchoingWindows, echoOutcome } from '../../src/os-control/echo-memory.js';

describe('EchoingWindows', () => {
  it('expects a window only after a typing into it came back whole', () => {
    const memory = new EchoingWindows();
    expect(memory.expects(0x400001)).toBe(false);
    memory.learn(0x400001, 'other');
    expect(memory.expects(0x400001)).toBe(false);
    memory.learn(0x400001, 'complete');
    expect(memory.expects(0x400001)).toBe(true);
    expect(memory.expects(0x600001)).toBe(false);
    // A part of the text, or a report not expected, changes nothing.
    memory.learn(0x400001, 'other');
    expect(memory.expects(0x400001)).toBe(true);
  });

  it('an expected report that never came unmarks the window (one wait, not one per typing)', () => {
    const memory = new EchoingWindows();
    memory.learn(7, 'complete');
    memory.learn(8, 'complete');
    memory.learn(7, 'silent');
    expect(memory.expects(7)).toBe(false);
    expect(memory.expects(8)).toBe(true);
    memory.learn(9, 'silent');
    expect(memory.expects(9)).toBe(false);
  });

  it('no focused window (0) is never learnt nor expected', () => {
    const memory = new EchoingWindows();
    memory.learn(0, 'complete');
    expect(memory.expects(0)).toBe(false);
  });

  it(`keeps the ${ECHO_MEMORY_SIZE} windows marked last; marking again makes a window the newest`, () => {
    const memory = new EchoingWindows();
    for (let w = 1; w <= ECHO_MEMORY_SIZE; w++) memory.learn(w, 'complete');
    memory.learn(1, 'complete');
    memory.learn(ECHO_MEMORY_SIZE + 1, 'complete');
    expect(memory.expects(1)).toBe(true);
    expect(memory.expects(2)).toBe(false);
    expect(memory.expects(3)).toBe(true);
    expect(memory.expects(ECHO_MEMORY_SIZE + 1)).toBe(true);
    const kept = Array.from({ length: ECHO_MEMORY_SIZE + 1 }, (_, i) => i + 1).filter((w) => memory.expects(w));
    expect(kept).toHaveLength(ECHO_MEMORY_SIZE);
  });
});

describe('echoOutcome', () => {
  it('whole text back: complete, whether expected or not', () => {
    expect(echoOutcome({ seen: true, completeAt: 5, expected: false })).toBe('complete');
    expect(echoOutcome({ seen: true, completeAt: 5, expected: true })).toBe('complete');
    expect(echoOutcome({ seen: true, completeAt: 5 })).toBe('complete');
  });

  it('expected and nothing came: silent; anything else: other', () => {
    expect(echoOutcome({ seen: false, completeAt: undefined, expected: true })).toBe('silent');
    expect(echoOutcome({ seen: true, completeAt: undefined, expected: true })).toBe('other');
    expect(echoOutcome({ seen: false, completeAt: undefined, expected: false })).toBe('other');
    expect(echoOutcome({ seen: false, completeAt: undefined })).toBe('other');
  });
});
