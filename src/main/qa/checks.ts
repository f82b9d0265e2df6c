import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Rect } from '../../shared/actions.js';
import type { DisplayInfo } from '../../shared/observation.js';
import { imageToGlobal } from '../../os-control/coords.js';
import { CONFIDENT, findText, normalizeText, readExact, readText } from '../../os-control/ocr/index.js';
import { assertNever } from '../../shared/assert-never.js';
import { sleep } from '../../shared/abort.js';
import type { Computer } from '../../os-control/types.js';
import type { AppSession } from './app-session.js';
import type { CaseState } from './case-state.js';
import type { Expectation, TestCase } from './plan-types.js';
import { checkElement } from './element-check.js';

export type { CheckResult, CheckStatus, RegionQuery, RegionTextSource } from './check-types.js';
import type { CheckResult, RegionQuery, RegionTextSource } from './check-types.js';
import { own } from '../../shared/own.js';

export interface CheckContext {
  computer: Computer;
  app: AppSession;
  state: CaseState;
  display: DisplayInfo;
  /** The plan's named regions, relative to the app window's client area. */
  regions: Record<string, Rect>;
  /** Where region captures are written. */
  outDir?: string;
  /**
   * Where region text is read, in order; the first source that can read the region
   * decides. Default: OCR only. An accessibility-tree source (exact text) belongs
   * before OCR when an app publishes its tree.
   */
  sources?: readonly RegionTextSource[];
  signal?: AbortSignal;
}

/** Collapse whitespace; OCR puts no meaning in runs of spaces. */
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Between the two captures: long enough for a caret blink or a repaint to show
 * (GTK's caret blinks every 600 ms: half of that), short next to a model turn.
 */
export const CAPTURE_GAP_MS = 300;

/** Words Tesseract scored at least this on (0–100) count as read; see CONFIDENT in read-exact.ts. */
const CONTAINS_CONFIDENT = CONFIDENT;

export const ocrSource: RegionTextSource = {
  name: 'ocr',
  async check({ expectation: e, captures, where, pixelRatio, signal }) {
    const [a, b] = captures;
    const once = (image: Buffer) => (wantsExact(e) ? ocrEquals(image, e.text, where, pixelRatio, signal) : ocrContains(image, e.text, where, pixelRatio, signal));
    const first = await once(a);
    if (a.equals(b)) return first;
    const second = await once(b);
    if (first.status === second.status && first.actual === second.actual) return first;
    return {
      status: 'inconclusive',
      actual: first.actual,
      detail: `${where} changed between two captures ${CAPTURE_GAP_MS} ms apart (OCR read "${first.actual}", then "${second.actual}"): not stable enough to judge`,
    };
  },
};

/** "equals" is read exactly; "contains" and screen text are found as a phrase. */
function wantsExact(e: RegionQuery['expectation']): boolean {
  // Stryker disable next-line ConditionalExpression: equivalent when false — only a region_text expectation has `match` (ExpectationSchema is strict), so a screen_text one goes on to `undefined === 'equals'`, false as well; the test narrows the type.
  if (e.kind !== 'region_text') return false;
  return e.match === 'equals';
}

async function ocrEquals(image: Buffer, expected: string, where: string, pixelRatio: number, signal?: AbortSignal) {
  const r = await readExact(image, expected, { pixelRatio, signal });
  switch (r.kind) {
    case 'match':
      return { status: 'pass' as const, actual: r.text, detail: `OCR of ${where} reads "${r.text}"` };
    case 'mismatch':
      return { status: 'fail' as const, actual: r.text, detail: `OCR of ${where} reads "${r.text}", expected "${expected}"` };
    case 'unsure':
      return { status: 'inconclusive' as const, actual: r.text, detail: `OCR of ${where} is inconclusive (reads "${r.text}", expected "${expected}"): ${r.reason}` };
    default:
      return assertNever(r);
  }
}

/** "contains": the phrase must be found as whole words (case-insensitive) by any OCR pass. */
async function ocrContains(image: Buffer, phrase: string, where: string, pixelRatio: number, signal?: AbortSignal) {
  const matches = await findText(image, phrase, { minScore: 0.999, pixelRatio, signal });
  const read = await readText(image, { layout: 'block', scale: 2, pixelRatio, signal });
  const text = squash(read.text);
  const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  if (matches.length > 0 || normalizeText(text).includes(normalizeText(phrase))) return { status: 'pass' as const, actual: text, detail: `OCR found "${phrase}" in ${where}` };
  const unsure = read.droppedWords + read.words.filter((w) => w.confidence < CONTAINS_CONFIDENT).length;
  if (unsure > 0) {
    return {
      status: 'inconclusive' as const,
      actual: text,
      detail: `OCR did not find "${phrase}" in ${where}, but ${unsure} word(s) there were read with low confidence; it reads "${shown}"`,
    };
  }
  return { status: 'fail' as const, actual: text, detail: `OCR did not find "${phrase}" in ${where}; it reads "${shown}"` };
}

export async function runChecks(testCase: TestCase, ctx: CheckContext): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const expectation of testCase.expectations) {
    const number = testCase.expected.indexOf(expectation.source) + 1;
    try {
      results.push(await runCheck(expectation, number, ctx));
    } catch (error) {
      // DeskPilot could not look (a region off screen, a capture error): that is no
      // evidence against the app, so it cannot fail the case.
      results.push({
        expectation: number,
        source: expectation.source,
        status: 'inconclusive',
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
    return { ...base, status: passed ? 'pass' : 'fail', actual: title, detail: `window title is "${title}"` };
  }
  if (e.kind === 'element') return { ...base, ...(await checkElement(e, ctx.computer)) };

  const pointed = pointedRegion(number, ctx);
  const region = e.kind === 'region_text' ? await namedRegion(e.region, ctx) : pointed ?? displayRect(ctx.display);
  const capture = async () => (await ctx.computer.observe({ displayId: ctx.display.id, target: { format: 'png' }, region, signal: ctx.signal })).image;
  const first = await capture();
  await sleep(CAPTURE_GAP_MS, ctx.signal);
  const second = await capture();
  const image = await saveCapture(first, number, ctx.outDir);
  const where = e.kind === 'region_text' ? `region "${e.region}"` : pointed ? 'the region the agent pointed at' : 'the screen';
  const query: RegionQuery = { expectation: e, region, captures: [first, second], where, pixelRatio: ctx.display.scaleFactor, signal: ctx.signal };
  for (const source of ctx.sources ?? [ocrSource]) {
    const result = await source.check(query);
    if (result) return { ...base, ...result, ...(image ? { image } : {}) };
  }
  return { ...base, status: 'inconclusive', actual: '', detail: `no source could read ${where}`, ...(image ? { image } : {}) };
}

async function namedRegion(name: string, ctx: CheckContext): Promise<Rect> {
  const r = own(ctx.regions, name);
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
