import { describe, expect, it } from 'vitest';
import { checkAction } from '../../src/os-control/check-action.js';

// Semantic validation of model output against the screenshot the model saw.
const seen = { image: { width: 1280, height: 800, format: 'jpeg' as const } };

describe('checkAction', () => {
  it('accepts a click inside the screenshot and fills defaults', () => {
    const r = checkAction({ type: 'click', x: 1279, y: 0 }, seen);
    expect(r).toEqual({ ok: true, action: { type: 'click', x: 1279, y: 0, button: 'left', clicks: 1, modifiers: [] } });
  });

  it('accepts the far edge, as the coordinate mapping does (one rule: os-control checkImagePoint)', () => {
    expect(checkAction({ type: 'click', x: 1280, y: 800 }, seen)).toMatchObject({ ok: true, action: { x: 1280, y: 800 } });
  });

  it.each([
    [{ type: 'click', x: -5, y: 10 }, 'x must be within 0–1279 and y within 0–799'],
    [{ type: 'click', x: 1280.5, y: 10 }, 'x must be within 0–1279'],
    [{ type: 'move', x: 10, y: 1e9 }, 'outside the screenshot'],
    [{ type: 'drag', path: [{ x: 1, y: 1 }, { x: 5000, y: 1 }] }, 'outside the screenshot'],
    [{ type: 'zoom', region: { x: 1200, y: 700, width: 200, height: 50 } }, 'outside the screenshot'],
  ])('rejects %j with a message stating the valid range', (action, message) => {
    const r = checkAction(action, seen);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(message);
  });

  it.each([
    { type: 'click', x: Number.NaN, y: 1 },
    { type: 'click', x: '12', y: 1 },
    { type: 'teleport', x: 1, y: 1 },
    { type: 'type', text: 'x'.repeat(1_000_000) },
    { type: 'type', text: '' },
    null,
    'click',
  ])('rejects malformed %#', (action) => {
    const r = checkAction(action, seen);
    expect(r.ok).toBe(false);
    // The error never echoes a huge input back.
    if (!r.ok) expect(r.error.length).toBeLessThan(2_000);
  });

  it('checks key names and modifiers with the key table', () => {
    expect(checkAction({ type: 'key', keys: 'ctrl+shift+Tab' }, seen).ok).toBe(true);
    const bad = checkAction({ type: 'key', keys: 'ctrl+Entr' }, seen);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/Entr/);
    expect(checkAction({ type: 'click', x: 1, y: 1, modifiers: ['hyperdrive'] }, seen).ok).toBe(false);
  });

  it('refuses coordinates when no screenshot was taken yet, but not keyboard actions', () => {
    expect(checkAction({ type: 'click', x: 1, y: 1 }, undefined).ok).toBe(false);
    expect(checkAction({ type: 'type', text: 'héllo 日本' }, undefined)).toEqual({ ok: true, action: { type: 'type', text: 'héllo 日本' } });
  });
});
