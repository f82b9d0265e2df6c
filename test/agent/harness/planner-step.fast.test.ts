import { describe, expect, it } from 'vitest';
import type { Point } from '../../../src/shared/actions.js';
import type { ObservationRecord } from '../../../src/shared/observation.js';
import { actionsFor, DEFAULT_SCROLL, NAMED_CANDIDATES, readResolution, targetsOf } from '../../../src/main/agent/harness/planner/step.js';
import { planAct, type PlannerResolver } from '../../../src/main/agent/harness/planner/run-act.js';
import { readActInput, type ActInput } from '../../../src/main/agent/harness/planner/wire.js';
import type { Candidate, Resolution } from '../../../src/main/agent/resolve/types.js';
import { DescriptionError, GrounderError } from '../../../src/main/agent/resolve/types.js';
import { ProviderRequestError, ProviderTimeoutError, ProviderUnavailableError } from '../../../src/main/agent/providers/types.js';
import { resolvedTargetLine, type ResolvedTarget } from '../../../src/shared/resolved-target.js';

/**
 * The resolution decision (issue 33 item 1): what a resolution means for the planner's step
 * and the actions a resolved act makes — exact values, so a changed word, number or branch
 * fails here (mutation-tested with step.ts, run-act.ts and wire.ts).
 */
const act = (input: Record<string, unknown>): ActInput => {
  const read = readActInput(input);
  if (!read.ok) throw new Error(read.error);
  return read.act;
};
const half = (p: Point): Point => ({ x: p.x / 2, y: p.y / 2 });
const cand = (x: number, label: string, confidence = 1, stage: Candidate['stage'] = 'tree'): Candidate => ({ point: { x, y: 40 }, stage, confidence, label });
const target = (description: string, x: number): ResolvedTarget => ({ description, stage: 'tree', confidence: 1, label: `push button "${description}"`, point: { x, y: 20 } });

describe('targetsOf', () => {
  it('names what each action needs found, in order', () => {
    expect(targetsOf(act({ action: 'click', target: 'OK' }))).toEqual(['OK']);
    expect(targetsOf(act({ action: 'double_click', target: 'a' }))).toEqual(['a']);
    expect(targetsOf(act({ action: 'right_click', target: 'b' }))).toEqual(['b']);
    expect(targetsOf(act({ action: 'type_into', target: 'Name', text: 'x' }))).toEqual(['Name']);
    expect(targetsOf(act({ action: 'scroll', target: 'list', direction: 'down' }))).toEqual(['list']);
    expect(targetsOf(act({ action: 'drag', target: 'from', to: 'to' }))).toEqual(['from', 'to']);
    for (const input of [{ action: 'type', text: 'x' }, { action: 'key', keys: 'a' }, { action: 'wait', seconds: 1 }, { action: 'done' }, { action: 'fail' }]) {
      expect(targetsOf(act(input))).toEqual([]);
    }
  });
});

describe('readResolution', () => {
  it('found: the point in the screenshot\'s pixels, with its stage, confidence and label', () => {
    const found: Resolution = { kind: 'found', description: 'the 7 button', point: { x: 100, y: 60 }, stage: 'ocr', confidence: 0.8, label: 'words "7"', candidates: [], notes: [] };
    expect(readResolution(found, half)).toEqual({ ok: true, target: { description: 'the 7 button', stage: 'ocr', confidence: 0.8, label: 'words "7"', point: { x: 50, y: 30 } } });
    expect(readResolution(found, () => undefined)).toEqual({ ok: false, text: '"the 7 button" was found (words "7") outside the screenshot you were sent; nothing was done.' });
  });

  it('ambiguous: every candidate (at most five) with its place, stage and confidence, and how to say which', () => {
    const candidates = [cand(10, 'push button "OK"'), cand(30, 'push button "OK"', 0.98, 'ocr'), cand(50, 'c'), cand(70, 'd'), cand(90, 'e'), cand(110, 'f')];
    const r = readResolution({ kind: 'ambiguous', description: 'OK', candidates, notes: [] }, (p) => (p.x > 100 ? undefined : half(p)));
    expect(r).toEqual({
      ok: false,
      text:
        '"OK" matches 6 places equally well: push button "OK" at (5, 20) [tree 1.00]; push button "OK" at (15, 20) [ocr 0.98]; c at (25, 20) [tree 1.00]; d at (35, 20) [tree 1.00]; e at (45, 20) [tree 1.00]. ' +
        'Nothing was done: describe the one you mean by its place or a nearby label (e.g. "the OK button in the Save dialog", "the field right of Name").',
    });
    expect(NAMED_CANDIDATES).toBe(5);
    const off = readResolution({ kind: 'ambiguous', description: 'x', candidates: [cand(200, 'far'), cand(10, 'near')], notes: [] }, (p) => (p.x > 100 ? undefined : p));
    expect(off).toMatchObject({ ok: false, text: expect.stringContaining('far (off the screenshot) [tree 1.00]; near at (10, 40) [tree 1.00].') });
  });

  it('not found: each stage\'s note, and the closest candidates when there are any', () => {
    const notes = [
      { stage: 'tree' as const, note: 'nothing matches' },
      { stage: 'model' as const, note: 'no grounding model' },
    ];
    expect(readResolution({ kind: 'not-found', description: 'Save', candidates: [], notes }, half)).toEqual({
      ok: false,
      text: '"Save" was not found (tree: nothing matches; model: no grounding model). Nothing was done: describe it differently, or act on something else first.',
    });
    expect(readResolution({ kind: 'not-found', description: 'Save', candidates: [cand(8, 'words "Sav"', 0.4, 'ocr')], notes: [] }, half)).toEqual({
      ok: false,
      text: '"Save" was not found (no stage answered). The closest: words "Sav" at (4, 20) [ocr 0.40]. Nothing was done: describe it differently, or act on something else first.',
    });
  });
});

describe('actionsFor', () => {
  const ok = target('OK', 10);
  it('each action kind, with its point and the target it came from', () => {
    expect(actionsFor(act({ action: 'click', target: 'OK' }), [ok])).toEqual({ actions: [{ type: 'click', x: 10, y: 20, button: 'left', clicks: 1, modifiers: [] }], targets: [ok] });
    expect(actionsFor(act({ action: 'double_click', target: 'OK' }), [ok])).toEqual({ actions: [{ type: 'click', x: 10, y: 20, button: 'left', clicks: 2, modifiers: [] }], targets: [ok] });
    expect(actionsFor(act({ action: 'right_click', target: 'OK' }), [ok])).toEqual({ actions: [{ type: 'click', x: 10, y: 20, button: 'right', clicks: 1, modifiers: [] }], targets: [ok] });
    expect(actionsFor(act({ action: 'type_into', target: 'OK', text: 'hi' }), [ok])).toEqual({
      actions: [{ type: 'click', x: 10, y: 20, button: 'left', clicks: 1, modifiers: [] }, { type: 'type', text: 'hi' }],
      targets: [ok, undefined],
    });
    expect(actionsFor(act({ action: 'scroll', target: 'OK', direction: 'left' }), [ok])).toEqual({
      actions: [{ type: 'scroll', x: 10, y: 20, direction: 'left', amount: DEFAULT_SCROLL, modifiers: [] }],
      targets: [ok],
    });
    expect(DEFAULT_SCROLL).toBe(3);
    expect(actionsFor(act({ action: 'scroll', target: 'OK', direction: 'down', amount: 7 }), [ok]).actions).toEqual([{ type: 'scroll', x: 10, y: 20, direction: 'down', amount: 7, modifiers: [] }]);
    const to = target('Trash', 90);
    expect(actionsFor(act({ action: 'drag', target: 'OK', to: 'Trash' }), [ok, to])).toEqual({
      actions: [{ type: 'drag', path: [{ x: 10, y: 20 }, { x: 90, y: 20 }], button: 'left', modifiers: [] }],
      targets: [ok],
    });
    expect(actionsFor(act({ action: 'type', text: 'a b' }), [])).toEqual({ actions: [{ type: 'type', text: 'a b' }], targets: [undefined] });
    expect(actionsFor(act({ action: 'key', keys: 'ctrl+s' }), [])).toEqual({ actions: [{ type: 'key', keys: 'ctrl+s', repeat: 1 }], targets: [undefined] });
    expect(actionsFor(act({ action: 'wait', seconds: 1.25 }), [])).toEqual({ actions: [{ type: 'wait', durationMs: 1250 }], targets: [undefined] });
    expect(actionsFor(act({ action: 'done', reason: 'saved' }), [])).toEqual({ actions: [{ type: 'finish', success: true, summary: 'saved' }], targets: [undefined] });
    expect(actionsFor(act({ action: 'done' }), []).actions).toEqual([{ type: 'finish', success: true, summary: '' }]);
    // One target slot per action (none for a finish), as for done: the runner pairs them by index.
    expect(actionsFor(act({ action: 'fail', reason: 'no app' }), [])).toEqual({ actions: [{ type: 'finish', success: false, summary: 'no app' }], targets: [undefined] });
    expect(actionsFor(act({ action: 'fail' }), []).actions).toEqual([{ type: 'finish', success: false, summary: 'the planner says the task cannot be done' }]);
  });

  it('one line for a person', () => {
    expect(resolvedTargetLine({ ...ok, point: { x: 10.4, y: 19.6 }, confidence: 0.875 })).toBe('"OK" → push button "OK" (tree, 0.88) at (10, 20)');
  });
});

describe('planAct', () => {
  const record = {
    id: 'o1',
    display: { id: 'd', bounds: { x: 0, y: 0, width: 200, height: 100 }, scaleFactor: 1, primary: true },
    capture: { width: 200, height: 100 },
    region: { x: 0, y: 0, width: 200, height: 100 },
    image: { width: 100, height: 50, format: 'png' },
  } as unknown as ObservationRecord;
  const never = new AbortController().signal;
  const found = (description: string, x: number): Resolution => ({ kind: 'found', description, point: { x, y: 40 }, stage: 'tree', confidence: 1, label: `L${x}`, candidates: [], notes: [] });
  const resolver = (answers: Record<string, Resolution | Error>, asked: string[] = []): PlannerResolver => ({
    resolve: (description) => {
      asked.push(description);
      const a = answers[description]!;
      return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
    },
  });

  it('resolves each target in order and maps the points through the screenshot\'s record', async () => {
    const asked: string[] = [];
    const planned = await planAct(resolver({ A: found('A', 20), B: found('B', 120) }, asked), { action: 'drag', target: 'A', to: 'B' }, record, never);
    expect(asked).toEqual(['A', 'B']);
    expect(planned).toEqual({
      ok: true,
      // Pixel centres map to pixel centres: global 20 of 200 → image 9.75 of 100 (os-control/coords.ts).
      actions: [{ type: 'drag', path: [{ x: 9.75, y: 19.75 }, { x: 59.75, y: 19.75 }], button: 'left', modifiers: [] }],
      targets: [{ description: 'A', stage: 'tree', confidence: 1, label: 'L20', point: { x: 9.75, y: 19.75 } }],
    });
  });

  it('stops at the first target that is not found (the second is never looked for)', async () => {
    const asked: string[] = [];
    const planned = await planAct(resolver({ A: { kind: 'not-found', description: 'A', candidates: [], notes: [] }, B: found('B', 1) }, asked), { action: 'drag', target: 'A', to: 'B' }, record, never);
    expect(asked).toEqual(['A']);
    expect(planned).toEqual({ ok: false, text: '"A" was not found (no stage answered). Nothing was done: describe it differently, or act on something else first.' });
  });

  it('a bad input is told back without asking the chain', async () => {
    const asked: string[] = [];
    expect(await planAct(resolver({}, asked), { action: 'click' }, record, never)).toEqual({ ok: false, text: 'act was not accepted: target: click needs target' });
    expect(asked).toEqual([]);
  });

  it('an outage of the grounding model (unavailable, timed out) refuses the step and asks for a pause; other errors are the run\'s', async () => {
    const down = await planAct(resolver({ A: new ProviderUnavailableError('503 after 6 attempts') }), { action: 'click', target: 'A' }, record, never);
    expect(down).toEqual({
      ok: false,
      text: 'Refused: "A" could not be resolved: the grounding model is unavailable (503 after 6 attempts). Nothing was done; the run was paused until someone resumed it.',
      outage: 'grounding model unavailable: 503 after 6 attempts',
    });
    const slow = await planAct(resolver({ A: new ProviderTimeoutError(3000) }), { action: 'click', target: 'A' }, record, never);
    expect(slow).toMatchObject({ ok: false, outage: expect.stringMatching(/^grounding model unavailable: the model server gave no answer within 3 s/) });
    expect(await planAct(resolver({ A: new DescriptionError('the description is empty') }), { action: 'click', target: 'A' }, record, never)).toEqual({
      ok: false,
      text: 'act was not accepted: the description is empty',
    });
    await expect(planAct(resolver({ A: new ProviderRequestError('bad key') }), { action: 'click', target: 'A' }, record, never)).rejects.toThrow('bad key');
    await expect(planAct(resolver({ A: new GrounderError('odd') }), { action: 'click', target: 'A' }, record, never)).rejects.toThrow('odd');
  });

  it('done and wait need no target', async () => {
    expect(await planAct(resolver({}), { action: 'wait', seconds: 2 }, record, never)).toEqual({ ok: true, actions: [{ type: 'wait', durationMs: 2000 }], targets: [undefined] });
  });
});
