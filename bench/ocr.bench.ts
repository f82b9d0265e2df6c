/**
 * OCR bench: what find_text and the QA checks cost, and what the preprocessing buys.
 * A 1280×800 "screen" with labels of 10–24 px (dark text on light, light on a dark
 * panel) is rendered with sharp, then:
 *   - hit rate of the labels: our pipeline vs Tesseract on the unprocessed image (baseline),
 *   - median time of one full-screen pass, of a label search on a fresh screenshot
 *     (cold) and on an already read one (cached), and of a small region read,
 *   - preprocessing alone, against the recognition it prepares.
 *
 *   npx tsx bench/ocr.bench.ts [--runs 5]
 */
import sharp from 'sharp';
import { recognizeWords } from '../src/os-control/ocr/engine.js';
import { findText, matchText, prepareForOcr, readText, terminateOcr } from '../src/os-control/ocr/index.js';
import type { OcrWord } from '../src/os-control/ocr/types.js';
import { medianOf, numberArg } from './lib/stats.js';

const WORDS = ['Save', 'Open file', 'Cancel', 'Settings', 'Export PNG', 'Delete', 'Next page', 'Apply'];
const SIZES = [10, 12, 14, 16, 18, 20, 24];
const W = 1280;
const H = 800;

interface Label {
  text: string;
  size: number;
  x: number;
  y: number;
  dark: boolean;
}

function labels(): Label[] {
  return SIZES.flatMap((size, row) =>
    WORDS.map((text, col) => ({ text, size, x: 20 + col * 155, y: 40 + row * 100, dark: col >= 6 })),
  );
}

async function screen(list: Label[]): Promise<Buffer> {
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const panel = `<rect x="${20 + 6 * 155 - 10}" y="0" width="${2 * 155 + 20}" height="${H}" fill="#2b2d31"/>`;
  const texts = list
    .map((l) => `<text x="${l.x}" y="${l.y + l.size}" font-family="DejaVu Sans" font-size="${l.size}" fill="${l.dark ? '#e8e8ea' : '#1c1d21'}">${esc(l.text)}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#f3f3f5"/>${panel}${texts}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

function hits(words: OcrWord[], list: Label[]): number {
  let n = 0;
  for (const l of list) {
    const box = { x: l.x - 2, y: l.y - 2, width: l.text.length * l.size * 0.7 + 4, height: l.size * 1.4 + 4 };
    if (matchText(words, l.text).some((m) => m.center.x >= box.x && m.center.x <= box.x + box.width && m.center.y >= box.y && m.center.y <= box.y + box.height)) n += 1;
  }
  return n;
}

async function main(): Promise<void> {
  const runs = numberArg('runs', 5);
  const list = labels();
  const png = await screen(list);

  // Warm the worker (its start-up is paid once per process).
  const t0 = performance.now();
  await readText(await sharp({ create: { width: 40, height: 20, channels: 3, background: '#fff' } }).png().toBuffer());
  const startMs = performance.now() - t0;

  // Hit rate: our pipeline (the find_text passes) vs Tesseract on the unprocessed screenshot.
  let ours = 0;
  for (const l of list) {
    const m = await findText(png, l.text);
    const box = { x: l.x - 2, y: l.y - 2, width: l.text.length * l.size * 0.7 + 4, height: l.size * 1.4 + 4 };
    if (m.some((x) => x.center.x >= box.x && x.center.x <= box.x + box.width && x.center.y >= box.y && x.center.y <= box.y + box.height)) ours += 1;
  }
  const rawWords = (await recognizeWords(png, 'sparse')).map((w, i) => ({
    text: w.text,
    confidence: w.confidence,
    line: w.line ?? i,
    bbox: { x: w.bbox.x0, y: w.bbox.y0, width: w.bbox.x1 - w.bbox.x0, height: w.bbox.y1 - w.bbox.y0 },
  }));
  const baseline = hits(rawWords, list);

  const fullPass = await medianOf(runs, async () => readText(Buffer.from(png), { layout: 'sparse', scale: 2 }));
  const rawPass = await medianOf(runs, async () => recognizeWords(Buffer.from(png), 'sparse'));
  const prep = await medianOf(runs, async () => prepareForOcr(Buffer.from(png), { scale: 2 }));
  const cold = await medianOf(runs, async () => findText(Buffer.from(png), 'Export PNG'));
  const cached = await medianOf(runs, async () => findText(png, 'Export PNG'));
  const region = { x: 20, y: 40 + 6 * 100 - 6, width: 150, height: 40 };
  const regionRead = await medianOf(runs, async () => readText(Buffer.from(png), { region, layout: 'line' }));

  const pct = (n: number) => `${((100 * n) / list.length).toFixed(1)}%`;
  console.log(`OCR bench (${runs} runs per figure, 1280×800 screen, ${list.length} labels of ${SIZES[0]}–${SIZES.at(-1)} px, 2 of 8 columns light-on-dark)`);
  console.log(`  worker start (once per process)        ${startMs.toFixed(0)} ms`);
  console.log(`  hit rate, DeskPilot pipeline            ${ours}/${list.length} (${pct(ours)})`);
  console.log(`  hit rate, raw Tesseract (baseline)      ${baseline}/${list.length} (${pct(baseline)})`);
  console.log(`  full-screen pass (2×, preprocessed)     median ${fullPass.toFixed(0)} ms   vs raw Tesseract pass ${rawPass.toFixed(0)} ms (×${(fullPass / rawPass).toFixed(2)})`);
  console.log(`  preprocessing alone                     median ${prep.toFixed(0)} ms   (${((100 * prep) / fullPass).toFixed(0)}% of a pass)`);
  console.log(`  find_text, fresh screenshot (cold)      median ${cold.toFixed(0)} ms`);
  console.log(`  find_text, same screenshot (cached)     median ${cached.toFixed(2)} ms   (×${(cold / Math.max(cached, 0.01)).toFixed(0)} faster)`);
  console.log(`  region read (150×40, one line)          median ${regionRead.toFixed(0)} ms   (×${(regionRead / fullPass).toFixed(2)} of a full pass)`);
  await terminateOcr();
}

await main();
