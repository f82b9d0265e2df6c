import { describe, expect, it } from 'vitest';
import type { ElementLookup, ElementNode } from '../../src/shared/elements.js';
import { ActionSchema } from '../../src/shared/actions.js';
import type { TrajectoryStep } from '../../src/shared/trajectory.js';
import { earlyLookups, pathsToLookUp } from '../../src/main/agent/replay/early-lookups.js';
import { PLAIN_CONTRAST } from '../../src/main/agent/replay/find-target.js';

// A replay turn starts the element lookups it is sure to make before it decodes its
// screenshot (replay-provider.ts). Each early answer serves one caller: an effect check
// that reads again must see the app afresh, and a failed lookup must reach its caller.

const node = (path: string, value: string): ElementNode => ({ path, role: 'entry', name: '', value, states: ['visible'], actions: [], children: [] });

/** A bus stand-in: every findElement is counted and answers with the path's current value. */
function bus(values: Map<string, string>, failing = new Set<string>()) {
  const asked: string[] = [];
  return {
    asked,
    computer: {
      async findElement(path: string): Promise<ElementLookup> {
        asked.push(path);
        if (failing.has(path)) throw new Error(`the bus went away reading ${path}`);
        const value = values.get(path);
        return value === undefined ? { kind: 'missing', matched: '', detail: `no ${path}` } : { kind: 'found', element: node(path, value) };
      },
      elementTree: () => Promise.reject(new Error('not used')),
    },
  };
}

describe('earlyLookups', () => {
  it('starts each lookup at once, serves its answer to the first caller only, then asks the bus afresh', async () => {
    const values = new Map([['a', 'old']]);
    const b = bus(values);
    const lookups = earlyLookups(b.computer, ['a']);
    expect(b.asked).toEqual(['a']);
    values.set('a', 'new');
    expect(await lookups.findElement('a')).toMatchObject({ kind: 'found', element: { value: 'old' } });
    expect(await lookups.findElement('a')).toMatchObject({ kind: 'found', element: { value: 'new' } });
    expect(b.asked).toEqual(['a', 'a']);
  });

  it('a path not started early goes straight to the bus', async () => {
    const b = bus(new Map([['b', 'x']]));
    const lookups = earlyLookups(b.computer, []);
    expect(b.asked).toEqual([]);
    expect(await lookups.findElement('b')).toMatchObject({ kind: 'found' });
    expect(b.asked).toEqual(['b']);
  });

  it('a failed early lookup is thrown to its first caller, not left unhandled; the next call asks again', async () => {
    const failing = new Set(['c']);
    const b = bus(new Map([['c', 'v']]), failing);
    const lookups = earlyLookups(b.computer, ['c']);
    // Let the failure settle before anyone asks: it must not surface as an unhandled rejection.
    await new Promise((r) => setTimeout(r, 10));
    failing.clear();
    await expect(lookups.findElement('c')).rejects.toThrow(/the bus went away reading c/);
    expect(await lookups.findElement('c')).toMatchObject({ kind: 'found' });
  });
});

describe('pathsToLookUp', () => {
  const act = (input: Record<string, unknown>) => ActionSchema.parse(input);
  const shot = { image: 'x.png', fingerprint: 'AA==', size: { width: 10, height: 10 } };
  const element = (path: string) => ({ path, role: 'push button', name: 'n' });
  const patch = (contrast: number) => ({ image: 'p.png', bounds: { x: 0, y: 0, width: 72, height: 40 }, contrast });
  const step = (actions: TrajectoryStep['actions']): TrajectoryStep => ({ step: 1, intent: '', actions, before: shot, origin: 'model' });

  it('element ops and plain-patch targets, once each; a target that can be checked in place is left to that check', () => {
    const paths = pathsToLookUp(
      step([
        { action: act({ type: 'element', op: 'set_value', id: 3, value: 'v', target: { path: 'op', role: 'entry', name: '', x: 1, y: 1 } }) },
        { action: act({ type: 'click', x: 1, y: 1 }), target: { point: { x: 1, y: 1 }, element: element('plain'), patch: patch(PLAIN_CONTRAST - 1) } },
        { action: act({ type: 'click', x: 1, y: 1 }), target: { point: { x: 1, y: 1 }, element: element('no-patch') } },
        { action: act({ type: 'click', x: 1, y: 1 }), target: { point: { x: 1, y: 1 }, element: element('textured'), patch: patch(PLAIN_CONTRAST) } },
        { action: act({ type: 'click', x: 1, y: 1 }), target: { point: { x: 1, y: 1 }, element: element('plain'), patch: patch(0) } },
        { action: act({ type: 'type', text: 'x' }) },
      ]),
    );
    expect(paths).toEqual(['op', 'plain', 'no-patch']);
  });
});
