import { describe, expect, it } from 'vitest';
import { GTK_APPS, gtkItems, readLabelFile, shownName, type GtkLabelFile } from '../../bench/lib/gtk-grounding.js';

// The GTK part of the grounding bench's labelled set (issue 33 item 4): its items are built
// from the stored, eye-checked boxes; a spatial item's truth must be the control a person
// means — the nearest control on the right, named or not.

const box = (x: number, y = 10, width = 40, height = 30) => ({ x, y, width, height });

describe('gtkItems', () => {
  it('"right of Basic" is the unnamed button beside it, so no item names the one past it', () => {
    const file: GtkLabelFile = {
      app: 'gnome-calculator',
      checked: 'test',
      window: box(0, 0, 400, 400),
      labels: [
        { name: 'Basic', role: 'push button', bounds: box(10), readable: true },
        { name: 'GtkMenuButton', role: 'push button', bounds: box(60), readable: false },
        { name: 'Minimize', role: 'push button', bounds: box(110), readable: true },
      ],
      paraphrases: { Minimize: 'the minimise button' },
    };
    const items = gtkItems(file);
    expect(items).toEqual([
      { target: 0, kind: 'name', description: 'Basic' },
      { target: 1, kind: 'spatial', description: 'the button right of Basic' },
      { target: 2, kind: 'name', description: 'Minimize' },
      { target: 2, kind: 'paraphrase', description: 'the minimise button' },
    ]);
  });

  it('GTK 4.8 doubled names are read once; two controls that read alike (case apart) give no name item', () => {
    expect(shownName('7 7')).toBe('7');
    expect(shownName('Save As')).toBe('Save As');
    const file: GtkLabelFile = {
      app: 'gtk3-widget-factory',
      checked: 'test',
      window: box(0, 0, 400, 400),
      labels: [
        { name: 'Page 1', role: 'radio button', bounds: box(10), readable: true },
        { name: 'page 1', role: 'page tab', bounds: box(10, 100), readable: true },
        { name: '7 7', role: 'push button', bounds: box(10, 200), readable: true },
      ],
      paraphrases: {},
    };
    expect(gtkItems(file).map((i) => i.description)).toEqual(['7']);
  });
});

describe('the stored labels', () => {
  it.each(GTK_APPS)('%s: parses, and every spatial truth sits right of its anchor in the same row', (app) => {
    const file = readLabelFile(app);
    const items = gtkItems(file);
    expect(items.filter((i) => i.kind === 'name').length).toBeGreaterThan(3);
    for (const item of items.filter((i) => i.kind === 'spatial')) {
      const anchorName = item.description.replace(/^the .+? right of /, '');
      const anchor = file.labels.find((l) => shownName(l.name) === anchorName)!;
      const truth = file.labels[item.target]!.bounds;
      expect(truth.x, item.description).toBeGreaterThanOrEqual(anchor.bounds.x + anchor.bounds.width - 1);
      for (const l of file.labels) {
        // Nothing sits between the anchor and the truth in that row.
        const between = l.bounds.x > anchor.bounds.x && l.bounds.x < truth.x && Math.abs(l.bounds.y + l.bounds.height / 2 - (truth.y + truth.height / 2)) < truth.height / 2;
        expect(between, `${item.description}: ${l.role} "${l.name}" lies between`).toBe(false);
      }
    }
  });
});
