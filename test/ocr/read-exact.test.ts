/**
 * readExact on rendered text (sharp draws the SVG with DejaVu, Tesseract reads it): a
 * misread is "unsure", never a "mismatch".
 */
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { expectedAlphabet, readExact, terminateOcr } from '../../src/os-control/ocr/index.js';

afterAll(() => terminateOcr());

async function render(text: string, options: { fg?: string; bg?: string; size?: number } = {}): Promise<Buffer> {
  const size = options.size ?? 16;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="${size + 12}"><rect width="100%" height="100%" fill="${options.bg ?? '#ffffff'}"/>` +
    `<text x="150" y="${size + 3}" font-family="DejaVu Sans Mono" font-size="${size}" fill="${options.fg ?? '#000000'}">${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('readExact', () => {
  it('the expected alphabet: numbers allow digits and number punctuation only; words allow letters and their own punctuation', () => {
    const n = expectedAlphabet('5');
    expect(n.numeric).toBe(true);
    expect([...'0123456789.,-e '].every((c) => n.allows(c))).toBe(true);
    expect(n.allows(')')).toBe(false);
    expect(n.allows('S')).toBe(false);
    const w = expectedAlphabet('Saved!');
    expect(w.numeric).toBe(false);
    expect(w.allows('x')).toBe(true);
    expect(w.allows('!')).toBe(true);
    expect(w.allows('7')).toBe(false);
  });

  it('reads the expected text: dark on light and light on dark', async () => {
    expect(await readExact(await render('42'), '42')).toMatchObject({ kind: 'match', text: '42' });
    expect(await readExact(await render('42', { fg: '#f0f0f0', bg: '#101010' }), '42')).toMatchObject({ kind: 'match', text: '42' });
  });

  it('a lookalike letter in a number ("8l" for 81) is unsure, not a mismatch', async () => {
    const r = await readExact(await render('81'), '4');
    expect(r.kind === 'mismatch' ? r.text : 'unsure or other reading').not.toBe('8l');
  });

  it('a clear other number is a mismatch', async () => {
    expect(await readExact(await render('63'), '4')).toEqual({ kind: 'mismatch', text: '63' });
  });

  it('characters the expectation could not contain make it unsure, not a mismatch (the "9)" misread)', async () => {
    const r = await readExact(await render('9)'), '5');
    expect(r.kind).toBe('unsure');
    if (r.kind === 'unsure') expect(r.reason).toMatch(/could not contain: a misread|not confident|disagree/);
  });

  it('an empty region is a mismatch ("reads nothing"); ink OCR cannot read is unsure', async () => {
    expect(await readExact(await render(''), '5')).toEqual({ kind: 'mismatch', text: '' });
    // A glyph-sized blob: ink, but no text.
    const blob = await sharp({ create: { width: 200, height: 28, channels: 3, background: '#ffffff' } })
      .composite([{ input: await sharp({ create: { width: 9, height: 14, channels: 3, background: '#000000' } }).png().toBuffer(), left: 150, top: 7 }])
      .png()
      .toBuffer();
    expect((await readExact(blob, '5')).kind).not.toBe('mismatch');
  });
});
