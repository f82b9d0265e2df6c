import { describe, expect, it } from 'vitest';
import { decide, TIE_MARGIN } from '../../../src/main/agent/resolve/decide.js';
import { parseDescription } from '../../../src/main/agent/resolve/describe.js';
import { inDirection, samePlace } from '../../../src/main/agent/resolve/geometry.js';
import { nameWords, textScore } from '../../../src/main/agent/resolve/tree-stage.js';
import { zoomConfidence, zoomRegion, ZOOM_CONFIDENCE } from '../../../src/main/agent/resolve/zoom.js';
import type { Candidate } from '../../../src/main/agent/resolve/types.js';

const cand = (x: number, confidence: number): Candidate => ({ point: { x, y: 10 }, stage: 'tree', confidence, label: `c${x}` });

describe('decide', () => {
  it('one clear best; a tie within the margin; nothing below the accept line', () => {
    expect(decide([cand(1, 0.9), cand(2, 1)], 0.5)).toEqual({ kind: 'one', best: cand(2, 1) });
    const tie = decide([cand(1, 1), cand(2, 1 - TIE_MARGIN / 2), cand(3, 0.7)], 0.5);
    expect(tie).toEqual({ kind: 'tie', tied: [cand(1, 1), cand(2, 1 - TIE_MARGIN / 2)] });
    expect(decide([cand(1, 1), cand(2, 1 - TIE_MARGIN)], 0.5).kind).toBe('one');
    expect(decide([cand(1, 0.49)], 0.5)).toEqual({ kind: 'none' });
    expect(decide([cand(1, 0.5)], 0.5).kind).toBe('one');
  });
});

describe('parseDescription', () => {
  it('reads words, role words, quotes, scope, relations and sign names', () => {
    expect(parseDescription('click the OK button in the Save As dialog')).toMatchObject({ words: 'ok', quoted: false, scope: 'save as dialog' });
    expect(parseDescription('the "File name" field')).toMatchObject({ words: 'file name', quoted: true, roles: expect.arrayContaining(['text']) });
    expect(parseDescription('the button right of Cancel')).toMatchObject({ words: '', relation: { direction: 'right', anchor: { words: 'cancel' } } });
    expect(parseDescription('the equals button').alternatives).toEqual(['=']);
    expect(parseDescription('Save').roles).toEqual([]);
  });
  it('refuses empty and over-long descriptions', () => {
    expect(() => parseDescription(' \n ')).toThrow(/empty/);
    expect(parseDescription('x'.repeat(300)).words).toHaveLength(300);
    expect(() => parseDescription('x'.repeat(301))).toThrow(/301 characters/);
  });
});

describe('names and geometry', () => {
  it('GTK 4.8 doubled names and edge punctuation', () => {
    expect(nameWords('7 7')).toBe('7');
    expect(nameWords('Save…')).toBe('save');
    expect(textScore('Save As', 'save', false)).toBeCloseTo(0.75, 5);
    expect(textScore('Save As', 'save', true)).toBe(0);
    expect(textScore('Sve', 'save', false)).toBeCloseTo(0.75 * 0.85, 5);
    expect(textScore('Open', 'save', false)).toBe(0);
  });
  it('directions, and one place for a button and its label', () => {
    const a = { x: 100, y: 100, width: 50, height: 20 };
    expect(inDirection(a, { x: 160, y: 100, width: 50, height: 20 }, 'right')).toBe(10);
    expect(inDirection(a, { x: 160, y: 130, width: 50, height: 20 }, 'right')).toBeUndefined();
    expect(inDirection(a, { x: 30, y: 100, width: 50, height: 20 }, 'left')).toBe(20);
    expect(inDirection(a, { x: 100, y: 130, width: 50, height: 20 }, 'below')).toBe(10);
    expect(inDirection(a, { x: 100, y: 60, width: 50, height: 20 }, 'above')).toBe(20);
    expect(samePlace({ bounds: a, point: { x: 125, y: 110 } }, { bounds: { x: 110, y: 105, width: 10, height: 10 }, point: { x: 115, y: 110 } })).toBe(true);
  });
  it('the zoom crop is half the display each way, kept inside it', () => {
    const display = { x: 0, y: 0, width: 1280, height: 800 };
    expect(zoomRegion({ x: 640, y: 400 }, display)).toEqual({ x: 320, y: 200, width: 640, height: 400 });
    expect(zoomRegion({ x: 5, y: 790 }, display)).toEqual({ x: 0, y: 400, width: 640, height: 400 });
    expect(zoomRegion({ x: 1300, y: -5 }, { x: 1280, y: 0, width: 1280, height: 800 })).toEqual({ x: 1280, y: 0, width: 640, height: 400 });
    const crop = { x: 0, y: 0, width: 640, height: 400 };
    expect(zoomConfidence({ x: 100, y: 100 }, { x: 180, y: 100 }, crop)).toBe(ZOOM_CONFIDENCE.agree);
    expect(zoomConfidence({ x: 100, y: 100 }, { x: 181, y: 100 }, crop)).toBe(ZOOM_CONFIDENCE.moved);
  });
});
