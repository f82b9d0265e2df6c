import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readLabelFile, shownName, type GtkApp } from '../../../bench/lib/gtk-grounding.js';
import { parseDescription } from '../../../src/main/agent/resolve/describe.js';
import { decide } from '../../../src/main/agent/resolve/decide.js';
import { contains } from '../../../src/main/agent/resolve/geometry.js';
import { OCR_RELATION_FACTOR, OCR_SURE, ocrCandidates } from '../../../src/main/agent/resolve/ocr-stage.js';
import { OCR_ACCEPT } from '../../../src/main/agent/resolve/chain.js';
import type { Candidate } from '../../../src/main/agent/resolve/types.js';
import type { OcrWord } from '../../../src/os-control/ocr/types.js';
import { RectSchema } from '../../../src/shared/actions.js';

/**
 * The OCR stage's decisions (issue 33 item 1, stage b) on real OCR words: tesseract's
 * words of the grounding bench's stored screenshots (1920×1080, scale 1: image pixels are
 * global logical pixels), read by ocr-words/record.ts with the chain's first pass (block
 * layout at 2×). Each found point is checked against the box read once from AT-SPI and
 * looked at on <app>.boxes.png (bench/data/grounding-gtk), never against the stage's own
 * output. Recorded because a pass takes 4–14 s here, too slow to repeat per mutant.
 */

const WordsFileSchema = z.object({
  image: z.string(),
  engine: z.string(),
  passes: z.record(z.string(), z.array(z.object({ text: z.string(), confidence: z.number(), bbox: RectSchema, line: z.number().int() }).strict())),
});

function blockWords(app: GtkApp): OcrWord[] {
  const file = WordsFileSchema.parse(JSON.parse(readFileSync(path.join(import.meta.dirname, 'ocr-words', `${app}.json`), 'utf8')));
  return file.passes.block!;
}

/** The eye-checked boxes of the controls shown as `name`, in the stored file's order. */
function truth(app: GtkApp, name: string) {
  return readLabelFile(app).labels.filter((l) => shownName(l.name) === name).map((l) => l.bounds);
}

const ocr = (words: readonly OcrWord[], description: string) => ocrCandidates(words, parseDescription(description));
const labels = (found: readonly Candidate[]) => found.map((c) => [c.label, c.confidence]);

const mousepad = blockWords('mousepad');
const factory = blockWords('gtk3-widget-factory');
const calculator = blockWords('gnome-calculator');

describe('names', () => {
  it('a menu title read exactly is one candidate on its menu, the words\' box and centre, confidence 1', () => {
    const found = ocr(mousepad, 'the Edit menu');
    expect(found).toEqual([{ point: { x: 101.25, y: 71.75 }, stage: 'ocr', confidence: 1, label: 'words "Edit"', bounds: { x: 89, y: 66, width: 24.5, height: 11.5 } }]);
    expect(contains(truth('mousepad', 'Edit')[0]!, found[0]!.point)).toBe(true);
    for (const name of ['File', 'Search', 'View', 'Document', 'Help']) {
      const [best, ...rest] = ocr(mousepad, name);
      expect(rest, name).toEqual([]);
      expect(contains(truth('mousepad', name)[0]!, best!.point), name).toBe(true);
    }
  });

  it('a reading under OCR_SURE lowers the confidence in proportion; a misread letter lowers it by its similarity', () => {
    // "Middle" was read at Tesseract confidence 65 (of OCR_SURE 80), "Right" at 70, "Left" at 96.
    expect(labels(ocr(factory, 'Middle'))).toEqual([['words "Middle"', 65 / OCR_SURE]]);
    expect(labels(ocr(factory, 'Right'))).toEqual([['words "Right"', 70 / OCR_SURE]]);
    expect(labels(ocr(factory, 'Left'))).toEqual([['words "Left"', 1]]);
    expect(contains(truth('gtk3-widget-factory', 'Middle')[0]!, ocr(factory, 'Middle')[0]!.point)).toBe(true);
    // One letter in six wrong ("Searcn"): similarity 5/6, read at 95 — above OCR_MIN_SCORE (0.8), below the exact 1.
    const [search] = ocr(mousepad, 'Searcn');
    expect(search).toMatchObject({ label: 'words "Search"', confidence: 5 / 6 });
    // Two in six wrong: below OCR_MIN_SCORE, nothing.
    expect(ocr(mousepad, 'Seerkh')).toEqual([]);
  });

  it('a name shown in five places is five equal candidates, each on one of its controls: the chain sends them back as a tie', () => {
    // Only the five exact readings: "page 1" and "page 3" are 5/6 alike, but a number never differs (numbers.ts).
    const found = ocr(factory, 'page 2');
    expect(found.map((c) => c.confidence)).toEqual([1, 1, 1, 1, 1]);
    // A tab that is not there is not found, though its neighbours read alike.
    expect(ocr(factory, 'page 4')).toEqual([]);
    const boxes = [...truth('gtk3-widget-factory', 'page 2'), ...truth('gtk3-widget-factory', 'Page 2')];
    for (const c of found) expect(boxes.filter((b) => contains(b, c.point)), c.label).toHaveLength(1);
    expect(new Set(found.map((c) => `${c.point.x},${c.point.y}`)).size).toBe(5);
    expect(decide(found, OCR_ACCEPT).kind).toBe('tie');
  });

  it('a sign by its name: "the minus button" finds both dashes the calculator shows, the surer reading first', () => {
    // gnome-calculator's "−" key and the display's dash, read "-" at 87 and at 56.
    expect(labels(ocr(calculator, 'the minus button'))).toEqual([
      ['words "-"', 1],
      ['words "-"', 56 / OCR_SURE],
    ]);
  });

  it('candidates are best first whatever order the words were matched in', () => {
    // The name's matches come before its sign's (the words are tried first): an unsure "equals" added to the real words
    // (40 of 80: 0.5) must still rank below the sure "=" (94: 1). That "=" is the menu button's icon misread; the tree
    // stage, tried first, never lets OCR answer there.
    const unsure: OcrWord = { text: 'equals', confidence: 40, bbox: { x: 500, y: 500, width: 50, height: 12 }, line: 99 };
    const found = ocr([...calculator, unsure], 'equals');
    expect(labels(found)).toEqual([['words "="', 1], ['words "equals"', 40 / OCR_SURE]]);
  });

  it('the name and another reading of it on the same words count once, as the better reading', () => {
    // "Open file" is read whole and, without the verb, as "file" (describe.ts): both match the same words.
    const line: OcrWord[] = [
      { text: 'Open', confidence: 90, bbox: { x: 100, y: 20, width: 40, height: 12 }, line: 0 },
      { text: 'file', confidence: 60, bbox: { x: 146, y: 20, width: 24, height: 12 }, line: 0 },
      { text: 'file', confidence: 95, bbox: { x: 400, y: 300, width: 24, height: 12 }, line: 1 },
    ];
    expect(labels(ocr(line, 'Open file'))).toEqual([['words "file"', 1], ['words "Open file"', 0.75]]);
    expect(ocr(line, 'Open file').map((c) => c.point)).toEqual([{ x: 412, y: 306 }, { x: 135, y: 26 }]);
  });

  it('a description of role words only, or a name not on screen, finds nothing', () => {
    expect(ocr(mousepad, 'the menu')).toEqual([]);
    expect(ocr(mousepad, 'Preferences')).toEqual([]);
    expect(ocr([], 'File')).toEqual([]);
  });
});

describe('relations', () => {
  it('"Help right of File": only the words named, discounted by the relation (0.9), however far along the row', () => {
    const found = ocr(mousepad, 'Help right of File');
    expect(labels(found)).toEqual([['words "Help"', OCR_RELATION_FACTOR]]);
    expect(contains(truth('mousepad', 'Help')[0]!, found[0]!.point)).toBe(true);
    expect(ocr(mousepad, 'File right of Help')).toEqual([]);
  });

  it('"the menu right of File" (no words): the nearest words in that direction, the farther ones lower by distance', () => {
    const found = ocr(mousepad, 'the menu right of File');
    // Distance from File (right edge x 72, centre y 71.75): the gap along the row plus how far the centres' heights differ —
    // Edit 17, Search 58, View 117 + 0.5, Document 166 + 1, Help 249 + 1.5; confidence 0.9 × (17 + 1) / (distance + 1).
    expect(labels(found)).toEqual([
      ['words "Edit"', 0.9],
      ['words "Search"', 0.9 * (18 / 59)],
      ['words "View"', 0.9 * (18 / (117.5 + 1))],
      ['words "Document"', 0.9 * (18 / (167 + 1))],
      ['words "Help"', 0.9 * (18 / (250.5 + 1))],
    ].map(([l, c]) => [l, expect.closeTo(c as number, 10)]));
    expect(found[0]).toEqual({ point: { x: 101.25, y: 71.75 }, stage: 'ocr', confidence: 0.9, label: 'words "Edit"', bounds: { x: 89, y: 66, width: 24.5, height: 11.5 } });
    expect(contains(truth('mousepad', 'Edit')[0]!, found[0]!.point)).toBe(true);
    // Left of Help the words come in the opposite order to their nearness: the nearest (Document) first all the same.
    expect(ocr(mousepad, 'the menu left of Help').map((c) => c.label)).toEqual(['words "Document"', 'words "View"', 'words "Search"', 'words "Edit"', 'words "File"']);
  });

  it('"Document left of Help" and "Middle right of Left": the surer of anchor and target sets the confidence, never more', () => {
    expect(labels(ocr(mousepad, 'Document left of Help'))).toEqual([['words "Document"', 0.9]]);
    // Left read at 96 (1), Middle at 65: 65/80 × 0.9.
    const middle = ocr(factory, 'Middle right of Left');
    expect(labels(middle)).toEqual([['words "Middle"', expect.closeTo((65 / OCR_SURE) * OCR_RELATION_FACTOR, 10)]]);
    expect(contains(truth('gtk3-widget-factory', 'Middle')[0]!, middle[0]!.point)).toBe(true);
    // The anchor the unsure one: Left of Middle is Left, at Middle's 65/80.
    expect(labels(ocr(factory, 'Left left of Middle'))).toEqual([['words "Left"', expect.closeTo((65 / OCR_SURE) * OCR_RELATION_FACTOR, 10)]]);
  });

  it('"near" is the closest word in any direction, never the anchor\'s own words', () => {
    const found = ocr(mousepad, 'the item near View');
    expect(found[0]).toMatchObject({ label: 'words "Search"' });
    expect(found.map((c) => c.label)).not.toContain('words "View"');
    expect(found.map((c) => c.confidence)).toEqual([...found.map((c) => c.confidence)].sort((a, b) => b - a));
  });

  it('below and above: the words in the anchor\'s column only', () => {
    // mousepad's text: "Grocery list" / "milk" / "bread" in one column at x 45.
    expect(ocr(mousepad, 'the item below milk')[0]).toMatchObject({ label: 'words "bread"', confidence: 0.9 });
    expect(ocr(mousepad, 'the item above milk')[0]).toMatchObject({ label: 'words "Grocery"', confidence: 0.9 });
    expect(ocr(mousepad, 'bread above milk')).toEqual([]);
  });

  it('an anchor not on screen, or nothing in its direction, finds nothing', () => {
    expect(ocr(mousepad, 'the menu right of Preferences')).toEqual([]);
    expect(ocr(mousepad, 'the menu left of File')).toEqual([]);
  });
});
