/**
 * Checks by structure without a display: "Expect element …" lines parse (and bad ones
 * are refused with the reason), are judged against a recorded tree, region checks read
 * the tree before OCR, and find_element answers in the latest screenshot's pixels.
 */
import { describe, expect, it } from 'vitest';
import { parseExpectation, parsePlan } from '../../src/main/qa/parse-plan.js';
import { judgeElement, stateHolds, textsInRegion, treeSource } from '../../src/main/qa/element-check.js';
import { ocrSource, runChecks, type RegionTextSource } from '../../src/main/qa/checks.js';
import { createFindElementTool } from '../../src/main/agent/tools/find-element.js';
import { CaseState } from '../../src/main/qa/case-state.js';
import type { AppSession } from '../../src/main/qa/app-session.js';
import type { ElementNode, ElementTree, ElementWindow } from '../../src/shared/elements.js';
import { createFakeComputer } from '../harness/fake-computer.js';
import type { ModelCall } from '../../src/main/agent/transcript.js';

const el = (path: string, role: string, name: string, extra: Partial<ElementNode> = {}): ElementNode => ({
  path,
  role,
  name,
  states: ['enabled', 'visible'],
  actions: [],
  children: [],
  ...extra,
});

/** A calculator window as gnome-calculator publishes it (recorded, trimmed). */
const CALC: ElementWindow = {
  app: 'gnome-calculator',
  pid: 4242,
  root: el('application "gnome-calculator" > frame "Calculator"', 'frame', 'Calculator', {
    states: ['enabled', 'active', 'visible'],
    bounds: { x: 5, y: 308, width: 355, height: 487 },
    children: [
      el('… > text "GtkSourceView"', 'text', 'GtkSourceView', { value: '111111111', states: ['focused', 'enabled', 'editable', 'visible'], bounds: { x: 5, y: 475, width: 343, height: 32 } }),
      el('… > push button "="', 'push button', '= =', { bounds: { x: 289, y: 693, width: 55, height: 88 }, actions: ['Click'] }),
      el('… > push button "Undo"', 'push button', 'Undo', { states: ['visible'], bounds: { x: 20, y: 319, width: 63, height: 24 } }),
      el('… > password text "PIN"', 'password text', 'PIN', { states: ['enabled', 'password', 'visible'], bounds: { x: 5, y: 520, width: 100, height: 20 } }),
    ],
  }),
};
const TREE: ElementTree = { kind: 'tree', source: 'fake', scope: 'focused', windows: [CALC], nodeCount: 5, truncated: false };

const expectation = (line: string) => {
  const e = parseExpectation(line, 1, {});
  if (typeof e !== 'object' || e.kind !== 'element') throw new Error(`not an element expectation: ${String(e)}`);
  return e;
};

describe('Expect element lines', () => {
  it('parse role, optional quoted name, property, contains', () => {
    expect(expectation('Expect element push button "Save" state: disabled')).toMatchObject({ role: 'push button', name: 'Save', property: 'state', match: 'equals', text: 'disabled' });
    expect(expectation('Expect element text value: 5')).toMatchObject({ role: 'text', property: 'value', text: '5' });
    expect(expectation('Expect element text value: 5')).not.toHaveProperty('name');
    expect(expectation('Expect element label "A \\"quoted\\" name" name contains: quoted')).toMatchObject({ name: 'A "quoted" name', property: 'name', match: 'contains' });
    expect(expectation('Expect element check box "Wrap" state: not checked')).toMatchObject({ text: 'not checked' });
  });

  it.each([
    ['Expect element push button "Save" state: purple', 'unknown state "purple"'],
    ['Expect element push button "Save" exists: maybe', 'exists: takes yes or no'],
    ['Expect element "Save" state: disabled', 'the element is a role'],
    ['Expect element push button', 'an element expectation looks like'],
  ])('%j is refused: %s', (line, message) => {
    expect(parseExpectation(line, 1, {})).toContain(message);
  });

  it('a plan with one is valid, and "element" cannot be a region name', () => {
    const plan = parsePlan('# T\n\n## App\n- Launch: `x`\n\n## Case: c\nSteps:\n1. do\nExpected:\n- Expect element text value: 5\n');
    expect(plan.cases[0]!.expectations[0]).toMatchObject({ kind: 'element', role: 'text' });
    expect(() => parsePlan('# T\n\n## App\n- Launch: `x`\n- Region element: 1, 1, 10, 10\n\n## Case: c\nSteps:\n1. do\nExpected:\n- ok\n')).toThrow(/"element" cannot be a region name/);
  });

  it('are judged against the tree: values exactly, states, names, existence', () => {
    expect(judgeElement(expectation('Expect element text value: 111111111'), TREE).status).toBe('pass');
    const wrong = judgeElement(expectation('Expect element text value: 111111112'), TREE);
    expect(wrong).toMatchObject({ status: 'fail', actual: '111111111' });
    expect(wrong.detail).toContain('expected "111111112"');
    expect(judgeElement(expectation('Expect element push button "Undo" state: disabled'), TREE).status).toBe('pass');
    expect(judgeElement(expectation('Expect element push button "Undo" state: enabled'), TREE).status).toBe('fail');
    expect(judgeElement(expectation('Expect element push button "= =" state: not focused'), TREE).status).toBe('pass');
    expect(judgeElement(expectation('Expect element push button "Delete" exists: no'), TREE).status).toBe('pass');
    expect(judgeElement(expectation('Expect element push button "Delete" exists: yes'), TREE).status).toBe('fail');
    expect(judgeElement(expectation('Expect element frame name contains: calc'), TREE).status).toBe('pass');
    const pin = judgeElement(expectation('Expect element password text "PIN" value: 1234'), TREE);
    expect(pin).toMatchObject({ status: 'fail', actual: '' });
    expect(pin.detail).toContain('never read');
    expect(stateHolds(['enabled'], 'not disabled')).toBe(true);
  });

  it('region text comes from the elements whose centre is in the region', () => {
    expect(textsInRegion(TREE, { x: 0, y: 470, width: 360, height: 40 })).toEqual(['111111111']);
    expect(textsInRegion(TREE, { x: 0, y: 0, width: 10, height: 10 })).toEqual([]);
  });
});

describe('region checks read the tree before OCR', () => {
  /** An OCR that misreads the display, as a bitmap font makes it (xcalc: "5" read as "9)"). */
  const misreadingOcr: RegionTextSource = { name: 'ocr', check: async () => ({ status: 'fail', actual: '11111111l', detail: 'OCR misread' }) };
  const plan = parsePlan('# T\n\n## App\n- Launch: `x`\n- Region display: 0, 162, 360, 40\n\n## Case: c\nSteps:\n1. do\nExpected:\n- Expect display: 111111111\n- Expect element text value: 111111111\n');
  const app: AppSession = {
    windowId: '1',
    pid: 4242,
    clientRect: async () => ({ x: 0, y: 308, width: 360, height: 490 }),
    title: async () => 'Calculator',
    activate: async () => undefined,
    alive: () => true,
    stop: async () => undefined,
  };

  it('the tree decides when the app exposes one: exact, and OCR is never asked', async () => {
    const computer = createFakeComputer();
    computer.elements = [CALC];
    const display = (await computer.listDisplays())[0]!;
    let ocrAsked = 0;
    const counting: RegionTextSource = { name: 'ocr', check: async (q) => (ocrAsked++, misreadingOcr.check(q)) };
    const results = await runChecks(plan.cases[0]!, { computer, app, state: new CaseState(), display, regions: plan.app.regions, sources: [treeSource(computer), counting] });
    expect(results.map((r) => r.status)).toEqual(['pass', 'pass']);
    expect(results[0]!.detail).toContain('accessibility tree shows "111111111"');
    expect(ocrAsked).toBe(0);
  });

  it('OCR reads the region only when the app exposes nothing (xcalc)', async () => {
    const computer = createFakeComputer();
    computer.elements = undefined;
    const display = (await computer.listDisplays())[0]!;
    const results = await runChecks(plan.cases[0]!, { computer, app, state: new CaseState(), display, regions: plan.app.regions, sources: [treeSource(computer), misreadingOcr] });
    expect(results[0]).toMatchObject({ status: 'fail', detail: 'OCR misread' });
    expect(results[1]!.status).toBe('inconclusive');
    expect(results[1]!.detail).toContain('no accessibility tree');
    expect(ocrSource.name).toBe('ocr');
  });
});

describe('find_element', () => {
  it('answers with centres in the latest screenshot\'s pixels, values and states', async () => {
    const computer = createFakeComputer();
    computer.elements = [CALC];
    // A screenshot sent at half size: desktop (316.5, 737) → image (158, 368).
    const obs = await computer.observe({ target: { format: 'jpeg', exact: { width: 640, height: 400 } } });
    const state = new CaseState();
    state.observations.set(obs.record.id, { record: obs.record } as never);
    const tool = createFindElementTool(computer, state);
    const call = { callId: 'c1', name: 'find_element', input: {}, actions: [] } as unknown as ModelCall;
    const answer = await tool.handle({ role: 'push button', name: '=' }, { runId: 'r', step: 1, signal: new AbortController().signal, latestObservationId: obs.record.id, call });
    expect(answer.text).toContain('push button "= =" at x=158, y=368');
    const text = await tool.handle({ name: 'gtksource' }, { runId: 'r', step: 1, signal: new AbortController().signal, latestObservationId: obs.record.id, call });
    expect(text.text).toContain('value="111111111"');
    expect(tool.input.safeParse({}).success).toBe(false);
    computer.elements = undefined;
    const none = await tool.handle({ name: 'x' }, { runId: 'r', step: 1, signal: new AbortController().signal, latestObservationId: obs.record.id, call });
    expect(none.text).toContain('use find_text instead');
  });
});
