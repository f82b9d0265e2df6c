import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Rect } from '../../../shared/actions.js';
import type { DisplayInfo } from '../../../shared/observation.js';
import { imageToGlobal } from '../../../os-control/coords.js';
import { findText, normalizeText, readText, type OcrLayout } from '../../../os-control/ocr/index.js';
import type { Computer } from '../../../os-control/types.js';
import type { AppSession } from './app-session.js';
import type { CaseState } from './case-state.js';
import type { Expectation, TestCase } from './plan-types.js';

/** The outcome of one exact expectation, checked by DeskPilot itself. */
export interface CheckResult {
  /** 1-based number of the expectation in the case's Expected list. */
  expectation: number;
  source: string;
  passed: boolean;
  /** What was found: the OCR text or the window title. */
  actual: string;
  /** One sentence for the report. */
  detail: string;
  /** The captured region, when one was read (absolute path). */
  image?: string;
}

export interface CheckContext {
  computer: Computer;
  app: AppSession;
  state: CaseState;
  display: DisplayInfo;
  /** The plan's named regions, relative to the app window's client area. */
  regions: Record<string, Rect>;
  /** Where region captures are written. */
  outDir?: string;
  signal?: AbortSignal;
}

/** Equality passes tried until one reads the expected text: one line first, then a block. */
const EQUALS_LAYOUTS: Array<{ layout: OcrLayout; scale: number }> = [
  { layout: 'line', scale: 3 },
  { layout: 'block', scale: 3 },
  { layout: 'line', scale: 2 },
];

/** Collapse whitespace; OCR puts no meaning in runs of spaces. */
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

export async function runChecks(testCase: TestCase, ctx: CheckContext): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const expectation of testCase.expectations) {
    const number = testCase.expected.indexOf(expectation.source) + 1;
    try {
      results.push(await runCheck(expectation, number, ctx));
    } catch (error) {
      results.push({
        expectation: number,
        source: expectation.source,
        passed: false,
        actual: '',
        detail: `could not check "${expectation.source}": ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  return results;
}

async function runCheck(e: Expectation, number: number, ctx: CheckContext): Promise<CheckResult> {
  const base = { expectation: number, source: e.source };
  if (e.kind === 'title') {
    const title = await ctx.app.title();
    const passed = e.match === 'equals' ? title === e.text : title.includes(e.text);
    return { ...base, passed, actual: title, detail: `window title is "${title}"` };
  }

  const region = e.kind === 'region_text' ? await namedRegion(e.region, ctx) : pointedRegion(number, ctx) ?? displayRect(ctx.display);
  const shot = await ctx.computer.observe({ displayId: ctx.display.id, target: { format: 'png' }, region, signal: ctx.signal });
  const image = await saveCapture(shot.image, number, ctx.outDir);
  const where = e.kind === 'region_text' ? `region "${e.region}"` : pointedRegion(number, ctx) ? 'the region the agent pointed at' : 'the screen';
  const pixelRatio = ctx.display.scaleFactor;

  if (e.kind === 'region_text' && e.match === 'equals') {
    let first: string | undefined;
    for (const pass of EQUALS_LAYOUTS) {
      const text = squash((await readText(shot.image, { ...pass, pixelRatio, signal: ctx.signal })).text);
      first ??= text;
      if (text === squash(e.text)) return { ...base, passed: true, actual: text, detail: `OCR of ${where} reads "${text}"`, ...(image ? { image } : {}) };
    }
    return { ...base, passed: false, actual: first ?? '', detail: `OCR of ${where} reads "${first ?? ''}", expected "${e.text}"`, ...(image ? { image } : {}) };
  }

  // "contains": the phrase must be found as whole words (case-insensitive) by any OCR pass.
  const matches = await findText(shot.image, e.text, { minScore: 0.999, pixelRatio, signal: ctx.signal });
  const read = squash((await readText(shot.image, { layout: 'block', scale: 2, pixelRatio, signal: ctx.signal })).text);
  const passed = matches.length > 0 || normalizeText(read).includes(normalizeText(e.text));
  const shown = read.length > 200 ? `${read.slice(0, 200)}…` : read;
  return {
    ...base,
    passed,
    actual: read,
    detail: passed ? `OCR found "${e.text}" in ${where}` : `OCR did not find "${e.text}" in ${where}; it reads "${shown}"`,
    ...(image ? { image } : {}),
  };
}

async function namedRegion(name: string, ctx: CheckContext): Promise<Rect> {
  const r = ctx.regions[name];
  if (!r) throw new Error(`region "${name}" is not declared`);
  const client = await ctx.app.clientRect();
  return { x: client.x + r.x, y: client.y + r.y, width: r.width, height: r.height };
}

/** The region the model gave for this expectation, mapped from its screenshot's pixels to the desktop. */
function pointedRegion(number: number, ctx: CheckContext): Rect | undefined {
  const pointed = ctx.state.verdict?.regions.get(number);
  const seen = pointed ? ctx.state.observations.get(pointed.observationId) : undefined;
  if (!pointed || !seen) return undefined;
  const { record } = seen;
  const clamp = (p: { x: number; y: number }) => ({
    x: Math.max(0, Math.min(p.x, record.image.width - 1)),
    y: Math.max(0, Math.min(p.y, record.image.height - 1)),
  });
  const a = imageToGlobal(clamp({ x: pointed.region.x, y: pointed.region.y }), record);
  const b = imageToGlobal(clamp({ x: pointed.region.x + pointed.region.width, y: pointed.region.y + pointed.region.height }), record);
  return { x: a.x, y: a.y, width: Math.max(1, b.x - a.x), height: Math.max(1, b.y - a.y) };
}

function displayRect(display: DisplayInfo): Rect {
  return { ...display.bounds };
}

async function saveCapture(image: Buffer, number: number, outDir: string | undefined): Promise<string | undefined> {
  if (!outDir) return undefined;
  await mkdir(outDir, { recursive: true });
  const file = path.join(outDir, `check-${number}.png`);
  await writeFile(file, image);
  return file;
}
