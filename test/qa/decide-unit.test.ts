import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/main/qa/checks.js';
import { CHECK_LABEL, SOURCE_LABEL, decideOutcome, describeCase, inconclusiveChecks } from '../../src/main/qa/decide.js';
import type { AttemptResult, CaseResult } from '../../src/main/qa/results.js';

// decideOutcome is the one place a QA case's outcome is derived: every message is
// asserted whole, so a changed word, separator or branch shows.

const result = (status: CheckResult['status'], n: number, detail: string): CheckResult => ({ expectation: n, source: `E${n}`, status, actual: '', detail });
const pass = (n: number) => result('pass', n, `ok ${n}`);
const fail = (n: number) => result('fail', n, `bad ${n}`);
const unsure = (n: number) => result('inconclusive', n, `blurry ${n}`);

describe('decideOutcome: blocked', () => {
  it('is blocked whatever the checks say, with no inconclusive note or count', () => {
    expect(decideOutcome({ verdict: 'blocked', reason: 'no window' }, [fail(1), unsure(2), pass(3)], 3)).toEqual({
      status: 'blocked',
      message: 'blocked: no window',
      inconclusive: 0,
    });
  });
});

describe('decideOutcome: a "pass" verdict', () => {
  it('stands with no checks at all', () => {
    expect(decideOutcome({ verdict: 'pass', reason: 'fine' }, [], 2)).toEqual({ status: 'passed', message: 'fine', inconclusive: 0 });
  });
  it('stands when every check passed', () => {
    expect(decideOutcome({ verdict: 'pass', reason: 'fine' }, [pass(1), pass(2)], 2)).toEqual({ status: 'passed', message: 'fine', inconclusive: 0 });
  });
  it('is overruled by a failed check, naming each failed check (and only those), joined by "; "', () => {
    expect(decideOutcome({ verdict: 'pass', reason: 'fine' }, [fail(1), pass(2), fail(3)], 3)).toEqual({
      status: 'failed',
      message: `the model's verdict "pass" is contradicted by DeskPilot's check: "E1": bad 1; "E3": bad 3 (model: fine)`,
      inconclusive: 0,
    });
  });
  it('stands next to one inconclusive check, and says so in the singular', () => {
    expect(decideOutcome({ verdict: 'pass', reason: 'fine' }, [unsure(1), pass(2)], 2)).toEqual({
      status: 'passed',
      message: `fine [1 check inconclusive, the model's verdict stands: "E1": blurry 1]`,
      inconclusive: 1,
    });
  });
  it('stands next to two inconclusive checks, in the plural, naming both', () => {
    expect(decideOutcome({ verdict: 'pass', reason: 'fine' }, [unsure(1), unsure(2)], 2)).toEqual({
      status: 'passed',
      message: `fine [2 checks inconclusive, the model's verdict stands: "E1": blurry 1; "E2": blurry 2]`,
      inconclusive: 2,
    });
  });
  it('a failed check overrules it next to an inconclusive one, and the note is kept', () => {
    expect(decideOutcome({ verdict: 'pass', reason: 'fine' }, [fail(1), unsure(2)], 2)).toEqual({
      status: 'failed',
      message: `the model's verdict "pass" is contradicted by DeskPilot's check: "E1": bad 1 (model: fine) [1 check inconclusive, the model's verdict stands: "E2": blurry 2]`,
      inconclusive: 1,
    });
  });
});

describe('decideOutcome: a "fail" verdict', () => {
  const disagreement = (checks: string) => `the model's verdict "fail" disagrees with DeskPilot's checks, which all passed (${checks}); model: shows 6`;

  it('disagrees when passed checks cover exactly every expectation', () => {
    expect(decideOutcome({ verdict: 'fail', reason: 'shows 6' }, [pass(1), pass(2)], 2)).toEqual({ status: 'failed', message: disagreement(`"E1": ok 1; "E2": ok 2`), inconclusive: 0 });
  });
  it('disagrees when there are more passed checks than expectations', () => {
    expect(decideOutcome({ verdict: 'fail', reason: 'shows 6' }, [pass(1), pass(2)], 1)).toEqual({ status: 'failed', message: disagreement(`"E1": ok 1; "E2": ok 2`), inconclusive: 0 });
  });
  it('is no disagreement when one expectation is not covered by a check', () => {
    expect(decideOutcome({ verdict: 'fail', reason: 'shows 6' }, [pass(1)], 2)).toEqual({
      status: 'failed',
      message: `shows 6 (DeskPilot's exact checks passed: "E1": ok 1)`,
      inconclusive: 0,
    });
  });
  it('with no checks and no expectations is the model\'s plain "fail", not a disagreement', () => {
    expect(decideOutcome({ verdict: 'fail', reason: 'shows 6' }, [], 0)).toEqual({ status: 'failed', message: 'shows 6', inconclusive: 0 });
  });
  it('is no disagreement when a check also failed: the failed checks are attached', () => {
    expect(decideOutcome({ verdict: 'fail', reason: 'shows 6' }, [pass(1), fail(2)], 2)).toEqual({
      status: 'failed',
      message: `shows 6 (check: "E2": bad 2)`,
      inconclusive: 0,
    });
  });
  it('is no disagreement when a check failed, even with enough passed checks to cover every expectation', () => {
    expect(decideOutcome({ verdict: 'fail', reason: 'shows 6' }, [pass(1), fail(2)], 1)).toEqual({
      status: 'failed',
      message: `shows 6 (check: "E2": bad 2)`,
      inconclusive: 0,
    });
  });
  it('attaches every failed check when none passed', () => {
    expect(decideOutcome({ verdict: 'fail', reason: 'shows 6' }, [fail(1), fail(2)], 2)).toEqual({
      status: 'failed',
      message: `shows 6 (check: "E1": bad 1; "E2": bad 2)`,
      inconclusive: 0,
    });
  });
  it('is no disagreement when a check could not judge, even with the rest passing and covering every expectation', () => {
    expect(decideOutcome({ verdict: 'fail', reason: 'shows 6' }, [pass(1), pass(2), unsure(3)], 2)).toEqual({
      status: 'failed',
      message: `shows 6 (DeskPilot's exact checks passed: "E1": ok 1; "E2": ok 2) [1 check inconclusive, the model's verdict stands: "E3": blurry 3]`,
      inconclusive: 1,
    });
  });
  it('with only inconclusive checks stays the model\'s "fail", with the note', () => {
    expect(decideOutcome({ verdict: 'fail', reason: 'shows 6' }, [unsure(1)], 1)).toEqual({
      status: 'failed',
      message: `shows 6 [1 check inconclusive, the model's verdict stands: "E1": blurry 1]`,
      inconclusive: 1,
    });
  });
});

describe('decideOutcome: a verdict outside the union (an old or forged result)', () => {
  it('throws instead of deciding anything', () => {
    expect(() => decideOutcome({ verdict: 'maybe' as 'pass', reason: '?' }, [], 1)).toThrow('unhandled value: "maybe"');
  });
});

describe('labels', () => {
  it('CHECK_LABEL names each check status', () => {
    expect(CHECK_LABEL).toEqual({ pass: 'passed', fail: 'FAILED', inconclusive: 'INCONCLUSIVE' });
  });
  it('SOURCE_LABEL names each source', () => {
    expect(SOURCE_LABEL).toEqual({ model: 'ran with the model', cache: 'replayed from cache', healed: 'replayed, healed by the model' });
  });
});

describe('describeCase', () => {
  const attempt = (checks: CheckResult[]): AttemptResult => ({ attempt: 1, status: 'passed', message: '', checks, evidence: [], durationMs: 1 });
  const kase = (over: Partial<CaseResult>): CaseResult => ({ name: 'c', line: 1, status: 'passed', flaky: false, message: '', attempts: [], durationMs: 1, ...over });

  it('marks each status', () => {
    expect(describeCase(kase({ status: 'passed' })).mark).toBe('PASS');
    expect(describeCase(kase({ status: 'passed', flaky: true })).mark).toBe('FLAKY');
    expect(describeCase(kase({ status: 'failed' })).mark).toBe('FAIL');
    expect(describeCase(kase({ status: 'failed', flaky: true })).mark).toBe('FAIL');
    expect(describeCase(kase({ status: 'blocked' })).mark).toBe('BLOCKED');
    expect(describeCase(kase({ status: 'error' })).mark).toBe('ERROR');
  });
  it('with no attempts: no inconclusive checks, no note, the model as source', () => {
    const view = describeCase(kase({}));
    expect(view).toEqual({ mark: 'PASS', inconclusive: [], source: 'model', sourceLabel: 'ran with the model' });
    expect('note' in view).toBe(false);
  });
  it('takes the inconclusive checks of the last attempt only, in the singular', () => {
    const view = describeCase(kase({ attempts: [attempt([unsure(1), unsure(2)]), attempt([pass(1), unsure(2)])], source: 'cache' }));
    expect(view).toEqual({ mark: 'PASS', inconclusive: [unsure(2)], note: '1 check inconclusive', source: 'cache', sourceLabel: 'replayed from cache' });
  });
  it('says "checks" for more than one', () => {
    const view = describeCase(kase({ attempts: [attempt([unsure(1), fail(2), unsure(3)])], source: 'healed' }));
    expect(view).toEqual({ mark: 'PASS', inconclusive: [unsure(1), unsure(3)], note: '2 checks inconclusive', source: 'healed', sourceLabel: 'replayed, healed by the model' });
  });
  it('gives no note when the last attempt had no inconclusive check, though an earlier one did', () => {
    const view = describeCase(kase({ attempts: [attempt([unsure(1)]), attempt([pass(1)])] }));
    expect(view.inconclusive).toEqual([]);
    expect('note' in view).toBe(false);
  });
});

describe('inconclusiveChecks', () => {
  it('is empty for no attempt', () => {
    expect(inconclusiveChecks(undefined)).toEqual([]);
  });
  it('keeps only the inconclusive checks, in order', () => {
    expect(inconclusiveChecks({ attempt: 1, status: 'failed', message: '', checks: [unsure(1), pass(2), fail(3), unsure(4)], evidence: [], durationMs: 1 })).toEqual([unsure(1), unsure(4)]);
  });
});
