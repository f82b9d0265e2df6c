/**
 * The text around a step's target (replay/text-near.ts; issue 28 item 2), its parts alone
 * on drawn screens: the area compared, the fingerprint cells changed in it, a moved
 * window's cells moved back, which OCR words count and when they differ, the pixels under
 * a word, the words a replay typed, and the words OCR reads in an area of a screenshot.
 * The replays turn by turn are text-near.test; this file is the mutation list's fast one
 * (stryker.config.mjs): no replay provider, one OCR read of one drawn screen.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { areaAround, cellsChangedIn, fingerprintMovedBack, isEvidence, LAYOUT_SLACK, pixelsAgree, recordedShot, typedWords, WORD_STRONG, wordsDiffer, wordsIn, type AreaWord, type SamePixels } from '../../src/main/agent/replay/text-near.js';
import { CONFIDENT, readText } from '../../src/os-control/ocr/index.js';
import { decodeGrey, screenFingerprint, type GreyImage } from '../../src/os-control/screen-match.js';
import type { Point } from '../../src/shared/actions.js';
import { dialog } from './drawn-dialog.js';
import { H, W } from './drawn-screen.js';

describe('the text around a target, its parts', () => {
  it('the area is the target\'s window (a dialog) when recorded, else a box around the point; cells outside it do not count', async () => {
    const target = { point: { x: 430, y: 220 }, window: { title: 'Confirm', app: 'files', bounds: { x: 200, y: 120, width: 300, height: 130 }, offset: { x: 0, y: 0 } } };
    expect(areaAround(target)).toEqual({ x: 200, y: 120, width: 300, height: 130 });
    expect(areaAround(target, { x: 10, y: -20 })).toEqual({ x: 210, y: 100, width: 300, height: 130 });
    expect(areaAround({ point: { x: 430, y: 220 } })).toEqual({ x: 130, y: 80, width: 600, height: 280 });
    const [a, b] = await Promise.all([dialog('Remove 1 item?'), dialog('Remove 1 item?', 'Saved 10:04')]);
    const [fa, fb] = await Promise.all([screenFingerprint(a), screenFingerprint(b)]);
    expect(cellsChangedIn(fa, fb, { x: 0, y: 370, width: 200, height: 30 }, { x: 0, y: 0, width: W, height: H })).toBeGreaterThan(0);
    expect(cellsChangedIn(fa, fb, areaAround(target), { x: 0, y: 0, width: W, height: H })).toBe(0);
  });

  it('words in another order are the same text; a confident word gone or added is not', () => {
    const w = (text: string, confidence = 90, x = 0): AreaWord => ({ text, confidence, box: { x, y: 10, width: 30, height: 12 } });
    const differ: SamePixels = () => false;
    expect(wordsDiffer([w('remove'), w('1'), w('item?')], [w('remove'), w('1'), w('item?')], differ)).toBeUndefined();
    expect(wordsDiffer([w('cancel'), w('remove')], [w('remove'), w('cancel')], differ)).toBeUndefined();
    expect(wordsDiffer([w('remove'), w('1'), w('item?')], [w('remove'), w('item?')], differ)).toMatch(/changed: recorded "remove 1 item\?", now "remove item\?" \("1" gone\)$/);
    expect(wordsDiffer([w('remove'), w('remove'), w('1')], [w('1'), w('remove')], differ)).toBeUndefined();
    expect(wordsDiffer([], [w('delete')], differ)).toMatch(/recorded "", now "delete" \("delete" new\)$/);
  });

  it('only a confident word that says something counts, and only when nothing like it was read on the other side and its pixels differ there', () => {
    const w = (text: string, confidence = 90, x = 0): AreaWord => ({ text, confidence, box: { x, y: 10, width: 30, height: 12 } });
    const differ: SamePixels = () => false;
    // 1. OCR's noise on gnome-calculator's buttons (measured: 36–70): below CONFIDENT, or one letter.
    expect(isEvidence(w('ee', CONFIDENT - 1))).toBe(false);
    expect(isEvidence(w('ee', CONFIDENT))).toBe(true);
    expect(isEvidence(w('j', 99))).toBe(false);
    expect(isEvidence(w('=', 99))).toBe(false);
    expect(isEvidence(w('7', 99))).toBe(true);
    expect(isEvidence(w('(7', 99))).toBe(true);
    expect(isEvidence(w('a)', 99))).toBe(false);
    expect(wordsDiffer([w('fee', 56)], [w('vv', 64), w('eee', 69), w('j', 99)], differ)).toBeUndefined();
    // 2. Read at any confidence on the other side, or misread by a letter: the same word.
    expect(wordsDiffer([w('remove', 95)], [w('remove', 40)], differ)).toBeUndefined();
    expect(wordsDiffer([w('items?', 95)], [w('item', 40)], differ)).toBeUndefined();
    expect(wordsDiffer([w('remove', 95)], [w('femove', 40)], differ)).toBeUndefined();
    expect(wordsDiffer([w('remove', 95)], [w('fem', 40)], differ)).toMatch(/"remove" gone/);
    // 3. Unread on the other side but the same pixels there: OCR missed it, nothing changed.
    const seen: Array<[number, string]> = [];
    const same: SamePixels = (box, side) => (seen.push([box.x, side]), box.x === 5);
    expect(wordsDiffer([w('mod', 96, 5)], [], same)).toBeUndefined();
    expect(wordsDiffer([], [w('mod', 96, 5)], same)).toBeUndefined();
    expect(wordsDiffer([w('mod', 96, 6)], [w('xy', 96, 5)], same)).toMatch(/"mod" gone/);
    expect(seen).toEqual([[5, 'then'], [5, 'now'], [6, 'then'], [5, 'now']]);
  });

  it('pixels agree under a word where the same text is drawn, moved with its window; not where another is', async () => {
    const grey = async (svg: string) => decodeGrey(await sharp(Buffer.from(svg)).png().toBuffer(), { width: W, height: H });
    const page = (x: number, text: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="white"/><text x="${x}" y="100" font-family="DejaVu Sans" font-size="13">${text}</text></svg>`;
    const then = { grey: await grey(page(100, 'Remove 1 item?')), origin: { x: 0, y: 0 } };
    const box = { x: 100, y: 88, width: 55, height: 15 }; // "Remove"
    const one = { x: 158, y: 88, width: 9, height: 15 }; // "1"
    const same = pixelsAgree(then, { grey: await grey(page(100, 'Remove 1 item?')), origin: { x: 0, y: 0 } }, { x: 0, y: 0 });
    expect(same(box, 'then')).toBe(true);
    expect(same(one, 'now')).toBe(true);
    const moved = pixelsAgree(then, { grey: await grey(page(180, 'Remove 1 item?')), origin: { x: 0, y: 0 } }, { x: 80, y: 0 });
    expect(moved(box, 'then')).toBe(true);
    expect(moved({ ...one, x: one.x + 80 }, 'now')).toBe(true);
    const unaligned = pixelsAgree(then, { grey: await grey(page(180, 'Remove 1 item?')), origin: { x: 0, y: 0 } }, { x: 0, y: 0 });
    expect(unaligned(box, 'then')).toBe(false);
    const changed = pixelsAgree(then, { grey: await grey(page(100, 'Remove all 532 items?')), origin: { x: 0, y: 0 } }, { x: 0, y: 0 });
    expect(changed(box, 'then')).toBe(true);
    expect(changed(one, 'then')).toBe(false);
    // A window laid out again a few pixels off (a fresh gnome-calculator: every button 12 px
    // higher, window in place) shows the same words; a row of a list farther off does not.
    const page2 = (y: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="white"/><text x="100" y="${y}" font-family="DejaVu Sans" font-size="13">Remove 1 item?</text></svg>`;
    const relaid = pixelsAgree(then, { grey: await grey(page2(88)), origin: { x: 0, y: 0 } }, { x: 0, y: 0 });
    expect(relaid(box, 'then')).toBe(true);
    expect(relaid({ ...one, y: one.y - 12 }, 'now')).toBe(true);
    const nextRow = pixelsAgree(then, { grey: await grey(page2(124)), origin: { x: 0, y: 0 } }, { x: 0, y: 0 });
    expect(nextRow(box, 'then')).toBe(false);
    // A word moved off the other image is not the same pixels.
    expect(pixelsAgree(then, then, { x: W - 120, y: 0 })(box, 'then')).toBe(false);
  });

  it('a moved window\'s cells are compared as if it had not moved: its pixels moved back, then shrunk like a fingerprint', async () => {
    const grey = async (png: Buffer) => decodeGrey(png, { width: W, height: H });
    const region = { x: 0, y: 0, width: W, height: H };
    const recorded = await dialog('Remove 1 item?');
    const fp = await screenFingerprint(recorded);
    const shifted = async (question: string) => {
      const png = await dialog(question);
      // The whole screen moved by (80, 40): white comes in at the top left.
      const bigger = await sharp(png).extend({ top: 40, left: 80, background: 'white' }).png().toBuffer();
      return sharp(bigger).extract({ left: 0, top: 0, width: W, height: H }).png().toBuffer();
    };
    const area = { x: 200, y: 120, width: 300, height: 130 };
    const same = await fingerprintMovedBack(await grey(await shifted('Remove 1 item?')), { x: 80, y: 40 }, region);
    expect(cellsChangedIn(fp, same, area, region)).toBe(0);
    // Not moved back, the same pixels change many cells; a changed question moved back still changes some.
    expect(cellsChangedIn(fp, await screenFingerprint(await shifted('Remove 1 item?')), area, region)).toBeGreaterThan(10);
    const changed = await fingerprintMovedBack(await grey(await shifted('Remove all 532 items?')), { x: 80, y: 40 }, region);
    expect(cellsChangedIn(fp, changed, area, region)).toBeGreaterThan(0);
  });

  it('what a move back leaves with no pixels to take is empty (0), on every side; nothing wraps round from the opposite edge', async () => {
    const grey = async (png: Buffer) => decodeGrey(png, { width: W, height: H });
    const region = { x: 0, y: 0, width: W, height: H };
    const recorded = await dialog('Remove 1 item?');
    // 10×10 px a cell: a 64×40 fingerprint of a 640×400 screen.
    const cells = (fp: string) => Buffer.from(fp, 'base64');
    const band = (fp: string, inBand: (cx: number, cy: number) => boolean) => [...cells(fp)].filter((_, i) => inBand(i % 64, Math.floor(i / 64)));
    // The window moved up and left by (80, 40): the recorded screen seen through a frame 80 px right, 40 px down.
    const upLeft = await sharp(await sharp(recorded).extend({ bottom: 40, right: 80, background: 'white' }).png().toBuffer()).extract({ left: 80, top: 40, width: W, height: H }).png().toBuffer();
    const back = await fingerprintMovedBack(await grey(upLeft), { x: -80, y: -40 }, region);
    expect(cellsChangedIn(await screenFingerprint(recorded), back, { x: 200, y: 120, width: 300, height: 130 }, region)).toBe(0);
    // The top 40 rows and the left 80 columns had nothing to move back (cells 0-2 and 0-6, clear of the edge cell).
    expect(new Set(band(back, (cx, cy) => cy <= 2 || cx <= 6))).toEqual(new Set([0]));
    // Moved down and right (the earlier case's shift): the bottom 40 rows and the right 80 columns are empty.
    const downRight = await sharp(await sharp(recorded).extend({ top: 40, left: 80, background: 'white' }).png().toBuffer()).extract({ left: 0, top: 0, width: W, height: H }).png().toBuffer();
    const back2 = await fingerprintMovedBack(await grey(downRight), { x: 80, y: 40 }, region);
    expect(new Set(band(back2, (cx, cy) => cy >= 37 || cx >= 57))).toEqual(new Set([0]));
    expect(Math.min(...band(back2, (cx, cy) => cy <= 30 && cx <= 50))).toBeGreaterThan(0);
    // A shift past the screen's width or height leaves nothing at all to compare (and does not throw).
    for (const shift of [{ x: -W - 10, y: 0 }, { x: W + 10, y: 0 }, { x: 0, y: -H - 10 }, { x: 0, y: H + 10 }]) {
      expect(new Set(cells(await fingerprintMovedBack(await grey(recorded), shift, region)))).toEqual(new Set([0]));
    }
  });

  it("unmoved, a screen of another shape than the fingerprint's gets the screen's own fingerprint (stretched to its cells, not cropped)", async () => {
    // A 640×200 screen: twice as wide for its height as 64×40 cells.
    const wide = await sharp(await dialog('Remove 1 item?')).resize(W, H / 2, { fit: 'fill' }).png().toBuffer();
    const region = { x: 0, y: 0, width: W, height: H / 2 };
    const back = await fingerprintMovedBack(await decodeGrey(wide, { width: W, height: H / 2 }), { x: 0, y: 0 }, region);
    expect(cellsChangedIn(await screenFingerprint(wide), back, region, region)).toBe(0);
  });

  it('the words a replay typed are its tokens, normalised like OCR\'s; a new word is explained only by them, never a gone one', () => {
    expect(typedWords(['Alpha, Beta!', '  7 ', '--'])).toEqual(['alpha', 'beta', '7']);
    const w = (text: string): AreaWord => ({ text, confidence: 90, box: { x: 0, y: 10, width: 30, height: 12 } });
    const differ: SamePixels = () => false;
    const typed = typedWords(['alpha']);
    // "alphal": the word with its caret read as an l.
    expect(wordsDiffer([w('c8')], [w('alphal'), w('c8'), w('alpha')], differ, typed)).toBeUndefined();
    expect(wordsDiffer([w('c8')], [w('alphal'), w('c8')], differ)).toMatch(/"alphal" new\)$/);
    expect(wordsDiffer([w('alpha'), w('c8')], [w('c8')], differ, typed)).toMatch(/"alpha" gone\)$/);
    expect(wordsDiffer([], [w('omega')], differ, typed)).toMatch(/"omega" new\)$/);
  });
});

describe('words compared: their edges, numbers and the sentence said', () => {
  const w = (text: string, confidence = 90): AreaWord => ({ text, confidence, box: { x: 0, y: 10, width: 30, height: 12 } });
  const differ: SamePixels = () => false;

  it('a word loses the punctuation at both its edges, all of it, and keeps what is inside', () => {
    expect(typedWords(['re-send', 'alpha!!', '((beta', 'x.y'])).toEqual(['re-send', 'alpha', 'beta', 'x.y']);
    // "((7": a number once its edges go; "1,5" has two digits however its comma is read.
    expect(isEvidence(w('((7'))).toBe(true);
    expect(isEvidence(w('7))'))).toBe(true);
    expect(isEvidence(w('1,5'))).toBe(true);
    expect(isEvidence(w('a.,'))).toBe(false);
  });

  it('a typed word OCR misread by one letter in five is still the typed word (similarity 0.8, the floor); two in five is not', () => {
    const typed = typedWords(['alpha']);
    expect(wordsDiffer([], [w('alphx')], differ, typed)).toBeUndefined();
    expect(wordsDiffer([], [w('alpxx')], differ, typed)).toMatch(/"alpxx" new\)$/);
  });

  it('a word gone and another new are both named, in that order', () => {
    expect(wordsDiffer([w('remove'), w('1'), w('item?')], [w('remove'), w('all'), w('item?')], differ)).toBe('the text around the target changed: recorded "remove 1 item?", now "remove all item?" ("1" gone, "all" new)');
  });
});

describe('the area and its cells, away from the origin', () => {
  const REGION = { x: 1000, y: 500, width: 1280, height: 800 };
  // 64×40 cells of a 1280×800 region: 20 px each.
  const fp = (changed: Array<[number, number, number]> = []) => {
    const cells = Buffer.alloc(64 * 40);
    for (const [cx, cy, level] of changed) cells[cy * 64 + cx] = level;
    return cells.toString('base64');
  };
  const cell = (cx: number, cy: number) => ({ x: REGION.x + cx * 20, y: REGION.y + cy * 20, width: 19, height: 19 });

  it('counts the cells under the area only, a cell moved by more than 16 levels; a fingerprint of another size counts every cell', () => {
    const then = fp();
    expect(cellsChangedIn(then, fp([[10, 5, 17]]), cell(10, 5), REGION)).toBe(1);
    expect(cellsChangedIn(then, fp([[10, 5, 16]]), cell(10, 5), REGION)).toBe(0);
    // A changed cell beside the area, before it and after it, is not counted.
    expect(cellsChangedIn(then, fp([[5, 5, 200], [11, 5, 200], [10, 4, 200], [10, 6, 200]]), cell(10, 5), REGION)).toBe(0);
    // An area past the right edge stops at the last column (the next row's first cell is not read).
    expect(cellsChangedIn(then, fp([[0, 6, 200]]), { x: REGION.x + 1200, y: REGION.y + 100, width: 400, height: 19 }, REGION)).toBe(0);
    expect(cellsChangedIn(then, fp([[63, 5, 200]]), { x: REGION.x + 1200, y: REGION.y + 100, width: 400, height: 19 }, REGION)).toBe(1);
    expect(cellsChangedIn('', then, cell(10, 5), REGION)).toBe(64 * 40);
    expect(cellsChangedIn(then, Buffer.alloc(10).toString('base64'), cell(10, 5), REGION)).toBe(64 * 40);
    // Two fingerprints of the same wrong size are not comparable either: every cell counts.
    const short = Buffer.alloc(10).toString('base64');
    expect(cellsChangedIn(short, short, cell(10, 5), REGION)).toBe(64 * 40);
  });

  it('the box around a point moves with the shift on both axes; a window beside the box (touching, or below it) leaves the box whole', () => {
    const point = { x: 430, y: 220 };
    expect(areaAround({ point }, { x: 10, y: -20 })).toEqual({ x: 140, y: 60, width: 600, height: 280 });
    const box = { x: 130, y: 80, width: 600, height: 280 };
    const beside = (bounds: { x: number; y: number; width: number; height: number }) => areaAround({ point, window: { title: 'w', app: 'a', bounds, offset: { x: 0, y: 0 } } });
    expect(beside({ x: 730, y: 80, width: 100, height: 100 })).toEqual(box);
    expect(beside({ x: 130, y: 360, width: 100, height: 100 })).toEqual(box);
    expect(beside({ x: 200, y: 400, width: 100, height: 100 })).toEqual(box);
  });

  it('pixels under a word, read on screens whose top-left is not (0, 0), the window moved on both axes; a box off the image is not the same', async () => {
    const grey = async (x: number, y: number) =>
      decodeGrey(await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="white"/><text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="13">Remove 1 item?</text></svg>`)).png().toBuffer(), { width: W, height: H });
    const origin = { x: 1000, y: 500 };
    const then = { grey: await grey(100, 100), origin };
    const now = { grey: await grey(180, 160), origin };
    const box = { x: 1100, y: 588, width: 55, height: 15 }; // "Remove", global
    const agree = pixelsAgree(then, now, { x: 80, y: 60 });
    expect(agree(box, 'then')).toBe(true);
    expect(agree({ ...box, x: box.x + 80, y: box.y + 60 }, 'now')).toBe(true);
    expect(agree({ ...box, x: 0, y: 0 }, 'then')).toBe(false);
  });
});

describe('the words OCR reads in an area', () => {
  // The drawn dialog (image 640×400) as a screenshot of a 1280×800 region at (1000, 500): every box is scaled by 2 and moved.
  const record = { region: { x: 1000, y: 500, width: 1280, height: 800 }, image: { width: W, height: H, format: 'png' as const } };
  const DIALOG = { x: 1000 + 200 * 2, y: 500 + 120 * 2, width: 300 * 2, height: 130 * 2 };
  const centre = (w: AreaWord) => ({ x: w.box.x + w.box.width / 2, y: w.box.y + w.box.height / 2 });

  it('the words whose centre is in the area, in global points, letters or digits in them; the list and status bar outside it are left out', async () => {
    const shot = { image: await dialog('Remove 1 item?'), record };
    const words = await wordsIn(shot, DIALOG);
    expect(words.map((w) => w.text)).toEqual(['remove', '1', 'item?']);
    // "Remove" is drawn from (220, 152) in the image, 13 px high: (1440, 804) globally, about twice its size.
    const remove = words[0]!;
    expect(remove.box.x).toBeGreaterThanOrEqual(1436);
    expect(remove.box.x).toBeLessThanOrEqual(1448);
    expect(remove.box.y).toBeGreaterThanOrEqual(798);
    expect(remove.box.y).toBeLessThanOrEqual(816);
    expect(remove.box.width).toBeGreaterThan(80);
    expect(remove.box.width).toBeLessThan(120);
    expect(remove.box.height).toBeGreaterThan(16);
    expect(remove.box.height).toBeLessThan(30);
    expect(remove.confidence).toBeGreaterThanOrEqual(CONFIDENT);
    // The whole screen: the list's rows and the status line too.
    const all = await wordsIn(shot, { x: 0, y: 0, width: 5000, height: 5000 });
    expect(all.map((w) => w.text)).toEqual(expect.arrayContaining(['remove', '1', 'item?', 'ready']));
    expect(all.length).toBeGreaterThan(words.length + 3);
  }, 120_000);

  it("an area's left and top edges are in it, its right and bottom edges are not (a word's centre decides)", async () => {
    const shot = { image: await dialog('Remove 1 item?'), record };
    const remove = (await wordsIn(shot, DIALOG))[0]!;
    const c = centre(remove);
    const texts = async (area: { x: number; y: number; width: number; height: number }) => (await wordsIn(shot, area)).map((w) => w.text);
    expect(await texts({ x: c.x, y: c.y, width: 1, height: 1 })).toEqual(['remove']);
    expect(await texts({ x: c.x - 1, y: c.y - 0.5, width: 1, height: 1 })).toEqual([]);
    expect(await texts({ x: c.x - 0.5, y: c.y - 1, width: 1, height: 1 })).toEqual([]);
    expect(await texts({ x: c.x + 0.5, y: c.y - 0.5, width: 1, height: 1 })).toEqual([]);
    expect(await texts({ x: c.x - 0.5, y: c.y + 0.5, width: 1, height: 1 })).toEqual([]);
  }, 120_000);

  it('a word with no letter or digit in it is left out (OCR reads the status line\'s "*" marks, confidently)', async () => {
    const image = await dialog('Remove 1 item?', '* Ready *');
    const { words } = await readText(image, {});
    expect(words.filter((w) => w.text === '*' && w.confidence >= CONFIDENT).length).toBeGreaterThan(0);
    // The status line, drawn at y 385 of the image: y 1240-1300 globally.
    const status = await wordsIn({ image, record }, { x: 1000, y: 1240, width: 1280, height: 60 });
    expect(status.map((w) => w.text)).toEqual(['ready']);
  }, 120_000);

  it("the recorded shot covers the trajectory's display at the shot's own size, else the fallback size", () => {
    const image = Buffer.from('png');
    const display = { x: 0, y: 0, width: 2560, height: 1600 };
    expect(recordedShot(image, { image: 'a.png', fingerprint: '', size: { width: 1280, height: 800 } }, display, { width: 640, height: 400 })).toEqual({ image, record: { region: display, image: { width: 1280, height: 800, format: 'jpeg' } } });
    expect(recordedShot(image, { image: 'a.png', fingerprint: '' }, display, { width: 640, height: 400 })).toEqual({ image, record: { region: display, image: { width: 640, height: 400, format: 'jpeg' } } });
  });
});

describe('pixels under a word, at the edges of their reach and of WORD_STRONG', () => {
  // A 10×10 white box on a black 100×100 screen whose top-left is the global (1000, 500): at any
  // place but the exact one, the white patch overlaps black by a row or a column (10% of it).
  const ORIGIN = { x: 1000, y: 500 };
  const screen = (squares: Array<[number, number]>, dark: Array<[number, number]> = []): { grey: GreyImage; origin: Point } => {
    const data = new Uint8Array(100 * 100);
    for (const [x0, y0] of squares) for (let y = y0; y < y0 + 10; y++) data.fill(255, y * 100 + x0, y * 100 + x0 + 10);
    for (const [x, y] of dark) data[y * 100 + x] = 0;
    return { grey: { data, width: 100, height: 100 }, origin: ORIGIN };
  };
  const then = screen([[40, 40]]);
  const box = { x: 1040, y: 540, width: 10, height: 10 };

  it(`a word laid out again up to LAYOUT_SLACK (${LAYOUT_SLACK} px) off, on either side of either axis, is the same pixels; a pixel farther is not`, () => {
    const at = (x: number, y: number) => pixelsAgree(then, screen([[x, y]]), { x: 0, y: 0 })(box, 'then');
    expect([at(40, 40 + LAYOUT_SLACK), at(40 + LAYOUT_SLACK, 40), at(40, 40 - LAYOUT_SLACK), at(40 - LAYOUT_SLACK, 40)]).toEqual([true, true, true, true]);
    expect([at(40, 41 + LAYOUT_SLACK), at(41 + LAYOUT_SLACK, 40), at(40, 39 - LAYOUT_SLACK), at(39 - LAYOUT_SLACK, 40)]).toEqual([false, false, false, false]);
  });

  it('under WORD_STRONG of a word\'s pixels strongly different is the same word; exactly WORD_STRONG is not', () => {
    expect(WORD_STRONG).toBe(0.03);
    const agree = (dark: Array<[number, number]>) => pixelsAgree(then, screen([[40, 40]], dark), { x: 0, y: 0 })(box, 'then');
    expect(agree([[41, 41], [45, 45]])).toBe(true); // 2 of 100
    expect(agree([[41, 41], [45, 45], [48, 48]])).toBe(false); // 3 of 100
  });

  it("a box read on this screen is looked for on the recorded one where the window's move puts it back", () => {
    // The window moved by (20, 10): its box is at (60, 50) now. A second box now, at (20, 70), has nothing under it then.
    const now = screen([[60, 50], [20, 70]]);
    const agree = pixelsAgree(then, now, { x: 20, y: 10 });
    expect(agree({ ...box, x: 1060, y: 550 }, 'now')).toBe(true);
    expect(agree({ ...box, x: 1020, y: 570 }, 'now')).toBe(false);
    expect(agree(box, 'then')).toBe(true);
  });
});

