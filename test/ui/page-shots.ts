import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { REPO_ROOT } from '../e2e/support.js';
import { contrastFailures } from './contrast.js';
import { artifactsDir } from './serve-harness.js';

/**
 * Screens of the cockpit in Chromium, kept as the docs' pictures: `shoot(page, name)`
 * writes test-artifacts/<name>.png and docs/screenshots/<name>.png, and adds every text
 * below WCAG AA on it to `lowContrast` (the file's contrast test expects it empty).
 */
export function screenShooter(lowContrast: string[]): (page: Page, name: string) => Promise<void> {
  const docShots = path.join(REPO_ROOT, 'docs', 'screenshots');
  return async (page, name) => {
    const file = path.join(artifactsDir(), `${name}.png`);
    await page.screenshot({ path: file });
    copyFileSync(file, path.join(docShots, `${name}.png`));
    for (const f of await contrastFailures(page)) lowContrast.push(`${name}: "${f.text}" ${f.ratio}:1 < ${f.needed} ${f.selector}`);
  };
}

/** Whether the first element `selector` finds is laid out and wholly inside the window. */
export const inView = (page: Page, selector: string): Promise<boolean> =>
  page.locator(selector).first().evaluate((el) => {
    const b = el.getBoundingClientRect();
    return b.height > 0 && b.top >= 0 && b.bottom <= window.innerHeight && b.left >= 0 && b.right <= window.innerWidth;
  });

/** The file name's size and scheme tag: 900x700, 900x700-dark. */
export const shotTag = (size: { width: number; height: number }, scheme: 'light' | 'dark'): string =>
  `${size.width}x${size.height}${scheme === 'dark' ? '-dark' : ''}`;

type Rgb = [number, number, number];

/** The colour drawn 8 px inside the top-right corner of the first element `selector` finds, read from a screenshot (what is painted, not what CSS says). */
export async function pixelIn(page: Page, selector: string): Promise<Rgb> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not laid out`);
  const x = Math.floor(box.x + box.width - 8);
  const y = Math.floor(box.y + 8);
  const { data } = await sharp(await page.screenshot({ clip: { x, y, width: 1, height: 1 } })).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return [data[0]!, data[1]!, data[2]!];
}

/** WCAG 2.x relative luminance of an sRGB colour. */
function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The window sizes the cockpit is checked at (issue 34): a laptop and a small window. */
export const COCKPIT_SIZES = [
  { width: 1440, height: 900 },
  { width: 900, height: 700 },
] as const;
