import { describe, expect, it } from 'vitest';
import { parseDescription } from '../../../src/main/agent/resolve/describe.js';
import { decide } from '../../../src/main/agent/resolve/decide.js';
import { numbersOf, sameNumbers } from '../../../src/main/agent/resolve/numbers.js';
import { flatten, nameWords, RELATION_FACTOR, TREE_ACCEPT, TREE_SCORE, treeCandidates } from '../../../src/main/agent/resolve/tree-stage.js';
import type { Rect } from '../../../src/shared/actions.js';
import type { ElementNode, ElementWindow } from '../../../src/shared/elements.js';

/**
 * The tree stage's decisions (issue 33 item 1, stage a) on a form as AT-SPI reports one:
 * fields named only by the label beside or above them, a button and the label inside it,
 * the same name in two windows, hidden and zero-size elements. Every number is the score
 * the stage's rules give (tree-stage.ts TREE_SCORE), worked by hand in the comments.
 */

const box = (x: number, y: number, width: number, height: number): Rect => ({ x, y, width, height });

function el(role: string, name: string, bounds: Rect | undefined, extra: Partial<ElementNode> = {}): ElementNode {
  return { path: `${role} "${name}"`, role, name, states: ['enabled', 'visible'], actions: [], ...(bounds ? { bounds } : {}), children: [], ...extra };
}

/** The Export dialog: a form, its buttons, and what a tree also holds that no click may land on. */
function exportDialog(): ElementWindow {
  return {
    app: 'editor',
    root: el('dialog', 'Export', box(0, 0, 600, 400), {
      children: [
        // "File name:" 10 px left of its field, on its row.
        el('label', 'File name:', box(20, 50, 80, 20)),
        el('entry', '', box(110, 48, 200, 24)),
        // "Folder" 4 px above its field, over its column.
        el('label', 'Folder', box(20, 100, 60, 16)),
        el('entry', '', box(20, 120, 290, 24)),
        el('push button', 'Cancel', box(100, 200, 80, 30)),
        el('push button', 'Save', box(200, 200, 80, 30), { children: [el('label', 'Save', box(215, 205, 50, 20))] }),
        el('push button', 'Save', box(400, 200, 80, 30), { states: ['enabled'] }),
        el('push button', 'Save', box(400, 300, 0, 30)),
        el('push button', 'Help', undefined),
      ],
    }),
  };
}

function mainWindow(): ElementWindow {
  return {
    app: 'editor',
    root: el('frame', 'Report - Editor', box(0, 0, 1200, 800), {
      children: [el('panel', 'toolbar', box(0, 0, 1200, 40), { children: [el('push button', 'Save', box(700, 5, 60, 30), { description: 'Save the document' })] })],
    }),
  };
}

const found = (windows: ElementWindow[], description: string) => treeCandidates(windows, parseDescription(description));
const pairs = (windows: ElementWindow[], description: string) => found(windows, description).map((c) => [c.label, c.confidence]);

describe('flatten', () => {
  it('keeps visible elements with an area; a nameless field takes the label left of it or just above it', () => {
    const flat = flatten([exportDialog()]);
    expect(flat.map((f) => [f.node.role, f.node.name, f.label, f.ancestors.length])).toEqual([
      ['dialog', 'Export', undefined, 0],
      ['label', 'File name:', undefined, 1],
      ['entry', '', 'File name:', 1],
      ['label', 'Folder', undefined, 1],
      ['entry', '', 'Folder', 1],
      ['push button', 'Cancel', undefined, 1],
      ['push button', 'Save', undefined, 1],
      ['label', 'Save', undefined, 2],
    ]);
    expect(flat[2]!.point).toEqual({ x: 210, y: 60 });
  });

  it('a label reaches 200 px to the left on the row (2 px of overlap allowed) and 40 px above; the nearer one names the field', () => {
    const labelled = (label: Rect, field: Rect, role = 'entry', name = '') =>
      flatten([{ app: 'a', root: el('frame', 'f', box(0, 0, 2000, 2000), { children: [el('label', 'Name', label), el(role, name, field)] }) }]).at(-1)!.label;
    const field = box(400, 100, 100, 20);
    expect(labelled(box(100, 100, 100, 20), field)).toBe('Name'); // gap 200
    expect(labelled(box(99, 100, 100, 20), field)).toBeUndefined(); // gap 201
    expect(labelled(box(302, 100, 100, 20), field)).toBe('Name'); // overlaps 2 px
    expect(labelled(box(303, 100, 100, 20), field)).toBeUndefined(); // overlaps 3 px
    expect(labelled(box(300, 110, 50, 20), field)).toBe('Name'); // the field's middle (y 110) on the label's top edge
    expect(labelled(box(300, 111, 50, 20), field)).toBeUndefined();
    expect(labelled(box(300, 90, 50, 20), field)).toBe('Name'); // bottom edge at the middle
    expect(labelled(box(300, 89, 50, 20), field)).toBeUndefined(); // ends above the middle, and not over the column
    expect(labelled(box(400, 40, 60, 20), field)).toBe('Name'); // 40 above
    expect(labelled(box(400, 39, 60, 20), field)).toBeUndefined(); // 41 above
    expect(labelled(box(400, 82, 60, 20), field)).toBe('Name'); // 2 px into the field
    expect(labelled(box(500, 60, 60, 20), field)).toBeUndefined(); // above, beside the column
    expect(labelled(box(339, 60, 61, 20), field)).toBeUndefined(); // ends where the column starts
    expect(labelled(box(300, 100, 100, 20), field, 'push button')).toBeUndefined(); // a button is named by itself
    expect(labelled(box(300, 100, 100, 20), field, 'entry', 'Own')).toBeUndefined();
    for (const role of ['text', 'password text', 'spin button', 'combo box']) expect(labelled(box(300, 100, 100, 20), field, role), role).toBe('Name');
    // Two labels: the nearer names it.
    const two = flatten([{ app: 'a', root: el('frame', 'f', box(0, 0, 2000, 2000), { children: [el('static', 'Far', box(200, 100, 100, 20)), el('label', 'Near', box(330, 100, 60, 20)), el('label', '  ', box(390, 100, 8, 20)), el('entry', '', field)] }) }]);
    expect(two.at(-1)!.label).toBe('Near');
  });

  it('only a label or static text names a field, the nearest whatever its order, the first of two equally near', () => {
    const fieldOf = (children: ElementNode[]) => flatten([{ app: 'a', root: el('frame', 'f', box(0, 0, 2000, 2000), { children }) }]).find((f) => f.node.role === 'entry')!;
    const field = box(400, 100, 100, 20);
    // A button 10 px left of the field names nothing: it is named by itself.
    expect(fieldOf([el('push button', 'Browse', box(290, 100, 100, 20)), el('entry', '', field)]).label).toBeUndefined();
    // Static text alone names it.
    expect(fieldOf([el('static', 'Width', box(290, 100, 100, 20)), el('entry', '', field)]).label).toBe('Width');
    // The nearer label first in the tree, the farther after it: the nearer still names it.
    expect(fieldOf([el('label', 'Near', box(330, 100, 60, 20)), el('label', 'Far', box(200, 100, 100, 20)), el('entry', '', field)]).label).toBe('Near');
    // 10 px left and 10 px above: equally near, the first in the tree names it.
    expect(fieldOf([el('label', 'Left', box(330, 100, 60, 20)), el('label', 'Above', box(400, 70, 60, 20)), el('entry', '', field)]).label).toBe('Left');
    expect(fieldOf([el('label', 'Above', box(400, 70, 60, 20)), el('label', 'Left', box(330, 100, 60, 20)), el('entry', '', field)]).label).toBe('Above');
    // A field whose name is only spaces is nameless: the label names it.
    expect(fieldOf([el('label', 'Name', box(330, 100, 60, 20)), el('entry', '  ', field)]).label).toBe('Name');
  });

  it('an element of no height is never a place to click, as one of no width', () => {
    const flat = flatten([{ app: 'a', root: el('frame', 'f', box(0, 0, 900, 300), { children: [el('push button', 'Flat', box(10, 10, 60, 0)), el('push button', 'Thin', box(100, 10, 0, 20))] }) }]);
    expect(flat.map((f) => f.node.name)).toEqual(['f']);
  });
});

describe('nameWords', () => {
  it('drops punctuation at a word\'s edges only, and keeps digits and inner marks', () => {
    expect(nameWords('((Save…))')).toBe('save');
    expect(nameWords('E-mail address:')).toBe('e-mail address');
    expect(nameWords('2nd page')).toBe('2nd page');
    expect(nameWords('+')).toBe('+');
  });

  it('GTK\'s doubled name counts once, a two-word one too; a name that only starts like its end is kept whole', () => {
    expect(nameWords('7 7')).toBe('7');
    expect(nameWords('Save As Save As')).toBe('save as');
    expect(nameWords('Save As')).toBe('save as');
    expect(nameWords('Go Go Go')).toBe('go go go');
    expect(nameWords('')).toBe('');
  });
});

describe('names', () => {
  it('the button\'s own name is 1, the label inside it counts once; the hidden, flat and placeless Saves are never answers', () => {
    const c = found([exportDialog()], 'the Save button');
    expect(c).toEqual([
      {
        point: { x: 240, y: 215 },
        stage: 'tree',
        confidence: 1,
        label: 'push button "Save"',
        element: { role: 'push button', name: 'Save', bounds: box(200, 200, 80, 30), path: 'push button "Save"' },
        bounds: box(200, 200, 80, 30),
      },
    ]);
  });

  it('a field by its label: 0.9 (TREE_SCORE.exactOther), the candidate named by the label', () => {
    const [file] = found([exportDialog()], 'the File name field');
    expect(file).toMatchObject({ label: 'entry "File name:"', confidence: TREE_SCORE.exactOther, element: { role: 'entry', name: 'File name:' }, point: { x: 210, y: 60 } });
    // The label itself is a label, not a field: 1 × wrongRole 0.6, below the field.
    expect(pairs([exportDialog()], 'the File name field')).toEqual([['entry "File name:"', 0.9], ['label "File name:"', 0.6]]);
    // Without a role word the label (its own name, inert: 1 × 0.9) and its field (by the label: 0.9) are equally good,
    // and apart (neither's centre in the other's box): sent back to the planner as a tie, never guessed.
    expect(pairs([exportDialog()], 'Folder')).toEqual([['label "Folder"', 0.9], ['entry "Folder"', 0.9]]);
    expect(decide(found([exportDialog()], 'Folder'), TREE_ACCEPT).kind).toBe('tie');
  });

  it('without role words an inert element loses to the control (× 0.9); with role words a wrong role is × 0.6', () => {
    const w = [{ app: 'a', root: el('frame', 'f', box(0, 0, 900, 300), { children: [el('label', 'Print', box(10, 10, 60, 20)), el('push button', 'Print', box(300, 10, 60, 20)), el('push button', 'Print', box(500, 10, 60, 20), { states: ['visible'] })] }) }];
    expect(pairs(w, 'Print')).toEqual([['push button "Print"', 1], ['label "Print"', 0.9], ['push button "Print"', 0.9]]);
    expect(pairs(w, 'the Print button')).toEqual([['push button "Print"', 1], ['push button "Print"', 1], ['label "Print"', 0.6]]);
    expect(pairs(w, 'the Print link')).toEqual([['label "Print"', 0.6], ['push button "Print"', 0.6], ['push button "Print"', 0.6]]);
  });

  it('an element\'s description answers at 0.9 when its name does not', () => {
    expect(pairs([mainWindow()], 'Save the document')).toEqual([['push button "Save"', 0.9]]);
    expect(pairs([mainWindow()], 'Save')).toEqual([['push button "Save"', 1]]);
  });

  it('contained and fuzzy names rank below exact ones; quoted names only exactly', () => {
    const w = [{ app: 'a', root: el('frame', 'f', box(0, 0, 900, 300), { children: [el('push button', 'Save As…', box(10, 10, 80, 20)), el('push button', 'Sav', box(300, 10, 60, 20)), el('push button', 'Close', box(500, 10, 60, 20))] }) }];
    // "save" in "Save As": (0.6 + 0.3 × 1/2); "Sav": similarity 3/4 × 0.85.
    expect(pairs(w, 'Save')).toEqual([['push button "Save As…"', 0.75], ['push button "Sav"', 0.6375]]);
    expect(pairs(w, '"Save"')).toEqual([]);
    expect(pairs(w, '"Save As"')).toEqual([['push button "Save As…"', 1]]);
  });

  it('a fuzzy name never differs in a number: "the Page 2 tab" is not "Page 1" (5/6 alike)', () => {
    const tabs = (names: string[]) => [{ app: 'a', root: el('frame', 'f', box(0, 0, 900, 300), { children: names.map((n, i) => el('page tab', n, box(10 + i * 100, 10, 90, 30))) }) }];
    expect(found(tabs(['Page 1', 'Page 3']), 'the Page 2 tab')).toEqual([]);
    expect(pairs(tabs(['Page 1', 'Page 2']), 'the Page 2 tab')).toEqual([['page tab "Page 2"', 1]]);
    // Numbers are whole and in order: "Row 1 of 12" is not "Row 11 of 2", "Page 12" is not "Page 1 2".
    expect(numbersOf('Save 1 of 12')).toBe('1 12');
    // A name without numbers holds none: the empty text, so two such names agree.
    expect(numbersOf('Settings')).toBe('');
    expect(sameNumbers('Row 1 of 12', 'Row 11 of 2')).toBe(false);
    expect(sameNumbers('Page 12', 'Page 1 2')).toBe(false);
    expect(sameNumbers('Page two', 'Pages')).toBe(true);
    // A typo in the words still matches when the numbers agree ("Pag 2": 5/6 × 0.85).
    expect(pairs(tabs(['Page 1', 'Page 2']), 'the Pag 2 tab')).toEqual([['page tab "Page 2"', expect.closeTo((5 / 6) * 0.85, 10)]]);
  });

  it('a scope ("in the Export dialog") keeps its window\'s answer whole and lowers the others × 0.7', () => {
    expect(pairs([mainWindow(), exportDialog()], 'the Save button in the Export dialog')).toEqual([['push button "Save"', 1], ['push button "Save"', 0.7]]);
    expect(found([mainWindow(), exportDialog()], 'the Save button in the Export dialog')[0]!.point).toEqual({ x: 240, y: 215 });
    // The window's role counts as its word ("the dialog"), and a scope that names no ancestor lowers every answer.
    expect(pairs([mainWindow(), exportDialog()], 'the Save button in the dialog')[0]).toEqual(['push button "Save"', 1]);
    expect(pairs([mainWindow(), exportDialog()], 'the Save button in the toolbar').map((p) => p[1])).toEqual([1, 0.7]);
    expect(pairs([exportDialog()], 'the Save button in the sidebar')).toEqual([['push button "Save"', 0.7]]);
    // Every word of the scope must name the window: "Paint Brushes dialog" shares "dialog" (and every letter of "print") with
    // "the Print dialog", and is out of scope.
    const dialog = (name: string, x: number): ElementWindow => ({ app: 'a', root: el('dialog', name, box(x, 0, 300, 200), { children: [el('push button', 'OK', box(x + 100, 150, 60, 30))] }) });
    expect(found([dialog('Paint Brushes', 0), dialog('Print', 400)], 'the OK button in the Print dialog').map((c) => [c.point.x, c.confidence])).toEqual([[530, 1], [130, 0.7]]);
  });

  it('role words only: every element of the role is 0.5, so two are a tie', () => {
    expect(pairs([exportDialog()], 'the text field')).toEqual([['entry "File name:"', 0.5], ['entry "Folder"', 0.5]]);
    expect(decide(found([exportDialog()], 'the text field'), TREE_ACCEPT).kind).toBe('tie');
  });

  it('a lone role word as a name ("Menu"): exact names of another role at 0.6, a name containing it at 0.75 × 0.6; a nameless control keeps an empty name', () => {
    const w = [{ app: 'a', root: el('frame', 'f', box(0, 0, 900, 300), { children: [el('toggle button', 'Menu', box(10, 10, 60, 20)), el('push button', 'Menu bar', box(100, 10, 60, 20))] }) }];
    expect(pairs(w, 'Menu')).toEqual([['toggle button "Menu"', 0.6], ['push button "Menu bar"', expect.closeTo(0.75 * 0.6, 10)]]);
    const nameless = found([{ app: 'a', root: el('frame', 'f', box(0, 0, 900, 300), { children: [el('push button', '', box(10, 10, 60, 20))] }) }], 'the button');
    expect(nameless.map((c) => [c.label, c.element!.name])).toEqual([['push button ""', '']]);
  });

  it('the same place found twice keeps the deeper element when the scores are equal', () => {
    // A toggle's frame and the toggle itself, both "Bold": the inner one is what a click means.
    const inner = el('toggle button', 'Bold', box(12, 12, 36, 26));
    const w = [{ app: 'a', root: el('frame', 'f', box(0, 0, 900, 300), { children: [el('toggle button', 'Bold', box(10, 10, 40, 30), { children: [inner] })] }) }];
    expect(found(w, 'Bold').map((c) => c.element!.bounds)).toEqual([box(12, 12, 36, 26)]);
  });
});

describe('relations', () => {
  it('"the button right of Cancel" is Save (the nearest control on its row), × RELATION_FACTOR', () => {
    expect(pairs([exportDialog()], 'the button right of Cancel')).toEqual([['push button "Save"', RELATION_FACTOR]]);
    expect(pairs([exportDialog()], 'the button left of Save')).toEqual([['push button "Cancel"', RELATION_FACTOR]]);
  });

  it('farther targets are lower by (nearest + 1) / (distance + 1); a fuzzy target\'s own score weighs in above role-only', () => {
    const row = (names: Array<[string, number]>) => [
      { app: 'a', root: el('frame', 'f', box(0, 0, 900, 300), { children: names.map(([n, x]) => el('push button', n, box(x, 10, 50, 20))) }) },
    ];
    // Gaps from A's right edge (60): B 10, C 70.
    expect(pairs(row([['A', 10], ['B', 70], ['C', 130]]), 'the button right of A')).toEqual([['push button "B"', 0.95], ['push button "C"', 0.95 * (11 / 71)]]);
    // A named target right of A: its own score (1) over role-only (0.5) is capped at 1.
    expect(pairs(row([['A', 10], ['B', 70], ['C', 130]]), 'C right of A')).toEqual([['push button "C"', 0.95]]);
    // An anchor found by a contained name ("alpha" in "Alpha one": 0.6 + 0.3 × 1/2) carries its 0.75.
    expect(pairs(row([['Alpha one', 10], ['B', 70]]), 'the button right of Alpha')).toEqual([['push button "B"', 0.75 * 0.95]]);
    // A target of the wrong role (× 0.6) is still 0.6 ≥ role-only: capped at 1; one contained and of the wrong role
    // ("close" in "Close all", 0.75 × 0.6 = 0.45) is × 0.45 / 0.5.
    expect(pairs(row([['A', 10], ['B', 70]]), 'the B link right of A')).toEqual([['push button "B"', 0.95]]);
    expect(pairs(row([['A', 10], ['Close all', 70]]), 'the Close link right of A')).toEqual([['push button "Close all"', expect.closeTo(0.95 * 0.9, 10)]]);
  });

  it('an anchor below TREE_ACCEPT, or no target in the direction, finds nothing', () => {
    expect(found([exportDialog()], 'the button right of Preferences')).toEqual([]);
    expect(found([exportDialog()], 'the button right of Save')).toEqual([]);
    // An anchor only fuzzily named (0.6375 ≥ 0.5) still anchors.
    expect(pairs([exportDialog()], 'the button right of Cancl').map((p) => p[0])).toEqual(['push button "Save"']);
    // "close" contained in "Close all" of the wrong role: 0.75 × 0.6 = 0.45, below 0.5: no anchor, though B is right of it.
    const row = (children: ElementNode[]) => [{ app: 'a', root: el('frame', 'f', box(0, 0, 900, 300), { children }) }];
    expect(found(row([el('push button', 'Close all', box(10, 10, 50, 20)), el('push button', 'B', box(70, 10, 50, 20))]), 'the button right of the Close link')).toEqual([]);
    // An anchor of exactly 0.5 (role words only: the one text field) anchors: B at 0.5 × 0.95.
    expect(pairs(row([el('entry', '', box(10, 10, 50, 20)), el('push button', 'B', box(70, 10, 50, 20))]), 'the button right of the text field')).toEqual([['push button "B"', 0.5 * 0.95]]);
  });

  it('the best anchor anchors, wherever it stands in the tree', () => {
    // "Alpha one" (contained, 0.75) comes first; "Alpha" (exact, 1) is the anchor, so C is right of it, not B.
    const row = [
      {
        app: 'a',
        root: el('frame', 'f', box(0, 0, 900, 300), {
          children: [el('push button', 'Alpha one', box(10, 10, 50, 20)), el('push button', 'B', box(70, 10, 50, 20)), el('push button', 'Alpha', box(400, 10, 50, 20)), el('push button', 'C', box(460, 10, 50, 20))],
        }),
      },
    ];
    expect(pairs(row, 'the button right of Alpha')[0]).toEqual(['push button "C"', RELATION_FACTOR]);
  });
});
