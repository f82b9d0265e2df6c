import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findText, readText, terminateOcr } from '../../src/os-control/ocr/index.js';
import { startProbe, type Probe } from '../harness/probe/probe.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { captureRoot } from './capture-root.js';

/**
 * Labels of 10–24 px drawn by the probe page at known places; find_text must put its
 * click point inside the box the page reports it drew. The hit rate per size is printed.
 */
const WORDS = ['Save', 'Open file', 'Cancel', 'Settings', 'Export PNG', 'Delete', 'Next page', 'Apply'];
const SIZES = [10, 12, 14, 16, 18, 20, 24];

let xvfb: Xvfb;
let probe: Probe;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  probe = await startProbe(xvfb, { x: 0, y: 0, width: 1280, height: 800 });
});
afterAll(async () => {
  await terminateOcr();
  await probe?.close();
  await xvfb?.stop();
});

describe('OCR on the probe page', () => {
  it('finds labels of 10–24 px where the page drew them', async () => {
    const labels = SIZES.flatMap((fontSize, row) =>
      WORDS.map((text, col) => ({ text, fontSize, x: 20 + col * 150, y: 20 + row * 60 })),
    );
    const drawn = await probe.showPattern(labels);
    await new Promise((r) => setTimeout(r, 300));
    const screen = captureRoot(xvfb);

    const perSize = new Map<number, { hits: number; total: number }>();
    const misses: string[] = [];
    for (const [i, label] of labels.entries()) {
      const box = drawn[i]!;
      // Search near the label only (as the QA check does with a region), so repeated words do not compete.
      const region = { x: box.x - 30, y: box.y - 15, width: box.width + 60, height: box.height + 30 };
      const matches = await findText(screen, label.text, { region });
      const best = matches[0];
      const hit =
        !!best &&
        best.center.x >= box.x - 2 &&
        best.center.x <= box.x + box.width + 2 &&
        best.center.y >= box.y - 2 &&
        best.center.y <= box.y + box.height + 2;
      const s = perSize.get(label.fontSize) ?? { hits: 0, total: 0 };
      s.total += 1;
      if (hit) s.hits += 1;
      else misses.push(`${label.fontSize}px "${label.text}" → ${best ? JSON.stringify(best.center) : 'not found'}`);
      perSize.set(label.fontSize, s);
    }
    const total = [...perSize.values()].reduce((a, s) => ({ hits: a.hits + s.hits, total: a.total + s.total }), { hits: 0, total: 0 });
    console.log(
      `OCR hit rate on the probe page: ${total.hits}/${total.total} (${((100 * total.hits) / total.total).toFixed(1)}%); ` +
        [...perSize].map(([size, s]) => `${size}px ${s.hits}/${s.total}`).join(', ') +
        (misses.length ? `\nmisses: ${misses.join('; ')}` : ''),
    );
    expect(total.hits / total.total).toBeGreaterThanOrEqual(0.9);

    // The same labels searched on the whole screen (no region): every drawn box should get a match.
    const inside = (c: { x: number; y: number }, b: { x: number; y: number; width: number; height: number }) =>
      c.x >= b.x - 2 && c.x <= b.x + b.width + 2 && c.y >= b.y - 2 && c.y <= b.y + b.height + 2;
    let wholeHits = 0;
    const wholePerSize = new Map<number, number>();
    for (const word of WORDS) {
      const found = await findText(screen, word);
      labels.forEach((label, i) => {
        if (label.text !== word) return;
        if (found.some((m) => inside(m.center, drawn[i]!))) {
          wholeHits += 1;
          wholePerSize.set(label.fontSize, (wholePerSize.get(label.fontSize) ?? 0) + 1);
        }
      });
    }
    console.log(
      `OCR hit rate on the whole screen (no region): ${wholeHits}/${labels.length} (${((100 * wholeHits) / labels.length).toFixed(1)}%); ` +
        SIZES.map((size) => `${size}px ${wholePerSize.get(size) ?? 0}/${WORDS.length}`).join(', '),
    );
    expect(wholeHits / labels.length).toBeGreaterThanOrEqual(0.8);
    // Every size must be readable, the smallest included.
    for (const [size, s] of perSize) expect(s.hits / s.total, `${size}px`).toBeGreaterThanOrEqual(0.75);
  });

  it('finds a label on the whole screen without a region, and reads a region exactly', async () => {
    const drawn = await probe.showPattern([
      { text: 'Quarterly report', fontSize: 16, x: 400, y: 300 },
      { text: 'Total 4711', fontSize: 13, x: 700, y: 520 },
    ]);
    await new Promise((r) => setTimeout(r, 300));
    const screen = captureRoot(xvfb);
    const [match] = await findText(screen, 'quarterly report');
    const box = drawn[0]!;
    expect(match?.text).toBe('Quarterly report');
    expect(match!.center.x).toBeGreaterThan(box.x);
    expect(match!.center.x).toBeLessThan(box.x + box.width);
    expect(match!.center.y).toBeGreaterThan(box.y);
    expect(match!.center.y).toBeLessThan(box.y + box.height);

    const total = drawn[1]!;
    const read = await readText(screen, {
      region: { x: total.x - 8, y: total.y - 6, width: total.width + 16, height: total.height + 12 },
      layout: 'line',
    });
    expect(read.text).toBe('Total 4711');
  });
});
