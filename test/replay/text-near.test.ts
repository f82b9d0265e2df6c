/**
 * The screen check before a step notices a changed sentence next to its target (issue 28
 * item 2): a confirmation dialog recorded as "Remove 1 item?" and replayed on "Remove all
 * 532 items?" has the same Remove button, pixel for pixel, and the whole screen differs
 * in well under SCREEN_MATCH of its cells. Driven turn by turn on drawn screens; the
 * desktop test (replay-dialog.desktop.test.ts) replays a real page's dialog.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { TRAJECTORY_FORMAT, TRAJECTORY_SCHEMA, type Trajectory } from '../../src/shared/trajectory.js';
import { ReplayProvider, SCREEN_MATCH } from '../../src/main/agent/replay/replay-provider.js';
import { areaAround, cellsChangedIn, fingerprintMovedBack, isEvidence, pixelsAgree, typedWords, wordsDiffer, type AreaWord, type SamePixels } from '../../src/main/agent/replay/text-near.js';
import { CONFIDENT } from '../../src/os-control/ocr/index.js';
import { decodeGrey, fingerprintDistance, screenFingerprint } from '../../src/os-control/screen-match.js';
import type { ModelTurn } from '../../src/main/agent/providers/types.js';
import { H, requestOn, W } from './drawn-screen.js';

/** The cases that read the screen with OCR: ~2–5 s idle, past 20 s at load ~28 (a mutation run's dry run timed out on one). */
const OCR_CASE_MS = 120_000;

/** A window with a list and a status bar, and a confirmation dialog over it: a question and a Remove button. */
async function dialog(question: string, status = 'Ready', at = { x: 0, y: 0 }): Promise<Buffer> {
  const rows = Array.from({ length: 8 }, (_, i) => `<text x="30" y="${60 + i * 24}" font-family="DejaVu Sans" font-size="13">file-${i}.txt</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="white"/>${rows}<text x="20" y="385" font-family="DejaVu Sans" font-size="13">${status}</text>
<g transform="translate(${at.x} ${at.y})"><rect x="200" y="120" width="300" height="130" fill="#f2f2f2" stroke="#888"/><text x="220" y="165" font-family="DejaVu Sans" font-size="13">${question}</text>
<rect x="380" y="205" width="100" height="30" rx="3" fill="#e6e6e6" stroke="#666"/><text x="430" y="225" font-family="DejaVu Sans" font-size="13" text-anchor="middle">Remove</text></g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const signal = new AbortController().signal;
const actionsOf = (turn: ModelTurn) => turn.assistant.calls.flatMap((c) => c.actions.flatMap((a) => (a.ok ? [a.action] : [])));
const request = requestOn;

async function setUp() {
  const recorded = await dialog('Remove 1 item?');
  const patch = await sharp(recorded).extract({ left: 394, top: 200, width: 72, height: 40 }).png().toBuffer();
  const done = await dialog('', 'Removed');
  const files = new Map([
    ['before.png', recorded],
    ['after.png', done],
    ['p.png', patch],
  ]);
  const trajectory: Trajectory = {
    format: TRAJECTORY_FORMAT,
    schema: TRAJECTORY_SCHEMA,
    revision: 1,
    task: 'remove the selected item',
    runId: 'r1',
    display: { x: 0, y: 0, width: W, height: H },
    steps: [
      {
        step: 1,
        intent: 'Confirm the removal.',
        actions: [
          {
            action: { type: 'click', x: 430, y: 220, button: 'left', clicks: 1, modifiers: [] },
            target: { point: { x: 430, y: 220 }, patch: { image: 'p.png', bounds: { x: 394, y: 200, width: 72, height: 40 }, contrast: 40 }, window: { title: 'Confirm', app: 'files', bounds: { x: 200, y: 120, width: 300, height: 130 }, offset: { x: 230, y: 100 } } },
          },
        ],
        before: { image: 'before.png', fingerprint: await screenFingerprint(recorded), size: { width: W, height: H } },
        after: { image: 'after.png', fingerprint: await screenFingerprint(done), size: { width: W, height: H } },
        origin: 'model',
      },
    ],
    final: { image: 'after.png', fingerprint: await screenFingerprint(done) },
  };
  return { provider: strictReplay(trajectory, files), trajectory, recorded };
}

/** A strict replay of the drawn trajectory: its files from the map, no accessibility tree. */
function strictReplay(trajectory: Trajectory, files: Map<string, Buffer>): ReplayProvider {
  return new ReplayProvider({
    trajectory,
    mode: 'strict',
    readFile: async (p) => files.get(p)!,
    computer: {
      findElement: () => Promise.reject(new Error('no tree in this test')),
      elementTree: () => Promise.reject(new Error('no tree in this test')),
      settle: async (o = {}) => ({ waitedMs: o.quietMs ?? 0, settled: true }),
    },
  });
}

describe('the screen check before a step reads the text around its target', () => {
  it('a changed question in the dialog is a screen divergence that says so, and nothing is clicked', async () => {
    const { provider, trajectory } = await setUp();
    const changed = await dialog('Remove all 532 items?');
    // The whole-screen check alone lets it through: that is the hole.
    expect(fingerprintDistance(trajectory.steps[0]!.before.fingerprint, await screenFingerprint(changed))).toBeLessThan(SCREEN_MATCH);
    expect(actionsOf(await provider.turn(request(changed), signal))).toEqual([{ type: 'screenshot' }]);
    const end = await provider.turn(request(changed), signal);
    expect(actionsOf(end)).toMatchObject([{ type: 'finish', success: false }]);
    expect(provider.stats.divergences).toMatchObject([{ kind: 'screen', index: 0 }]);
    // OCR's reading of a 13 px font varies ("532 item", "all 532 items?"): the sentence says what it read on each side.
    expect(provider.stats.divergences[0]!.message).toMatch(/^the text around the target changed: recorded "[^"]*remove 1 item\?[^"]*", now "[^"]*532 item/);
    expect(provider.stats.replayed).toBe(0);
  }, OCR_CASE_MS);

  it('the same dialog replays; a change outside the area around the target (the status bar) does not stop it', async () => {
    const { provider, recorded } = await setUp();
    expect(actionsOf(await provider.turn(request(recorded), signal))).toMatchObject([{ type: 'click', x: 430, y: 220 }]);
    const other = await setUp();
    expect(actionsOf(await other.provider.turn(request(await dialog('Remove 1 item?', 'Saved 10:04')), signal))).toMatchObject([{ type: 'click', x: 430, y: 220 }]);
  }, OCR_CASE_MS);

  it('a moved dialog: the changed question is refused, read where the dialog is now; the same question replays at its new place', async () => {
    const at = { x: -120, y: 60 };
    const { provider } = await setUp();
    const changed = await dialog('Remove all 532 items?', 'Ready', at);
    expect(actionsOf(await provider.turn(request(changed), signal))).toEqual([{ type: 'screenshot' }]);
    expect(actionsOf(await provider.turn(request(changed), signal))).toMatchObject([{ type: 'finish', success: false }]);
    expect(provider.stats.divergences).toMatchObject([{ kind: 'screen', index: 0 }]);
    expect(provider.stats.divergences[0]!.message).toMatch(/^the text around the target changed: recorded "[^"]*remove 1 item\?[^"]*", now .*\((".+" gone|".+" new)/);
    const same = await setUp();
    expect(actionsOf(await same.provider.turn(request(await dialog('Remove 1 item?', 'Ready', at)), signal))).toMatchObject([{ type: 'click', x: 430 + at.x, y: 220 + at.y }]);
  }, OCR_CASE_MS);

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

  it('text the replay typed one step earlier, missing from a recording taken before the app drew it, is the run\'s own: the next click replays; a word it did not type still diverges', async () => {
    // replay-probe's recording of "alpha" into c3 stored the empty field after the type
    // step (Chromium drew it late), and the click 180 px away then read "alpha" as new.
    const form = (field: string, note = '') =>
      sharp(
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="white"/><rect x="100" y="100" width="160" height="32" fill="white" stroke="#444"/><text x="106" y="122" font-family="DejaVu Sans" font-size="15">${field}</text><text x="100" y="170" font-family="DejaVu Sans" font-size="15">${note}</text><rect x="300" y="100" width="100" height="32" rx="3" fill="#e6e6e6" stroke="#666"/><text x="350" y="121" font-family="DejaVu Sans" font-size="14" text-anchor="middle">Send</text></svg>`,
        ),
      )
        .png()
        .toBuffer();
    const empty = await form('');
    const sent = await form('', 'Sent');
    const patch = await sharp(empty).extract({ left: 314, top: 96, width: 72, height: 40 }).png().toBuffer();
    const shot = async (png: Buffer, image: string) => ({ image, fingerprint: await screenFingerprint(png), size: { width: W, height: H } });
    const files = new Map([
      ['empty.png', empty],
      ['sent.png', sent],
      ['p.png', patch],
    ]);
    const trajectory: Trajectory = {
      format: TRAJECTORY_FORMAT,
      schema: TRAJECTORY_SCHEMA,
      revision: 1,
      task: 'write alpha and send it',
      runId: 'r2',
      display: { x: 0, y: 0, width: W, height: H },
      steps: [
        // The recording's screen after typing is the empty field: taken before the app drew "alpha".
        { step: 1, intent: 'Write alpha.', actions: [{ action: { type: 'type', text: 'alpha' } }], before: await shot(empty, 'empty.png'), after: await shot(empty, 'empty.png'), origin: 'model' },
        {
          step: 2,
          intent: 'Press Send.',
          actions: [{ action: { type: 'click', x: 350, y: 116, button: 'left', clicks: 1, modifiers: [] }, target: { point: { x: 350, y: 116 }, patch: { image: 'p.png', bounds: { x: 314, y: 96, width: 72, height: 40 }, contrast: 40 } } }],
          before: await shot(empty, 'empty.png'),
          after: await shot(sent, 'sent.png'),
          origin: 'model',
        },
      ],
      final: { image: 'sent.png', fingerprint: await screenFingerprint(sent) },
    };
    const replay = () => strictReplay(trajectory, files);
    const typed = replay();
    expect(actionsOf(await typed.turn(request(empty), signal))).toEqual([{ type: 'type', text: 'alpha' }]);
    // This replay's screen shows what it typed: the click goes ahead, no look again.
    expect(actionsOf(await typed.turn(request(await form('alpha')), signal))).toMatchObject([{ type: 'click', x: 350, y: 116 }]);
    expect(typed.stats.divergences).toEqual([]);
    // The same typing, and a word nobody typed beside the field: the text around the target changed.
    const other = replay();
    expect(actionsOf(await other.turn(request(empty), signal))).toEqual([{ type: 'type', text: 'alpha' }]);
    const changed = await form('alpha', 'Overwrite');
    expect(actionsOf(await other.turn(request(changed), signal))).toEqual([{ type: 'screenshot' }]);
    expect(actionsOf(await other.turn(request(changed), signal))).toMatchObject([{ type: 'finish', success: false }]);
    expect(other.stats.divergences).toMatchObject([{ kind: 'screen', index: 1, message: expect.stringMatching(/"overwrite" new\)$/) }]);
  }, OCR_CASE_MS);

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
