/**
 * The element-op half of a replay without a desktop (element-ops.ts): what is refused
 * before acting, and what the effect read-back calls a divergence. The real thing runs
 * in replay-element-ops.desktop.test.ts against GTK 3.
 */
import { describe, expect, it } from 'vitest';
import type { ElementLookup, ElementNode, ElementState } from '../../src/shared/elements.js';
import { elementEffectDiverges, placeElementOp, type ElementExpectation, type ElementOpAction } from '../../src/main/agent/replay/element-ops.js';

const PATH = 'application "f" > frame "F" > check box "Box"';
const node = (states: ElementState[], extra: Partial<ElementNode> = {}): ElementNode => ({ path: PATH, role: 'check box', name: 'Box', states, actions: ['toggle'], bounds: { x: 100, y: 200, width: 20, height: 10 }, children: [], ...extra });
const finder = (...answers: ElementLookup[]) => {
  const asked: string[] = [];
  return {
    asked,
    findElement: async (path: string): Promise<ElementLookup> => {
      asked.push(path);
      return answers.length > 1 ? answers.shift()! : answers[0]!;
    },
  };
};
const invoke: ElementOpAction = { type: 'element', op: 'invoke', id: 3, target: { path: PATH, role: 'check box', name: 'Box', x: 5, y: 5 } };

describe('placeElementOp', () => {
  it('finds the element by its recorded path and moves the target to its centre now, keeping op and value', async () => {
    const computer = finder({ kind: 'found', element: node(['checked']) });
    const placed = await placeElementOp({ ...invoke, op: 'set_value', value: 'x' }, computer);
    expect(computer.asked).toEqual([PATH]);
    expect(placed).toMatchObject({ kind: 'placed', action: { op: 'set_value', value: 'x', target: { path: PATH, x: 110, y: 205 } }, expect: { op: 'set_value', value: 'x', checkedBefore: true } });
  });

  it('refuses an element the path no longer finds (renamed or gone), naming what the lookup saw', async () => {
    const placed = await placeElementOp(invoke, finder({ kind: 'missing', matched: 'application "f" > frame "F"', detail: 'no check box "Box" under frame "F"' }));
    expect(placed).toEqual({ kind: 'missing', tried: [`element path ${JSON.stringify(PATH)}: no check box "Box" under frame "F"`] });
    expect(await placeElementOp({ ...invoke, target: undefined }, finder({ kind: 'found', element: node([]) }))).toMatchObject({ kind: 'missing' });
  });
});

describe('elementEffectDiverges', () => {
  const expectation = (op: ElementExpectation['op'], extra: Partial<ElementExpectation> = {}): ElementExpectation => ({ path: PATH, op, label: 'check box "Box"', checkedBefore: false, ...extra });

  it('holds when the check box toggled, the value was set, the focus was taken', async () => {
    expect(await elementEffectDiverges([expectation('invoke')], finder({ kind: 'found', element: node(['checked']) }))).toBeUndefined();
    expect(await elementEffectDiverges([expectation('set_value', { value: 'hi' })], finder({ kind: 'found', element: node([], { value: 'hi' }) }))).toBeUndefined();
    expect(await elementEffectDiverges([expectation('focus')], finder({ kind: 'found', element: node(['focused']) }))).toBeUndefined();
  });

  it('waits for an app that applies the call late (the third read shows it)', async () => {
    const late = finder({ kind: 'found', element: node([]) }, { kind: 'found', element: node([]) }, { kind: 'found', element: node(['checked']) });
    expect(await elementEffectDiverges([expectation('invoke')], late)).toBeUndefined();
    expect(late.asked).toHaveLength(3);
  });

  it('names the effect that is missing after 10 reads', async () => {
    const same = finder({ kind: 'found', element: node([], { value: 'old' }) });
    expect(await elementEffectDiverges([expectation('set_value', { value: 'new' })], same)).toBe('check box "Box" reads "old" after the replayed set_value, not "new"');
    expect(same.asked).toHaveLength(10);
    expect(await elementEffectDiverges([expectation('invoke', { checkedBefore: true })], finder({ kind: 'found', element: node(['checked']) }))).toMatch(/was not toggled .*still checked/);
    expect(await elementEffectDiverges([expectation('focus')], finder({ kind: 'found', element: node([]) }))).toMatch(/does not have the keyboard focus/);
    expect(await elementEffectDiverges([expectation('focus')], finder({ kind: 'none', reason: 'no-bus', detail: 'no bus' }))).toMatch(/is gone after the replayed focus \(no bus\)/);
  });

  it('a push button invoke and a password field are left to the screen comparison', async () => {
    expect(await elementEffectDiverges([expectation('invoke')], finder({ kind: 'found', element: node([], { role: 'push button' }) }))).toBeUndefined();
    expect(await elementEffectDiverges([expectation('set_value', { value: 'pw' })], finder({ kind: 'found', element: node(['password']) }))).toBeUndefined();
  });
});

describe('isElementOp', () => {
  it('is true for the ops replayed on the element itself, false for a click (replayed as a pointer click), and refuses an unknown op', async () => {
    const { isElementOp } = await import('../../src/main/agent/replay/element-ops.js');
    expect((['click', 'focus', 'set_value', 'invoke'] as const).map((op) => isElementOp({ ...invoke, op }))).toEqual([false, true, true, true]);
    expect(() => isElementOp({ ...invoke, op: 'drag' as never })).toThrow(/element op/);
  });

  it('a recorded op that names no element path says so', async () => {
    expect(await placeElementOp({ ...invoke, op: 'focus', target: undefined }, finder({ kind: 'found', element: node([]) }))).toEqual({ kind: 'missing', tried: ['the recorded focus names no element path'] });
  });
});
