/**
 * Screenshots of secrets (issue 28 item 8), without a display: which regions a tree
 * names, how a stored image is filled (pixels read back), how a replay fills its screen
 * alike, and --redact's OCR of words the secret detectors flag on a rendered image.
 */
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { Rect } from '../../src/shared/actions.js';
import type { ElementNode, ElementTreeResult } from '../../src/shared/elements.js';
import { findSecrets } from '../../src/shared/secrets.js';
import { fillSecretRegions, regionInImage } from '../../src/main/sessions/redact-image.js';
import { carriesSecret, focusedBounds, MAX_SECRET_REGIONS, passwordFieldBounds, TypedSecretFields, unionRegions } from '../../src/main/sessions/secret-regions.js';
import { Scrubber } from '../../src/main/sessions/scrub.js';
import { maskGrey, regionsToMask } from '../../src/main/agent/replay/secret-mask.js';
import { redactSecretWords, secretWordBoxes } from '../../src/main/agent/ocr-redact.js';
import { readText, terminateOcr, type OcrWord } from '../../src/os-control/ocr/index.js';
import type { Trajectory } from '../../src/shared/trajectory.js';

afterAll(() => terminateOcr());

const node = (over: Partial<ElementNode>): ElementNode => ({ path: over.name ?? 'x', role: 'text', name: '', states: [], actions: [], children: [], ...over });
const tree = (...children: ElementNode[]): ElementTreeResult =>
  ({ kind: 'tree', windows: [{ title: 'Log in', app: 'probe', root: node({ role: 'frame', name: 'Log in', children }) }] }) as unknown as ElementTreeResult;

/** Pixels of a raw RGB image inside a box: min and max of every channel. */
async function spread(image: Buffer, box: Rect): Promise<number> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let lo = 255;
  let hi = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      for (let c = 0; c < 3; c++) {
        const v = data[(y * info.width + x) * 3 + c]!;
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
  }
  return hi - lo;
}

/** A 400×200 PNG: white, with black dots in a row (a password field's) at x 100–300, y 80–120. */
async function dottedField(): Promise<Buffer> {
  const dots = Array.from({ length: 10 }, (_, i) => `<circle cx="${110 + i * 20}" cy="100" r="6" fill="black"/>`).join('');
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200"><rect width="400" height="200" fill="white"/><rect x="20" y="20" width="40" height="40" fill="#3060c0"/>${dots}</svg>`)).png().toBuffer();
}

describe('which regions a screenshot hides', () => {
  it('password fields by state or role, with bounds; other fields and fields without a place are not', () => {
    const field = { x: 100, y: 80, width: 200, height: 40 };
    const role = { x: 10, y: 10, width: 50, height: 20 };
    const t = tree(
      node({ name: 'Password', states: ['password', 'focused'], bounds: field }),
      node({ name: 'PIN', role: 'password text', bounds: role }),
      node({ name: 'User', role: 'entry', bounds: { x: 0, y: 0, width: 9, height: 9 } }),
      node({ name: 'Hidden', states: ['password'] }),
    );
    expect(passwordFieldBounds(t)).toEqual([field, role]);
    expect(focusedBounds(t)).toEqual(field);
    // Where typed text goes, whatever the role: a secret typed into a plain entry shows there too.
    expect(focusedBounds(tree(node({ name: 'User', role: 'entry', states: ['focused'], bounds: role }), node({ name: 'P', states: ['password'], bounds: field })))).toEqual(role);
    expect(focusedBounds(tree(node({ name: 'User', role: 'entry', bounds: role })))).toBeUndefined();
    expect(passwordFieldBounds({ kind: 'unavailable', reason: 'no-bus', detail: 'x' } as unknown as ElementTreeResult)).toEqual([]);
    expect(passwordFieldBounds(undefined)).toEqual([]);
  });

  it('a field typed into stays hidden in later screenshots; each rectangle once, at most 32', () => {
    const fields = new TypedSecretFields();
    fields.add(undefined);
    fields.add({ x: 1, y: 2, width: 3, height: 4 });
    fields.add({ x: 1, y: 2, width: 3, height: 4 });
    expect(fields.regions).toEqual([{ x: 1, y: 2, width: 3, height: 4 }]);
    const many = Array.from({ length: 40 }, (_, i) => ({ x: i, y: 0, width: 1, height: 1 }));
    expect(unionRegions(many, [{ x: 99, y: 0, width: 1, height: 1 }])).toHaveLength(MAX_SECRET_REGIONS);
    expect(unionRegions(many).at(-1)).toEqual({ x: 31, y: 0, width: 1, height: 1 });
  });
});

describe('which text put into a field hides the field (item 1: the log\'s decision is the pixels\')', () => {
  it('a password the log was told of, a key the detectors flag; not plain text, not the word "password", not nothing', () => {
    const scrubber = new Scrubber({ env: {} });
    const log = { scrubText: (t: string) => scrubber.scrubString(t) };
    expect(carriesSecret(log, 'hunter2')).toBe(false);
    scrubber.markSecret('hunter2');
    expect(carriesSecret(log, 'hunter2')).toBe(true);
    expect(carriesSecret(log, 'hunter2\n')).toBe(true);
    expect(carriesSecret(log, 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789')).toBe(true);
    expect([carriesSecret(log, 'Replay ✓ Grüße 7'), carriesSecret(log, 'password'), carriesSecret(log, '')]).toEqual([false, false, false]);
  });
});

describe('a stored screenshot with its secret regions filled', () => {
  // The image shows region (1000, 500) 800×400 of the desktop at half size: one global point is 0.5 image pixels.
  const record = { region: { x: 1000, y: 500, width: 800, height: 400 } };
  const fieldGlobal = { x: 1200, y: 660, width: 400, height: 80 };

  it('maps global points to image pixels, outwards, clipped; off the image is nothing', () => {
    expect(regionInImage(fieldGlobal, record, { width: 400, height: 200 })).toEqual({ x: 100, y: 80, width: 200, height: 40 });
    expect(regionInImage({ x: 1201, y: 661, width: 3, height: 3 }, record, { width: 400, height: 200 })).toEqual({ x: 100, y: 80, width: 2, height: 2 });
    expect(regionInImage({ x: 1700, y: 850, width: 400, height: 400 }, record, { width: 400, height: 200 })).toEqual({ x: 350, y: 175, width: 50, height: 25 });
    expect(regionInImage({ x: 0, y: 0, width: 100, height: 100 }, record, { width: 400, height: 200 })).toBeUndefined();
  });

  it('the dots are gone (one colour: their mean), everything else is as it was, the format kept', async () => {
    const image = await dottedField();
    const field = { x: 100, y: 80, width: 200, height: 40 };
    expect(await spread(image, field)).toBe(255);
    const filled = await fillSecretRegions(image, record, [fieldGlobal]);
    expect((await sharp(filled).metadata()).format).toBe('png');
    expect(await spread(filled, field)).toBe(0);
    const { data } = await sharp(filled).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const grey = data[(100 * 400 + 200) * 3]!;
    // The mean of white and the dots' share of black: lighter than black, darker than white.
    expect(grey).toBeGreaterThan(128);
    expect(grey).toBeLessThan(255);
    // Outside the field: the blue square and the white are untouched.
    const before = await sharp(image).removeAlpha().raw().toBuffer();
    for (const [x, y] of [[30, 30], [99, 100], [300, 100], [200, 79], [200, 120]] as const) {
      const at = (y * 400 + x) * 3;
      expect([...data.subarray(at, at + 3)]).toEqual([...before.subarray(at, at + 3)]);
    }
    // A thumbnail (any size) is filled at its own scale; a JPEG stays a JPEG.
    const thumb = await sharp(image).resize(200, 100).jpeg({ quality: 90 }).toBuffer();
    const thumbFilled = await fillSecretRegions(thumb, record, [fieldGlobal]);
    expect((await sharp(thumbFilled).metadata()).format).toBe('jpeg');
    // JPEG's 8×8 blocks and halved chroma leave a few levels on a flat fill (6 seen); the dots were 255 apart.
    expect(await spread(thumbFilled, { x: 52, y: 42, width: 96, height: 16 })).toBeLessThanOrEqual(12);
    expect(await fillSecretRegions(image, record, [])).toBe(image);
  });
});

describe('a replay fills the same regions of its screen', () => {
  const shot = (masked?: Rect[]) => ({ image: 'a.jpg', fingerprint: 'AA==', ...(masked ? { masked } : {}) });
  const r = (x: number): Rect => ({ x, y: 0, width: 10, height: 10 });
  const trajectory = {
    steps: [
      { step: 0, intent: '', actions: [{ action: { type: 'key', keys: 'a', repeat: 1 } }], before: shot(), after: shot([r(1)]) },
      { step: 1, intent: '', actions: [{ action: { type: 'key', keys: 'a', repeat: 1 } }], before: shot([r(2)]), after: shot([r(3)]) },
    ],
    final: shot([r(4)]),
  } as unknown as Trajectory;

  it('those of the previous step after and of the next step before, or of the final screen', () => {
    expect(regionsToMask(trajectory, 0, undefined)).toEqual([]);
    expect(regionsToMask(trajectory, 1, 0)).toEqual([r(1), r(2)]);
    expect(regionsToMask(trajectory, 2, 1)).toEqual([r(3), r(4)]);
    expect(regionsToMask(trajectory, 1, undefined)).toEqual([r(2)]);
    // A previous step the trajectory does not hold (a cut-short file): none of its regions, no throw.
    expect(regionsToMask(trajectory, 2, 7)).toEqual([r(4)]);
  });

  it('fills grey pixels of the screen with their mean, in a copy', () => {
    const grey = { data: new Uint8Array([0, 100, 200, 40, 0, 0, 0, 0]), width: 4, height: 2 };
    // The screen is region (100, 100) 8×4 points: 2 points a pixel.
    const masked = maskGrey(grey, [{ x: 102, y: 100, width: 4, height: 2 }], { x: 100, y: 100, width: 8, height: 4 });
    expect([...masked.data]).toEqual([0, 150, 150, 40, 0, 0, 0, 0]);
    expect([...grey.data]).toEqual([0, 100, 200, 40, 0, 0, 0, 0]);
    expect(maskGrey(grey, [], { x: 100, y: 100, width: 8, height: 4 })).toBe(grey);
    // A region wholly off this screen (a field of another monitor) fills nothing: the same image, no copy.
    expect(maskGrey(grey, [{ x: 300, y: 300, width: 4, height: 2 }], { x: 100, y: 100, width: 8, height: 4 })).toBe(grey);
  });
});

describe('sessions export --redact: words the secret detectors flag', () => {
  const word = (text: string, x: number, line = 0): OcrWord => ({ text, confidence: 90, line, bbox: { x, y: line * 20, width: text.length * 8, height: 14 } });

  it('the value after "password is", a key, and the rest of a named value OCR split; nothing on a plain line', () => {
    const words = [
      word('the', 0), word('password', 40), word('is', 120), word('P@ssw0rd!', 140), word('2024', 220),
      word('my', 0, 1), word('pin', 30, 1), word('is', 60, 1), word('4821', 80, 1),
      word('key', 0, 2), word('sk-ant-api03-abcdefghijklmnopqrst', 40, 2), word('here', 400, 2),
      word('Meeting', 0, 3), word('at', 70, 3), word('noon', 90, 3),
    ];
    const boxes = secretWordBoxes(words);
    const xs = (line: number) => boxes.filter((b) => b.y === line * 20 - 3).map((b) => b.x + 3);
    expect(xs(0)).toEqual([140, 220]);
    expect(xs(1)).toEqual([80]);
    expect(xs(2)).toEqual([40]);
    expect(xs(3)).toEqual([]);
    // Padded by 3 pixels each side.
    expect(boxes[0]).toEqual({ x: 137, y: -3, width: 9 * 8 + 6, height: 20 });
  });

  it('labels are never filled (item 3): "Password: Show" nothing; two named values on a line, their values but not the next label', () => {
    const words = [
      word('Password:', 0), word('Show', 100),
      word('New', 0, 1), word('password:', 40, 1), word('hunter2x', 130, 1), word('Confirm', 220, 1), word('password:', 300, 1), word('hunter2x', 390, 1),
      word('The', 0, 2), word('password', 40, 2), word('is', 120, 2), word('incorrect.', 140, 2),
    ];
    const boxes = secretWordBoxes(words);
    const xs = (line: number) => boxes.filter((b) => b.y === line * 20 - 3).map((b) => b.x + 3);
    expect(xs(0)).toEqual([]);
    // The first value and what follows it up to the next label (OCR may split a value), the second value; no "password:".
    expect(xs(1)).toEqual([130, 220, 390]);
    expect(xs(2)).toEqual([]);
  });

  it('a rendered screenshot: the password OCR reads before is not read after, the other line still is', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="200"><rect width="900" height="200" fill="white"/>
      <text x="20" y="60" font-family="DejaVu Sans" font-size="22" fill="black">Your new password is P@ssw0rd!2024 until Friday</text>
      <text x="20" y="140" font-family="DejaVu Sans" font-size="22" fill="black">Meeting moved to Thursday afternoon</text></svg>`;
    const image = await sharp(Buffer.from(svg)).png().toBuffer();
    const before = await readText(image, { layout: 'sparse' });
    expect(findSecrets(before.text).length).toBeGreaterThan(0);
    expect(before.text).toMatch(/2024/);
    const { image: redacted, words } = await redactSecretWords(image);
    expect(words).toBeGreaterThan(0);
    const after = await readText(redacted, { layout: 'sparse' });
    expect(after.text).not.toMatch(/2024|ssw0rd/);
    expect(findSecrets(after.text)).toEqual([]);
    expect(after.text).toMatch(/Meeting moved to Thursday/);
    expect(after.text).toMatch(/password/i);
    // Two whole-image OCR passes: 65 s at load ~40 on 2 cores.
  }, 300_000);
});
