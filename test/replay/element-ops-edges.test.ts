/**
 * element-ops.ts at its edges (issue 28 item 9: mutation ≥ 90%): what a placed op
 * expects and says, an element without bounds keeps the recorded point, every toggling
 * role's invoke must toggle, a set_value with no value expects an empty field, and the
 * effect is read at once, then again every 100 ms (fake timers: no real waiting).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ElementLookup, ElementNode } from '../../src/shared/elements.js';
import { elementEffectDiverges, placeElementOp, type ElementExpectation, type ElementOpAction } from '../../src/main/agent/replay/element-ops.js';

const PATH = 'frame "Form" > push button "Save"';
const node = (over: Partial<ElementNode> = {}): ElementNode => ({ path: PATH, role: 'push button', name: 'Save', states: ['visible', 'enabled'], actions: [], children: [], ...over }) as ElementNode;
const found = (n: ElementNode): ElementLookup => ({ kind: 'found', element: n });
const op = (o: 'focus' | 'set_value' | 'invoke', value?: string): ElementOpAction =>
  ({ type: 'element', op: o, id: 3, ...(value !== undefined ? { value } : {}), target: { path: PATH, role: 'push button', name: 'Save', x: 40, y: 50, password: false } }) as ElementOpAction;

afterEach(() => {
  vi.useRealTimers();
});

describe('placeElementOp', () => {
  it('says what it found, expects no value for an op without one, and keeps the recorded point for an element without bounds', async () => {
    const placed = await placeElementOp(op('invoke'), { findElement: async () => found(node({ role: 'check box', name: 'Remember', states: ['visible', 'checked'] })) });
    expect(placed).toEqual({
      kind: 'placed',
      action: { ...op('invoke'), target: { path: PATH, role: 'check box', name: 'Remember', x: 40, y: 50, password: false } },
      expect: { path: PATH, op: 'invoke', label: 'check box "Remember"', checkedBefore: true },
      found: 'element path: check box "Remember"',
    });
  });

  it('a set_value expects its value; with bounds the point is the centre now', async () => {
    const placed = await placeElementOp(op('set_value', 'abc'), { findElement: async () => found(node({ role: 'entry', name: 'Name', bounds: { x: 10, y: 20, width: 100, height: 30 } })) });
    expect(placed).toMatchObject({ kind: 'placed', action: { value: 'abc', target: { x: 60, y: 35 } }, expect: { value: 'abc', label: 'entry "Name"', checkedBefore: false } });
  });
});

describe('elementEffectDiverges', () => {
  const expectation = (o: ElementExpectation['op'], over: Partial<ElementExpectation> = {}): ElementExpectation => ({ path: PATH, op: o, label: 'x "y"', checkedBefore: false, ...over });

  it('an invoke of every toggling role must toggle it; the message says the state it stayed in', async () => {
    for (const role of ['check box', 'toggle button', 'check menu item']) {
      expect(await elementEffectDiverges([expectation('invoke', { label: `${role} "B"`, checkedBefore: true })], { findElement: async () => found(node({ role, states: ['visible'] })) })).toBeUndefined();
    }
    vi.useFakeTimers();
    for (const role of ['toggle button', 'check menu item']) {
      const result = elementEffectDiverges([expectation('invoke', { label: `${role} "B"` })], { findElement: async () => found(node({ role, states: ['visible'] })) });
      await vi.advanceTimersByTimeAsync(2_000);
      expect(await result).toBe(`${role} "B" was not toggled by the replayed invoke (still unchecked)`);
    }
    // A push button's invoke shows on the screen, not in its states.
    const push = elementEffectDiverges([expectation('invoke')], { findElement: async () => found(node({ states: ['visible'] })) });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await push).toBeUndefined();
  });

  it('a set_value with no value expects an empty field; a field with no value reads as ""', async () => {
    vi.useFakeTimers();
    const empty = elementEffectDiverges([expectation('set_value')], { findElement: async () => found(node({ role: 'entry', value: '' })) });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await empty).toBeUndefined();
    const none = elementEffectDiverges([expectation('set_value', { value: 'abc' })], { findElement: async () => found(node({ role: 'entry' })) });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await none).toBe('x "y" reads "" after the replayed set_value, not "abc"');
  });

  it('every expectation is checked: the first holding does not pass a second that does not', async () => {
    vi.useFakeTimers();
    const lookups: Record<string, ElementNode> = { a: node({ path: 'a', states: ['visible', 'focused'] }), b: node({ path: 'b', states: ['visible'] }) };
    const result = elementEffectDiverges([expectation('focus', { path: 'a', label: 'A' }), expectation('focus', { path: 'b', label: 'B' })], { findElement: async (p) => found(lookups[p]!) });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await result).toBe('B does not have the keyboard focus after the replayed focus');
  });

  it('reads the tree at once, then every 100 ms, ten reads in all before the effect is missing', async () => {
    vi.useFakeTimers();
    let reads = 0;
    const result = elementEffectDiverges([expectation('focus')], { findElement: async () => (reads++, found(node({ states: ['visible'] }))) });
    await vi.advanceTimersByTimeAsync(0);
    expect(reads).toBe(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(reads).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(reads).toBe(2);
    await vi.advanceTimersByTimeAsync(800);
    expect(reads).toBe(10);
    expect(await result).toBe('x "y" does not have the keyboard focus after the replayed focus');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reads).toBe(10);
  });
});
