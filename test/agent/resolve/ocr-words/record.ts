/**
 * Records the real OCR words of the grounding bench's stored screenshots
 * (bench/data/grounding-gtk/<app>.png, 1920×1080 at scale 1, so image pixels are global
 * logical pixels) with the resolve chain's two passes (chain.ts OCR_PASSES: block then
 * sparse, both at 2×). ocr-stage.fast reads them: tesseract takes 4–14 s a pass on this
 * machine (measured at load ~17), too slow to run once per mutant.
 *   npx tsx test/agent/resolve/ocr-words/record.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readText, terminateOcr } from '../../../../src/os-control/ocr/index.js';

const APPS = ['gedit', 'mousepad', 'gtk3-widget-factory', 'gnome-calculator'] as const;
const PASSES = [
  { layout: 'block', scale: 2 },
  { layout: 'sparse', scale: 2 },
] as const;
const engine = (JSON.parse(readFileSync('node_modules/tesseract.js/package.json', 'utf8')) as { version: string }).version;

for (const app of APPS) {
  const image = `bench/data/grounding-gtk/${app}.png`;
  const passes: Record<string, unknown> = {};
  for (const pass of PASSES) passes[pass.layout] = (await readText(readFileSync(image), { ...pass })).words;
  const file = path.join(import.meta.dirname, `${app}.json`);
  writeFileSync(file, `${JSON.stringify({ image, engine: `tesseract.js ${engine}`, passes }, null, 1)}\n`);
  console.log(file);
}
await terminateOcr();
