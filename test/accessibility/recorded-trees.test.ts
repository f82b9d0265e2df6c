import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { axDumpToTree } from '../../src/os-control/accessibility/ax/read.js';
import { formatPath, parsePath } from '../../src/os-control/accessibility/path.js';
import { elementAtPath } from '../../src/os-control/accessibility/platform-tree.js';
import { uiaDumpToTree } from '../../src/os-control/accessibility/uia/read.js';
import { ElementTreeOptionsSchema, ElementTreeResultSchema, walkElements, type ElementNode, type ElementTree, type ElementTreeOptions } from '../../src/shared/elements.js';
import { parseChromiumDump } from './recorded/chromium-dump.js';
import { RECORDED_DIR, RECORDED_SOURCES, recordedDump, recordedText, type RecordedSource } from './recorded/sources.js';

// Trees recorded on real Windows and macOS machines by other projects (Chromium's
// accessibility test expectations, a UFO log, macapptree's README; each cited in
// fixtures/recorded/sources.json) go through the real mapping (uia/convert.ts,
// ax/convert.ts) and the shared tree code. Every expected value below is read off the
// recording. Our own dump scripts (UIA_DUMP, AX_DUMP) have still NOT RUN on Windows or
// macOS: recorded/ turns the recordings into the JSON those scripts print.

const APP = 'Chromium';

function read(s: RecordedSource, options: Partial<ElementTreeOptions> = { includeHidden: true }, scale = 1): ElementTree {
  const app = s.format === 'ufo-ui-tree' ? 'Outlook' : s.format === 'macapptree' ? 'TextEdit' : APP;
  const request = ElementTreeOptionsSchema.parse(options);
  const result = s.api === 'uia' ? uiaDumpToTree(recordedDump(s.file, app), request, scale) : axDumpToTree(recordedDump(s.file, app), request);
  ElementTreeResultSchema.parse(result);
  if (result.kind !== 'tree') throw new Error(result.detail);
  return result;
}

const bySource = (file: string) => RECORDED_SOURCES.find((s) => s.file === file)!;
const tree = (file: string, options?: Partial<ElementTreeOptions>, scale?: number) => read(bySource(file), options, scale);
const nodes = (t: ElementTree) => [...walkElements(t.windows.map((w) => w.root))];

/** The element at this path below the window root (the part every test writes out). */
function at(t: ElementTree, tail: string): ElementNode {
  const full = `${t.windows[0]!.root.path}${tail ? ` > ${tail}` : ''}`;
  const found = elementAtPath(t, full);
  if (!found) throw new Error(`nothing at ${full}; paths: ${nodes(t).map((n) => n.path).join('\n')}`);
  return found;
}

describe('the recordings themselves', () => {
  it('every stored file is listed in sources.json with repository, path, commit and licence, and every listed file is stored', () => {
    const stored = ['chromium', 'ufo', 'macapptree'].flatMap((dir) => readdirSync(path.join(RECORDED_DIR, dir)).map((f) => `${dir}/${f}`));
    expect(RECORDED_SOURCES.map((s) => s.file).sort()).toEqual(stored.sort());
    for (const s of RECORDED_SOURCES) expect(statSync(path.join(RECORDED_DIR, s.file)).size).toBeGreaterThan(0);
    expect(RECORDED_SOURCES.filter((s) => s.api === 'uia')).toHaveLength(8);
    expect(RECORDED_SOURCES.filter((s) => s.api === 'ax')).toHaveLength(6);
  });

  it('a Chromium dump reads line for line: depth from the + pairs, quoted and bare values, percent-encoded text', () => {
    const [doc] = parseChromiumDump(recordedText('chromium/input-password-expected-mac.txt'));
    const field = doc!.children[0]!.children[0]!;
    expect(field.role).toBe('AXTextField');
    expect(field.attrs.get('AXSubrole')).toBe('AXSecureTextField');
    expect(field.attrs.get('AXValue')).toBe('••••••');
    const [page] = parseChromiumDump(recordedText('chromium/input-checkbox-expected-mac.txt'));
    expect(page!.children[0]!.children.map((c) => c.attrs.get('AXValue'))).toEqual([0, 1, 0, 0, 2]);
  });
});

describe('every recorded tree: stable paths that find their element again, no password text', () => {
  for (const s of RECORDED_SOURCES) {
    it(`${s.file} (${s.repo})`, () => {
      const first = read(s);
      const again = read(s);
      const all = nodes(first);
      expect(all.length).toBeGreaterThan(1);
      expect(nodes(again).map((n) => n.path)).toEqual(all.map((n) => n.path));
      expect(new Set(all.map((n) => n.path)).size).toBe(all.length);
      // As findElement looks up a path on Windows/macOS (index.ts findPlatformElement): the whole window, hidden parts too.
      const lookup = read(s, { scope: 'all', includeHidden: true });
      for (const n of all) {
        expect(formatPath(parsePath(n.path))).toBe(n.path);
        const found = elementAtPath(lookup, n.path)!;
        expect({ role: found.role, name: found.name, value: found.value, states: found.states }).toEqual({ role: n.role, name: n.name, value: n.value, states: n.states });
      }
      // The password pages set value="secret" and the recordings show it as six bullets: neither leaves the mapping.
      const json = JSON.stringify(first);
      expect(json).not.toContain('secret');
      expect(json).not.toContain('•');
    });
  }
});

describe('Windows UI Automation, recorded', () => {
  it('check boxes: ToggleState On is checked, Indeterminate is mixed, Off is neither; the Toggle pattern is the toggle action', () => {
    const t = tree('chromium/input-checkbox-expected-uia-win.txt');
    // The recording's group is not a control element: the ControlView walker (UIA_DUMP) shows its boxes in its place.
    expect(t.windows[0]!.root.path).toBe('application "Chromium" > document text ""');
    expect(at(t, 'check box "Checkbox1"').states).toEqual(['enabled', 'checked', 'visible']);
    expect(at(t, 'check box "Checkbox4"').states).toEqual(['enabled', 'mixed', 'visible']);
    for (const off of ['Checkbox0', 'Checkbox2', 'Checkbox3']) expect(at(t, `check box "${off}"`).states).toEqual(['enabled', 'visible']);
    expect(at(t, 'check box "Checkbox1"').actions).toEqual(['toggle']);
    // Fixed by this recording: a web page's Document has no Value pattern and is not editable.
    expect(t.windows[0]!.root.states).toEqual(['enabled', 'visible']);
  });

  it('a password Edit is "password text" without its value (the recording shows six bullets for "secret")', () => {
    expect(recordedDump('chromium/input-password-expected-uia-win.txt', APP)).toContain('••••••');
    const t = tree('chromium/input-password-expected-uia-win.txt');
    const pw = at(t, 'password text ""');
    expect(pw.states).toEqual(['enabled', 'editable', 'password', 'visible']);
    expect(pw.value).toBeUndefined();
  });

  it('text fields carry their Value.Value; three named "l2" are told apart by their index', () => {
    const t = tree('chromium/input-text-value-expected-uia-win.txt');
    expect(at(t, 'text "l1"').value).toBeUndefined();
    expect(at(t, 'text "l2"').value).toBe('value');
    expect(at(t, 'text "l2"[1]').value).toBeUndefined();
    expect(at(t, 'text "l2"[2]').value).toBe('value  *');
    expect(at(t, 'text "Email"[1]').value).toBe('value');
    expect(at(t, 'text "l6"').value).toBe('Value');
    expect(at(t, 'text "Name"').states).toEqual(['enabled', 'editable', 'visible']);
    expect(at(t, 'label "Email"').role).toBe('label');
    expect(nodes(t).filter((n) => n.role === 'text')).toHaveLength(9);
  });

  it('radio buttons: SelectionItem.IsSelected=true is checked (fixed: it was "selected"), in their own groups', () => {
    const t = tree('chromium/input-radio-expected-uia-win.txt');
    expect(at(t, 'panel ""[1] > radio button "Radio4"').states).toEqual(['enabled', 'checked', 'visible']);
    expect(at(t, 'panel ""[1] > radio button "Radio3"').states).toEqual(['enabled', 'visible']);
    expect(at(t, 'panel ""[2] > radio button "Radio6"').states).toContain('checked');
    expect(at(t, 'panel ""[2] > radio button "Radio6"').actions).toEqual(['select']);
    // The first two radios have no name of their own (their text is a sibling): told apart by index.
    expect(at(t, 'panel "" > radio button ""[1]').role).toBe('radio button');
    expect(at(t, 'panel "" > label "Radio2"').name).toBe('Radio2');
  });

  it('fieldsets: named groups nested in groups; a text that is not a control element folds into its parent', () => {
    const t = tree('chromium/fieldset-expected-uia-win.txt');
    expect(at(t, 'panel "" > panel "Browser Engines:" > label "Browser Engines:"').children).toEqual([]);
    const cake = at(t, 'panel "Which cake do you prefer?"');
    expect(cake.children.map((c) => `${c.role} ${c.name}`)).toEqual(['label Which cake do you prefer?']);
    expect(cake.children[0]!.children).toEqual([]);
  });

  it('selects: collapsed combo boxes with their value and list, the chosen item selected; list boxes of list items', () => {
    const t = tree('chromium/select-expected-uia-win.txt');
    const combos = nodes(t).filter((n) => n.role === 'combo box');
    expect(combos.map((c) => c.value)).toEqual(['Placeholder option', 'Option 2', 'Option 1']);
    expect(combos.map((c) => c.path.split(' > ').at(-1))).toEqual(['combo box ""', 'combo box ""[1]', 'combo box ""[2]']);
    for (const c of combos) {
      expect(c.states).toEqual(['enabled', 'collapsed', 'visible']);
      expect(c.actions).toEqual(['expand or contract']);
    }
    expect(at(t, 'panel "" > combo box ""[1] > list "" > list item "Option 2"').states).toEqual(['enabled', 'selected', 'visible']);
    expect(at(t, 'panel "" > combo box ""[1] > list "" > list item "Option 1"').states).toEqual(['enabled', 'visible']);
    const listBoxes = at(t, 'panel ""').children.filter((c) => c.role === 'list');
    expect(listBoxes.map((l) => l.children.map((i) => i.name))).toEqual([
      ['Option 1', 'Option 2', 'Option 3'],
      ['Option 1', 'Option 2', 'Option 3'],
    ]);
    expect(at(t, 'panel "" > list ""[1] > list item "Option 3"').actions).toEqual(['select']);
  });

  it('a button is a push button named by its text', () => {
    expect(at(tree('chromium/button-expected-uia-win.txt'), 'push button "Click me!"').states).toEqual(['enabled', 'visible']);
  });

  it("UFO's Outlook window: screen rectangles become bounds, divided by the display scale", () => {
    const t = tree('ufo/outlook-ui-tree.json');
    const win = t.windows[0]!.root;
    expect(win.path).toBe('application "Outlook" > frame "Mail - Chaoyun Zhang - Outlook"');
    expect(win.bounds).toEqual({ x: 628, y: 258, width: 2880, height: 1537 });
    expect(at(t, 'panel ""').bounds).toEqual({ x: 3282, y: 258, width: 216, height: 72 });
    expect(tree('ufo/outlook-ui-tree.json', {}, 2).windows[0]!.root.children[0]!.bounds).toEqual({ x: 1641, y: 129, width: 108, height: 36 });
  });
});

describe('macOS AX, recorded', () => {
  it('check boxes: AXValue 1 is checked, 2 is mixed, 0 is neither, and the number is not shown as a value', () => {
    const t = tree('chromium/input-checkbox-expected-mac.txt');
    expect(t.windows[0]!.root.path).toBe('application "Chromium" > document web ""');
    expect(at(t, 'panel "" > check box "Checkbox1"').states).toEqual(['focusable', 'enabled', 'checked']);
    expect(at(t, 'panel "" > check box "Checkbox4"').states).toEqual(['focusable', 'enabled', 'mixed']);
    expect(at(t, 'panel "" > check box "Checkbox0"').states).toEqual(['focusable', 'enabled']);
    expect(nodes(t).filter((n) => n.role === 'check box').every((n) => n.value === undefined)).toBe(true);
  });

  it('Chromium prints no AXSize, so without a size nothing below the page counts as visible: read by default, the page stands alone', () => {
    const root = tree('chromium/input-checkbox-expected-mac.txt', {}).windows[0]!.root;
    expect(root.children).toEqual([]);
    expect(root.omittedChildren).toBe(1);
  });

  it('a secure text field is "password text" without its value (the recording shows six bullets for "secret")', () => {
    expect(recordedDump('chromium/input-password-expected-mac.txt', APP)).toContain('••••••');
    const pw = at(tree('chromium/input-password-expected-mac.txt'), 'panel "" > password text ""');
    expect(pw.states).toEqual(['focusable', 'enabled', 'editable', 'password']);
    expect(pw.value).toBeUndefined();
  });

  it('text fields named by AXTitle or AXDescription carry AXValue; text areas are multiline; a static text is a label named by its AXValue (fixed)', () => {
    const t = tree('chromium/input-text-value-expected-mac.txt');
    expect(at(t, 'panel "" > text "l2"').value).toBe('value');
    expect(at(t, 'panel "" > text "l2"[1]').value).toBeUndefined();
    expect(at(t, 'panel "" > text "l2"[2]').value).toBe('value  *');
    expect(at(t, 'panel "" > text "l6"').states).toEqual(['focusable', 'enabled', 'editable', 'multiline']);
    expect(at(t, 'panel "" > text "l6"').value).toBe('Value');
    const label = at(t, 'panel "" > panel "" > label "l1"');
    expect(label.value).toBeUndefined();
    expect(at(t, 'panel "" > panel ""[2] > label "Email"').name).toBe('Email');
  });

  it('pop-up buttons are combo boxes with their value and menu item; list boxes are lists of menu items', () => {
    const t = tree('chromium/select-expected-mac.txt');
    expect(nodes(t).filter((n) => n.role === 'combo box').map((n) => n.value)).toEqual(['Placeholder option', 'Option 2', 'Option 1']);
    expect(at(t, 'panel "" > combo box ""[1] > menu item ""').value).toBe('Option 2');
    expect(at(t, 'panel "" > list ""').children.map((c) => c.value)).toEqual(['Option 1 not selected', 'Option 2 not selected', 'Option 3 not selected']);
  });

  it('disclosure buttons: AXExpanded 0 is collapsed, 1 is expanded', () => {
    const t = tree('chromium/details-expected-mac.txt');
    expect(at(t, 'panel "" > push button "details tag"').states).toEqual(['focusable', 'enabled', 'collapsed']);
    expect(at(t, 'panel ""[1] > push button "details tag open"').states).toEqual(['focusable', 'enabled', 'expanded']);
    expect(at(t, 'panel ""[1] > push button "details tag open" > label "details tag open"').role).toBe('label');
  });

  it("macapptree's TextEdit window: AXPosition and AXSize are the bounds, in points, and make it visible", () => {
    const t = tree('macapptree/textedit-untitled.json-excerpt.txt', {});
    const win = t.windows[0]!.root;
    expect(win.path).toBe('application "TextEdit" > frame "Untitled"');
    expect(win.bounds).toEqual({ x: 214, y: 119, width: 586, height: 476 });
    // macapptree writes a missing AXEnabled as false; a window has none, so nothing is read from it.
    expect(win.states).toEqual(['enabled', 'visible']);
    expect(at(t, 'scroll pane ""').bounds).toEqual({ x: 214, y: 175, width: 586, height: 420 });
  });
});

