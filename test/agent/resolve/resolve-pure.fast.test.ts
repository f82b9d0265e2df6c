import { describe, expect, it } from 'vitest';
import { decide, TIE_MARGIN } from '../../../src/main/agent/resolve/decide.js';
import { parseDescription } from '../../../src/main/agent/resolve/describe.js';
import { inDirection, samePlace } from '../../../src/main/agent/resolve/geometry.js';
import { nameWords, textScore, treeCandidates } from '../../../src/main/agent/resolve/tree-stage.js';
import type { ElementNode } from '../../../src/shared/elements.js';
import { zoomConfidence, zoomRegion, ZOOM_CONFIDENCE } from '../../../src/main/agent/resolve/zoom.js';
import type { Candidate } from '../../../src/main/agent/resolve/types.js';

const cand = (x: number, confidence: number): Candidate => ({ point: { x, y: 10 }, stage: 'tree', confidence, label: `c${x}` });

describe('decide', () => {
  it('one clear best; a tie within the margin; nothing below the accept line', () => {
    expect(decide([cand(1, 0.9), cand(2, 1)], 0.5)).toEqual({ kind: 'one', best: cand(2, 1) });
    const tie = decide([cand(1, 1), cand(2, 1 - TIE_MARGIN / 2), cand(3, 0.7)], 0.5);
    expect(tie).toEqual({ kind: 'tie', tied: [cand(1, 1), cand(2, 1 - TIE_MARGIN / 2)] });
    expect(decide([cand(1, 1), cand(2, 1 - TIE_MARGIN)], 0.5).kind).toBe('one');
    // Exactly the margin apart (0.11 - 0.06 is 0.05 in binary too; 1 - 0.95 is not): not a tie.
    expect(0.11 - 0.06).toBe(TIE_MARGIN);
    expect(decide([cand(1, 0.11), cand(2, 0.06)], 0.05)).toEqual({ kind: 'one', best: cand(1, 0.11) });
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
  it('a name that begins with a verb ("Open file", "Select all") is read whole first, the words without the verb as an alternative', () => {
    expect(parseDescription('Open file')).toMatchObject({ words: 'open file', alternatives: ['file'] });
    expect(parseDescription('the select all button')).toMatchObject({ words: 'select all', alternatives: [] });
    expect(parseDescription('Select all button')).toMatchObject({ words: 'select all', alternatives: ['all'], roles: expect.arrayContaining(['push button']) });
    expect(parseDescription('press equals')).toMatchObject({ words: 'press equals', alternatives: ['equals', '='] });
    // Before an article the verb is the action, as are click/tap/hit always.
    expect(parseDescription('open the File menu')).toMatchObject({ words: 'file', alternatives: [], roles: expect.arrayContaining(['menu']) });
    expect(parseDescription('choose "Bold"')).toMatchObject({ words: 'bold', quoted: true, alternatives: [] });
    expect(parseDescription('click Open file')).toMatchObject({ words: 'open file', alternatives: ['file'] });
    expect(parseDescription('open')).toMatchObject({ words: 'open', alternatives: [] });
  });
  it('"Open file" beside "File name": the exact name is one answer (the bench found the two tied at 0.75 when the verb was dropped)', () => {
    const node = (role: string, name: string, x: number): ElementNode => ({
      path: `${role} "${name}"`, role, name, states: ['visible', 'enabled'], actions: ['click'], bounds: { x, y: 40, width: 140, height: 30 }, children: [],
    });
    const root: ElementNode = { ...node('frame', 'probe', 0), bounds: { x: 0, y: 0, width: 900, height: 200 }, children: [node('push button', 'Open file', 20), node('entry', 'File name', 560)] };
    const found = treeCandidates([{ app: 'chromium', root }], parseDescription('Open file'));
    expect(found.map((c) => [c.label, c.confidence])).toEqual([['push button "Open file"', 1], ['entry "File name"', 0.75]]);
    expect(decide(found, 0.5)).toMatchObject({ kind: 'one', best: { label: 'push button "Open file"' } });
  });
  it('a role word that begins a name is part of it ("Tab width", "List view"); one that ends the words is the role', () => {
    expect(parseDescription('Tab width')).toMatchObject({ words: 'tab width', roles: [] });
    expect(parseDescription('the List view radio button')).toMatchObject({ words: 'list view', roles: ['radio button', 'radio menu item'] });
    expect(parseDescription('the Tab width field')).toMatchObject({ words: 'tab width', roles: expect.arrayContaining(['entry']) });
    expect(parseDescription('the tab')).toMatchObject({ words: '', roles: ['page tab'] });
  });
  it('a role word alone ("Menu") is the role and, of another role, an exact name (the GTK bench\'s toggle button "Menu" was never found)', () => {
    expect(parseDescription('Menu')).toMatchObject({ words: '', roles: ['menu', 'menu item'], roleWordAsName: 'menu' });
    expect(parseDescription('the link')).toMatchObject({ words: '', roles: ['link'], roleWordAsName: 'link' });
    expect(parseDescription('the File menu').roleWordAsName).toBeUndefined();
    expect(parseDescription('the button right of Cancel').roleWordAsName).toBeUndefined();
    const node = (role: string, name: string, x: number): ElementNode => ({
      path: `${role} "${name}"`, role, name, states: ['visible', 'enabled'], actions: ['click'], bounds: { x, y: 40, width: 100, height: 30 }, children: [],
    });
    const frame = (children: ElementNode[]): ElementNode => ({ ...node('frame', 'gtk3-widget-factory', 0), bounds: { x: 0, y: 0, width: 900, height: 200 }, children });
    // The header bar's toggle button "Menu" beside a "Menu bar" toggle: only the exact name answers.
    const found = treeCandidates([{ app: 'gtk3-widget-factory', root: frame([node('toggle button', 'Menu', 20), node('toggle button', 'Menu bar', 200)]) }], parseDescription('Menu'));
    expect(decide(found, 0.5)).toMatchObject({ kind: 'one', best: { label: 'toggle button "Menu"', confidence: 0.6 } });
    // A control named "Menu" is meant before an unnamed menu (0.6 against role-only 0.5); with no such name the menu stays the answer.
    const both = treeCandidates([{ app: 'app', root: frame([node('menu', 'File', 20), node('toggle button', 'Menu', 400)]) }], parseDescription('the menu'));
    expect(decide(both, 0.5)).toMatchObject({ kind: 'one', best: { label: 'toggle button "Menu"' } });
    const menuOnly = treeCandidates([{ app: 'app', root: frame([node('menu', 'File', 20), node('push button', 'Open', 400)]) }], parseDescription('the menu'));
    expect(decide(menuOnly, 0.5)).toMatchObject({ kind: 'one', best: { label: 'menu "File"', confidence: 0.5 } });
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
