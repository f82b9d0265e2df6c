import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findText, readText, terminateOcr } from '../../src/os-control/ocr/index.js';
import { startXcalc, type NativeApp } from '../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { captureRoot } from './capture-root.js';

/**
 * xcalc's labels are small bitmap-font text in bordered buttons: the hard case.
 * Position is proven by use: the click point find_text returns is clicked with
 * xdotool, and xcalc's display (read back by OCR) must show what was pressed.
 */
const LABELS = ['1/x', 'CE/C', 'AC', 'INV', 'sin', 'cos', 'tan', 'DRG', 'e', 'EE', 'log', 'ln', 'y^x', 'not', 'and', 'or', 'xor', 'trunc',
  'x!', '(', ')', 'base', 'shl', 'D', 'E', 'F', 'shr', 'mod', 'A', 'B', 'C', 'STO', '7', '8', '9', '*', 'RCL', '4', '5', '6', '-', 'SUM',
  '1', '2', '3', '+', 'EXC', '0', '.', '+/-', '='];

let xvfb: Xvfb;
let xcalc: NativeApp;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 800, height: 600 });
  xcalc = await startXcalc(xvfb, { x: 100, y: 100, width: 260, height: 340 });
});
afterAll(async () => {
  await terminateOcr();
  await xcalc?.stop();
  await xvfb?.stop();
});

function clientOrigin(): { x: number; y: number } {
  const out = spawnSync('xwininfo', ['-id', xcalc.windowId], { env: xvfb.env, encoding: 'utf8' }).stdout;
  return { x: Number(/Absolute upper-left X:\s+(-?\d+)/.exec(out)?.[1]), y: Number(/Absolute upper-left Y:\s+(-?\d+)/.exec(out)?.[1]) };
}

function click(x: number, y: number): void {
  const r = spawnSync('xdotool', ['mousemove', '--sync', String(Math.round(x)), String(Math.round(y)), 'click', '1'], { env: xvfb.env });
  expect(r.status).toBe(0);
}

async function display(origin: { x: number; y: number }): Promise<string> {
  await new Promise((r) => setTimeout(r, 150));
  const { text } = await readText(captureRoot(xvfb), { region: { x: origin.x + 8, y: origin.y + 2, width: 248, height: 22 }, layout: 'line' });
  return text;
}

describe('OCR on xcalc', () => {
  it('finds the button labels (hit rate) and clicking the digits it finds enters them', async () => {
    const origin = clientOrigin();
    const region = { x: origin.x, y: origin.y + 30, width: 260, height: 310 };
    const screen = captureRoot(xvfb);
    const found: Record<string, { x: number; y: number }> = {};
    for (const label of LABELS) {
      const [best] = await findText(screen, label, { region });
      if (best) found[label] = best.center;
    }
    const missing = LABELS.filter((l) => !found[l]);

    // Prove the positions: every digit found is clicked after AC and must be what the display shows.
    let digitHits = 0;
    const digitReport: string[] = [];
    for (const d of ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']) {
      const ac = found.AC;
      const at = found[d];
      if (!ac || !at) {
        digitReport.push(`${d}: not found`);
        continue;
      }
      click(ac.x, ac.y);
      click(at.x, at.y);
      const shown = await display(origin);
      if (shown === d) digitHits += 1;
      else digitReport.push(`${d}: display "${shown}"`);
    }
    console.log(
      `OCR on xcalc: labels found ${LABELS.length - missing.length}/${LABELS.length} ` +
        `(${((100 * (LABELS.length - missing.length)) / LABELS.length).toFixed(1)}%), missing: ${missing.join(' ') || 'none'}; ` +
        `digits clicked correctly ${digitHits}/10${digitReport.length ? ` (${digitReport.join(', ')})` : ''}`,
    );
    expect((LABELS.length - missing.length) / LABELS.length).toBeGreaterThanOrEqual(0.8);
    expect(digitHits).toBeGreaterThanOrEqual(9);
  });

  it('computes 2 + 3 = 5 by clicking only where find_text says, and reads 5 from the display', async () => {
    const origin = clientOrigin();
    const region = { x: origin.x, y: origin.y + 30, width: 260, height: 310 };
    const screen = captureRoot(xvfb);
    for (const label of ['AC', '2', '+', '3', '=']) {
      const [best] = await findText(screen, label, { region });
      expect(best, `label ${label}`).toBeDefined();
      click(best!.center.x, best!.center.y);
    }
    expect(await display(origin)).toBe('5');
    // The display text is found on the whole screen too.
    const [five] = await findText(captureRoot(xvfb), '5', { region: { x: origin.x, y: origin.y, width: 260, height: 30 } });
    expect(five?.text).toBe('5');
    // Without a region, on the whole screen (dark desktop, light window): AC is still found on its button.
    const [ac] = await findText(captureRoot(xvfb), 'AC');
    const client = { ...origin, width: 260, height: 340 };
    expect(ac?.center.x).toBeGreaterThan(client.x + 200);
    expect(ac?.center.x).toBeLessThan(client.x + client.width);
    expect(ac?.center.y).toBeGreaterThan(client.y + 30);
    expect(ac?.center.y).toBeLessThan(client.y + 90);
  });
});
