import { describe, expect, it } from 'vitest';
import { hasTarget, targetOf } from '../../src/renderer/lib/geometry.js';

// The approval card's target marker reads targetOf, which now derives from the one list
// of an action's points (shared/actions.ts actionPoints).

describe('targetOf', () => {
  it('the point a pointer action acts on, the drop point of a drag, none for the rest', () => {
    expect(targetOf({ type: 'click', x: 3, y: 4, button: 'left', clicks: 1, modifiers: [] })).toEqual({ x: 3, y: 4 });
    expect(targetOf({ type: 'scroll', x: 5, y: 6, direction: 'down', amount: 3, modifiers: [] })).toEqual({ x: 5, y: 6 });
    expect(targetOf({ type: 'mouse_down', button: 'left' })).toBeNull();
    expect(targetOf({ type: 'mouse_up', button: 'left', x: 1, y: 2 })).toEqual({ x: 1, y: 2 });
    expect(targetOf({ type: 'drag', path: [{ x: 0, y: 0 }, { x: 9, y: 8 }], button: 'left', modifiers: [] })).toEqual({ x: 9, y: 8 });
    expect(targetOf({ type: 'zoom', region: { x: 0, y: 0, width: 10, height: 10 } })).toBeNull();
    expect(targetOf({ type: 'type', text: 'x' })).toBeNull();
    expect(hasTarget({ type: 'mouse_down', button: 'left' })).toBe(true);
    expect(hasTarget({ type: 'zoom', region: { x: 0, y: 0, width: 10, height: 10 } })).toBe(false);
  });
});
