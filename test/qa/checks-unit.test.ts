/**
 * checks.ts without a display or Tesseract: the OCR calls, the pause between the two
 * captures and the element check are stand-ins that record what they were asked, so
 * each test asserts what a check read, where, and what it concluded.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Rect } from '../../src/shared/actions.js';
import type { DisplayInfo, ObservationRecord } from '../../src/shared/observation.js';
import type { Computer, ObserveOptions } from '../../src/os-control/types.js';
import type { OcrResult, OcrWord } from '../../src/os-control/ocr/types.js';
import type { AppSession } from '../../src/main/qa/app-session.js';
import type { Expectation, TestCase } from '../../src/main/qa/plan-types.js';

const ocr = vi.hoisted(() => ({ readExact: vi.fn(), findText: vi.fn(), readText: vi.fn() }));
const pause = vi.hoisted(() => ({ sleep: vi.fn(), order: [] as string[] }));
const element = vi.hoisted(() => ({ checkElement: vi.fn() }));

vi.mock('../../src/os-control/ocr/index.js', async (importOriginal) => ({ ...(await importOriginal<object>()), ...ocr }));
vi.mock('../../src/shared/abort.js', async (importOriginal) => ({ ...(await importOriginal<object>()), sleep: pause.sleep }));
vi.mock('../../src/main/qa/element-check.js', async (importOriginal) => ({ ...(await importOriginal<object>()), checkElement: element.checkElement }));

const { CAPTURE_GAP_MS, ocrSource, runChecks } = await import('../../src/main/qa/checks.js');
const { CaseState } = await import('../../src/main/qa/case-state.js');
type CheckContext = import('../../src/main/qa/checks.js').CheckContext;
type RegionQuery = import('../../src/main/qa/checks.js').RegionQuery;
type RegionTextSource = import('../../src/main/qa/checks.js').RegionTextSource;

const A = Buffer.from('capture A');
const B = Buffer.from('capture B');
const signal = new AbortController().signal;

const word = (text: string, confidence: number): OcrWord => ({ text, confidence, bbox: { x: 0, y: 0, width: 1, height: 1 }, line: 0 });
const reading = (text: string, words: OcrWord[] = [], droppedWords = 0): OcrResult => ({ text, words, droppedWords });

const regionText = (text: string, match: 'equals' | 'contains'): RegionQuery['expectation'] => ({ kind: 'region_text', region: 'display', match, text, line: 3, source: `Expect display: ${text}` });
const query = (expectation: RegionQuery['expectation'], captures: [Buffer, Buffer] = [A, A]): RegionQuery => ({
  expectation,
  region: { x: 1, y: 2, width: 3, height: 4 },
  captures,
  where: 'region "display"',
  pixelRatio: 2,
  signal,
});

beforeEach(() => {
  ocr.readExact.mockReset();
  ocr.findText.mockReset();
  ocr.readText.mockReset();
  element.checkElement.mockReset();
  pause.order.length = 0;
  pause.sleep.mockReset();
  pause.sleep.mockImplementation(async () => {
    pause.order.push('sleep');
  });
});

describe('ocrSource: "equals" reads exactly', () => {
  it('a match passes, read once when both captures are the same, with the pixel ratio and signal', async () => {
    ocr.readExact.mockResolvedValue({ kind: 'match', text: '5', variant: 'v' });
    expect(await ocrSource.check(query(regionText('5', 'equals'), [A, Buffer.from(A)]))).toStrictEqual({ status: 'pass', actual: '5', detail: 'OCR of region "display" reads "5"' });
    expect(ocr.readExact.mock.calls).toStrictEqual([[A, '5', { pixelRatio: 2, signal }]]);
    expect(ocr.findText).not.toHaveBeenCalled();
    expect(ocr.readText).not.toHaveBeenCalled();
  });
  it('a mismatch fails, naming what was read and what was expected', async () => {
    ocr.readExact.mockResolvedValue({ kind: 'mismatch', text: '6' });
    expect(await ocrSource.check(query(regionText('5', 'equals')))).toStrictEqual({ status: 'fail', actual: '6', detail: 'OCR of region "display" reads "6", expected "5"' });
  });
  it('an unsure reading is inconclusive, with its reason', async () => {
    ocr.readExact.mockResolvedValue({ kind: 'unsure', text: '5)', reason: 'a misread' });
    expect(await ocrSource.check(query(regionText('5', 'equals')))).toStrictEqual({
      status: 'inconclusive',
      actual: '5)',
      detail: 'OCR of region "display" is inconclusive (reads "5)", expected "5"): a misread',
    });
  });
  it('a reading of a kind it does not know throws (runChecks makes that inconclusive, never a pass)', async () => {
    ocr.readExact.mockResolvedValue({ kind: 'odd', text: '5' });
    await expect(ocrSource.check(query(regionText('5', 'equals')))).rejects.toThrow('unhandled value');
  });
  it('"equals" is not "contains": a longer text holding the expected one is a mismatch', async () => {
    ocr.readExact.mockResolvedValue({ kind: 'mismatch', text: '15' });
    ocr.findText.mockResolvedValue([{ text: '5' }]);
    ocr.readText.mockResolvedValue(reading('15'));
    expect(await ocrSource.check(query(regionText('5', 'equals')))).toMatchObject({ status: 'fail' });
    expect(ocr.findText).not.toHaveBeenCalled();
  });
});

describe('ocrSource: two different captures', () => {
  it('the same reading twice is that reading (each capture read once)', async () => {
    ocr.readExact.mockResolvedValue({ kind: 'mismatch', text: '6' });
    expect(await ocrSource.check(query(regionText('5', 'equals'), [A, B]))).toStrictEqual({ status: 'fail', actual: '6', detail: 'OCR of region "display" reads "6", expected "5"' });
    expect(ocr.readExact.mock.calls.map((c) => c[0] as Buffer)).toStrictEqual([A, B]);
  });
  it('readings that differ in text are inconclusive, quoting both', async () => {
    ocr.readExact.mockResolvedValueOnce({ kind: 'mismatch', text: '6' }).mockResolvedValueOnce({ kind: 'mismatch', text: '7' });
    expect(await ocrSource.check(query(regionText('5', 'equals'), [A, B]))).toStrictEqual({
      status: 'inconclusive',
      actual: '6',
      detail: `region "display" changed between two captures ${CAPTURE_GAP_MS} ms apart (OCR read "6", then "7"): not stable enough to judge`,
    });
    expect(CAPTURE_GAP_MS).toBe(300);
  });
  it('readings of the same text with different statuses are inconclusive', async () => {
    ocr.readExact.mockResolvedValueOnce({ kind: 'match', text: '5', variant: 'v' }).mockResolvedValueOnce({ kind: 'unsure', text: '5', reason: 'r' });
    expect(await ocrSource.check(query(regionText('5', 'equals'), [A, B]))).toMatchObject({ status: 'inconclusive', actual: '5' });
  });
});

describe('ocrSource: "contains" finds a phrase', () => {
  it('a whole-word match passes; both OCR passes are asked with their options; the text is shown squashed', async () => {
    ocr.findText.mockResolvedValue([{ text: 'Saved' }]);
    ocr.readText.mockResolvedValue(reading('  File\n  Saved   ok \n'));
    expect(await ocrSource.check(query(regionText('Saved', 'contains')))).toStrictEqual({ status: 'pass', actual: 'File Saved ok', detail: 'OCR found "Saved" in region "display"' });
    expect(ocr.findText.mock.calls).toStrictEqual([[A, 'Saved', { minScore: 0.999, pixelRatio: 2, signal }]]);
    expect(ocr.readText.mock.calls).toStrictEqual([[A, { layout: 'block', scale: 2, pixelRatio: 2, signal }]]);
    expect(ocr.readExact).not.toHaveBeenCalled();
  });
  it('a findText match passes though the block text, as read, does not hold the phrase (OCR merged its words)', async () => {
    ocr.findText.mockResolvedValue([{ text: 'Saveas' }]);
    ocr.readText.mockResolvedValue(reading('File Saveas done'));
    expect(await ocrSource.check(query(regionText('Save as', 'contains')))).toStrictEqual({ status: 'pass', actual: 'File Saveas done', detail: 'OCR found "Save as" in region "display"' });
  });
  it('screen text is always "contains"', async () => {
    ocr.findText.mockResolvedValue([{ text: 'Saved' }]);
    ocr.readText.mockResolvedValue(reading('Saved'));
    const e: RegionQuery['expectation'] = { kind: 'screen_text', text: 'Saved', line: 1, source: 'Expect text: Saved' };
    expect(await ocrSource.check(query(e))).toMatchObject({ status: 'pass' });
    expect(ocr.readExact).not.toHaveBeenCalled();
  });
  it('the phrase in the block text passes though findText found no word match (case and spacing ignored)', async () => {
    ocr.findText.mockResolvedValue([]);
    ocr.readText.mockResolvedValue(reading('The FILE   was\nSAVED'));
    expect(await ocrSource.check(query(regionText('File Was saved', 'contains')))).toStrictEqual({ status: 'pass', actual: 'The FILE was SAVED', detail: 'OCR found "File Was saved" in region "display"' });
  });
  it('not found among confidently read words fails, quoting the text', async () => {
    ocr.findText.mockResolvedValue([]);
    ocr.readText.mockResolvedValue(reading('nothing here', [word('nothing', 70), word('here', 95)]));
    expect(await ocrSource.check(query(regionText('Saved', 'contains')))).toStrictEqual({
      status: 'fail',
      actual: 'nothing here',
      detail: 'OCR did not find "Saved" in region "display"; it reads "nothing here"',
    });
  });
  it('not found while words were read with low confidence or dropped is inconclusive, counting them', async () => {
    ocr.findText.mockResolvedValue([]);
    ocr.readText.mockResolvedValue(reading('nothing h3re', [word('nothing', 90), word('h3re', 69)], 2));
    expect(await ocrSource.check(query(regionText('Saved', 'contains')))).toStrictEqual({
      status: 'inconclusive',
      actual: 'nothing h3re',
      detail: 'OCR did not find "Saved" in region "display", but 3 word(s) there were read with low confidence; it reads "nothing h3re"',
    });
  });
  it('one dropped word alone is enough to be inconclusive', async () => {
    ocr.findText.mockResolvedValue([]);
    ocr.readText.mockResolvedValue(reading('', [], 1));
    expect(await ocrSource.check(query(regionText('Saved', 'contains')))).toMatchObject({ status: 'inconclusive', detail: expect.stringContaining('but 1 word(s)') as unknown as string });
  });
  it('shows at most 200 characters of the text read, and the whole of it as actual', async () => {
    const long = 'x'.repeat(201);
    ocr.findText.mockResolvedValue([]);
    ocr.readText.mockResolvedValue(reading(long));
    expect(await ocrSource.check(query(regionText('Saved', 'contains')))).toStrictEqual({ status: 'fail', actual: long, detail: `OCR did not find "Saved" in region "display"; it reads "${'x'.repeat(200)}…"` });
    ocr.readText.mockResolvedValue(reading('y'.repeat(200)));
    expect(await ocrSource.check(query(regionText('Saved', 'contains')))).toMatchObject({ detail: `OCR did not find "Saved" in region "display"; it reads "${'y'.repeat(200)}"` });
  });
});

// ---------------------------------------------------------------- runChecks

const DISPLAY: DisplayInfo = { id: 'd1', name: 'screen', bounds: { x: 0, y: 0, width: 800, height: 600 }, scaleFactor: 1.5, primary: true };
const CLIENT: Rect = { x: 100, y: 50, width: 400, height: 300 };

interface Recorder {
  computer: Computer;
  observed: ObserveOptions[];
}

/** A computer whose captures are numbered PNG stand-ins, recording what was asked. */
function recorder(): Recorder {
  const observed: ObserveOptions[] = [];
  const observe = async (options: ObserveOptions) => {
    observed.push(options);
    pause.order.push('observe');
    return { image: Buffer.from(`shot ${observed.length}`) };
  };
  return { computer: { observe } as unknown as Computer, observed };
}

const app = (title = 'Calculator — 5'): AppSession => ({ title: async () => title, clientRect: async () => CLIENT }) as unknown as AppSession;

const testCase = (expected: string[], expectations: Expectation[]): TestCase => ({
  name: 'c',
  line: 1,
  steps: ['do'],
  expected,
  expectations,
  limits: { timeoutMs: 1000, maxSteps: 10, retries: 0 },
});

function context(over: Partial<CheckContext> = {}): CheckContext & { observed: ObserveOptions[] } {
  const r = recorder();
  return { computer: r.computer, app: app(), state: new CaseState(), display: DISPLAY, regions: { display: { x: 10, y: 20, width: 30, height: 40 } }, signal, ...over, observed: r.observed };
}

/** A source that answers with `result` and records the query. */
function source(result: Awaited<ReturnType<RegionTextSource['check']>>, seen: RegionQuery[] = []): RegionTextSource {
  return {
    name: 'tree',
    check: async (q) => {
      seen.push(q);
      return result;
    },
  };
}

const title = (text: string, match: 'equals' | 'contains'): Expectation => ({ kind: 'title', match, text, line: 5, source: `Expect title: ${text}` });

describe('runChecks: title', () => {
  it('"equals" needs the whole title; the result is numbered by the expectation\'s place in Expected', async () => {
    const tc = testCase(['looks fine', 'Expect title: Calculator — 5', 'Expect title: Calculator'], [title('Calculator — 5', 'equals'), title('Calculator', 'equals')]);
    expect(await runChecks(tc, context())).toStrictEqual([
      { expectation: 2, source: 'Expect title: Calculator — 5', status: 'pass', actual: 'Calculator — 5', detail: 'window title is "Calculator — 5"' },
      { expectation: 3, source: 'Expect title: Calculator', status: 'fail', actual: 'Calculator — 5', detail: 'window title is "Calculator — 5"' },
    ]);
  });
  it('"contains" passes on part of the title and fails on text not in it', async () => {
    const tc = testCase(['Expect title: Calculator', 'Expect title: Editor'], [title('Calculator', 'contains'), title('Editor', 'contains')]);
    expect((await runChecks(tc, context())).map((r) => r.status)).toStrictEqual(['pass', 'fail']);
  });
});

describe('runChecks: a check that throws', () => {
  it('is inconclusive with the error, never passed, and the next check still runs', async () => {
    const broken = { ...app(), title: async () => Promise.reject(new Error('window gone')) } as unknown as AppSession;
    const e = title('Calculator', 'contains');
    const tc = testCase(['Expect title: Calculator'], [e, { ...e }]);
    let calls = 0;
    const flaky = {
      title: async () => {
        calls += 1;
        if (calls === 1) throw new Error('window gone');
        return 'Calculator';
      },
    } as unknown as AppSession;
    expect(await runChecks(tc, context({ app: flaky }))).toStrictEqual([
      { expectation: 1, source: 'Expect title: Calculator', status: 'inconclusive', actual: '', detail: 'could not check "Expect title: Calculator": window gone' },
      { expectation: 1, source: 'Expect title: Calculator', status: 'pass', actual: 'Calculator', detail: 'window title is "Calculator"' },
    ]);
    expect((await runChecks(testCase(['Expect title: Calculator'], [e]), context({ app: broken })))[0]?.status).toBe('inconclusive');
  });
  it('a thrown non-Error is shown as a string', async () => {
    const odd = { title: async () => Promise.reject('no bus') } as unknown as AppSession;
    const [r] = await runChecks(testCase(['Expect title: X'], [title('X', 'equals')]), context({ app: odd }));
    expect(r).toMatchObject({ status: 'inconclusive', detail: 'could not check "Expect title: X": no bus' });
  });
  it('an undeclared region is inconclusive, naming it, and nothing is captured', async () => {
    const ctx = context();
    const e: Expectation = { kind: 'region_text', region: 'nope', match: 'equals', text: '5', line: 1, source: 'Expect nope: 5' };
    expect(await runChecks(testCase(['Expect nope: 5'], [e]), ctx)).toStrictEqual([
      { expectation: 1, source: 'Expect nope: 5', status: 'inconclusive', actual: '', detail: 'could not check "Expect nope: 5": region "nope" is not declared' },
    ]);
    expect(ctx.observed).toStrictEqual([]);
  });
});

describe('runChecks: element', () => {
  it('is judged by checkElement against the computer, numbered and sourced', async () => {
    element.checkElement.mockResolvedValue({ status: 'fail', actual: '6', detail: 'value is "6"' });
    const e: Expectation = { kind: 'element', role: 'text', property: 'value', match: 'equals', text: '5', line: 2, source: 'Expect element text value: 5' };
    const ctx = context();
    expect(await runChecks(testCase(['x', 'Expect element text value: 5'], [e]), ctx)).toStrictEqual([
      { expectation: 2, source: 'Expect element text value: 5', status: 'fail', actual: '6', detail: 'value is "6"' },
    ]);
    expect(element.checkElement).toHaveBeenCalledWith(e, ctx.computer);
    expect(ctx.observed).toStrictEqual([]);
  });
});

describe('runChecks: region text', () => {
  const e: Expectation = { kind: 'region_text', region: 'display', match: 'equals', text: '5', line: 4, source: 'Expect display: 5' };

  it('captures the named region (relative to the client area) twice, CAPTURE_GAP_MS apart, and gives the first source that can read it both captures', async () => {
    const seen: RegionQuery[] = [];
    const ctx = context({ sources: [source(undefined), source({ status: 'pass', actual: '5', detail: 'tree says 5' }, seen), source({ status: 'fail', actual: '6', detail: 'never asked' })] });
    expect(await runChecks(testCase(['Expect display: 5'], [e]), ctx)).toStrictEqual([{ expectation: 1, source: 'Expect display: 5', status: 'pass', actual: '5', detail: 'tree says 5' }]);
    const region = { x: 110, y: 70, width: 30, height: 40 };
    expect(ctx.observed).toStrictEqual([
      { displayId: 'd1', target: { format: 'png' }, region, signal },
      { displayId: 'd1', target: { format: 'png' }, region, signal },
    ]);
    expect(pause.order).toStrictEqual(['observe', 'sleep', 'observe']);
    expect(pause.sleep).toHaveBeenCalledWith(300, signal);
    expect(seen).toStrictEqual([{ expectation: e, region, captures: [Buffer.from('shot 1'), Buffer.from('shot 2')], where: 'region "display"', pixelRatio: 1.5, signal }]);
  });
  it('no source that can read it: inconclusive, saying where', async () => {
    const ctx = context({ sources: [source(undefined)] });
    expect(await runChecks(testCase(['Expect display: 5'], [e]), ctx)).toStrictEqual([{ expectation: 1, source: 'Expect display: 5', status: 'inconclusive', actual: '', detail: 'no source could read region "display"' }]);
  });
  it('with no sources given, OCR reads it', async () => {
    ocr.readExact.mockResolvedValue({ kind: 'mismatch', text: '6' });
    const [r] = await runChecks(testCase(['Expect display: 5'], [e]), context());
    expect(r).toStrictEqual({ expectation: 1, source: 'Expect display: 5', status: 'fail', actual: '6', detail: 'OCR of region "display" reads "6", expected "5"' });
    expect(ocr.readExact.mock.calls).toStrictEqual([
      [Buffer.from('shot 1'), '5', { pixelRatio: 1.5, signal }],
      [Buffer.from('shot 2'), '5', { pixelRatio: 1.5, signal }],
    ]);
  });

  describe('with an output folder', () => {
    let dir = '';
    beforeEach(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'checks-unit-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });
    it('writes the first capture as check-<n>.png (creating the folder) and names it in the result', async () => {
      const out = path.join(dir, 'nested', 'out');
      const [r] = await runChecks(testCase(['a', 'Expect display: 5'], [e]), context({ outDir: out, sources: [source({ status: 'pass', actual: '5', detail: 'd' })] }));
      const file = path.join(out, 'check-2.png');
      expect(r).toStrictEqual({ expectation: 2, source: 'Expect display: 5', status: 'pass', actual: '5', detail: 'd', image: file });
      expect(await readFile(file, 'utf8')).toBe('shot 1');
    });
    it('names the capture when no source could read it too', async () => {
      const [r] = await runChecks(testCase(['Expect display: 5'], [e]), context({ outDir: dir, sources: [source(undefined)] }));
      expect(r).toStrictEqual({ expectation: 1, source: 'Expect display: 5', status: 'inconclusive', actual: '', detail: 'no source could read region "display"', image: path.join(dir, 'check-1.png') });
    });
  });
});

describe('runChecks: screen text', () => {
  const e: Expectation = { kind: 'screen_text', text: 'Saved', line: 4, source: 'Expect text: Saved' };
  const record = (over: Partial<ObservationRecord> = {}): ObservationRecord => ({
    id: 'obs-1',
    takenAt: 0,
    display: DISPLAY,
    capture: { width: 200, height: 100 },
    region: { x: 300, y: 400, width: 200, height: 100 },
    image: { width: 200, height: 100, format: 'png' },
    ...over,
  });
  const pointedAt = (region: Rect, observationId = 'obs-1', number = 1) => {
    const state = new CaseState();
    state.onEvent({ type: 'observation', seq: 1, observation: record(), image: 'a.png' } as never);
    state.verdict = { verdict: 'pass', reason: 'r', evidence: [], regions: new Map([[number, { region, observationId }]]) };
    return state;
  };
  const asked = async (state: InstanceType<typeof CaseState>) => {
    const seen: RegionQuery[] = [];
    const [r] = await runChecks(testCase(['Expect text: Saved'], [e]), context({ state, sources: [source({ status: 'pass', actual: 'Saved', detail: 'd' }, seen)] }));
    expect(r?.status).toBe('pass');
    return { region: seen[0]!.region, where: seen[0]!.where };
  };

  it('with nothing pointed at, reads the whole display', async () => {
    expect(await asked(new CaseState())).toStrictEqual({ region: { x: 0, y: 0, width: 800, height: 600 }, where: 'the screen' });
  });
  it('reads the region the model pointed at, mapped from its screenshot to the desktop', async () => {
    expect(await asked(pointedAt({ x: 10, y: 20, width: 50, height: 30 }))).toStrictEqual({ region: { x: 310, y: 420, width: 50, height: 30 }, where: 'the region the agent pointed at' });
  });
  it('a pointed region reaching past the screenshot is clamped to its last pixel, and one starting before it to 0', async () => {
    expect((await asked(pointedAt({ x: -5, y: -7, width: 500, height: 400 }))).region).toStrictEqual({ x: 300, y: 400, width: 199, height: 99 });
  });
  it('a pointed region of no size is one point wide and high', async () => {
    expect((await asked(pointedAt({ x: 10, y: 20, width: 0, height: 0 }))).region).toStrictEqual({ x: 310, y: 420, width: 1, height: 1 });
  });
  it('a region pointed at in a screenshot it does not know, or for another expectation, reads the screen', async () => {
    expect(await asked(pointedAt({ x: 10, y: 20, width: 50, height: 30 }, 'obs-unknown'))).toStrictEqual({ region: DISPLAY.bounds, where: 'the screen' });
    expect(await asked(pointedAt({ x: 10, y: 20, width: 50, height: 30 }, 'obs-1', 2))).toStrictEqual({ region: DISPLAY.bounds, where: 'the screen' });
  });
  it('the screen region is a copy: a source cannot change the display through it', async () => {
    const display = { ...DISPLAY, bounds: { ...DISPLAY.bounds } };
    const changer: RegionTextSource = {
      name: 'ocr',
      check: async (q) => {
        q.region.x = 99;
        return undefined;
      },
    };
    await runChecks(testCase(['Expect text: Saved'], [e]), context({ display, sources: [changer] }));
    expect(display.bounds.x).toBe(0);
  });
});
