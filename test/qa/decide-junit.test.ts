import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/main/qa/checks.js';
import { decideOutcome, describeCase } from '../../src/main/qa/decide.js';
import { renderSuiteReport } from '../../src/main/qa/suite-report.js';
import { renderJUnit } from '../../src/main/qa/junit.js';
import { exitCodeFor, type SuiteResult } from '../../src/main/qa/results.js';

const check = (passed: boolean, actual: string): CheckResult => ({
  expectation: 1,
  source: 'Expect display: 5',
  status: passed ? 'pass' : 'fail',
  actual,
  detail: `OCR of region "display" reads "${actual}"${passed ? '' : ', expected "5"'}`,
});
const unsure = (actual: string): CheckResult => ({
  expectation: 1,
  source: 'Expect display: 5',
  status: 'inconclusive',
  actual,
  detail: `OCR of region "display" is inconclusive (reads "${actual}", expected "5"): "${actual}" has characters ")" that "5" could not contain: a misread`,
});

describe('verdict vs check', () => {
  it('pass + passing checks = passed', () => {
    expect(decideOutcome({ verdict: 'pass', reason: 'shows 5' }, [check(true, '5')], 1)).toEqual({ status: 'passed', message: 'shows 5', inconclusive: 0 });
  });
  it('pass + failing check = failed, and says the check contradicts the model', () => {
    const o = decideOutcome({ verdict: 'pass', reason: 'shows 5' }, [check(false, '6')], 1);
    expect(o.status).toBe('failed');
    expect(o.message).toMatch(/^the model's verdict "pass" is contradicted by DeskPilot's check: "Expect display: 5": OCR of region "display" reads "6"/);
  });
  it('fail while every expectation is checked and passes = failed, as a disagreement', () => {
    const o = decideOutcome({ verdict: 'fail', reason: 'shows 6' }, [check(true, '5')], 1);
    expect(o.status).toBe('failed');
    expect(o.message).toMatch(/disagrees with DeskPilot's checks/);
  });
  it('fail on a plain-language expectation the checks do not cover is no disagreement', () => {
    const o = decideOutcome({ verdict: 'fail', reason: 'the window flickers' }, [check(true, '5')], 2);
    expect(o).toEqual({ status: 'failed', message: expect.stringMatching(/^the window flickers \(DeskPilot's exact checks passed/) as unknown as string, inconclusive: 0 });
  });
  it('an inconclusive check never fails a "pass": the verdict stands and the message says which check could not judge', () => {
    const o = decideOutcome({ verdict: 'pass', reason: 'shows 5' }, [unsure('9)')], 1);
    expect(o.status).toBe('passed');
    expect(o.inconclusive).toBe(1);
    expect(o.message).toMatch(/^shows 5 \[1 check inconclusive, the model's verdict stands: "Expect display: 5": OCR of region "display" is inconclusive/);
  });
  it('an inconclusive check does not make a "fail" verdict a disagreement, nor count as a passed check', () => {
    const o = decideOutcome({ verdict: 'fail', reason: 'shows 6' }, [unsure('')], 1);
    expect(o.status).toBe('failed');
    expect(o.message).not.toMatch(/disagrees/);
    expect(o.message).toMatch(/^shows 6 \[1 check inconclusive/);
  });
  it('a failed check still overrules "pass" next to an inconclusive one', () => {
    const o = decideOutcome({ verdict: 'pass', reason: 'fine' }, [check(false, '6'), { ...unsure(''), expectation: 2 }], 2);
    expect(o.status).toBe('failed');
    expect(o.inconclusive).toBe(1);
  });
  it('blocked stays blocked', () => {
    expect(decideOutcome({ verdict: 'blocked', reason: 'no window' }, [], 1).status).toBe('blocked');
  });
});

describe('JUnit XML', () => {
  const suite: SuiteResult = {
    suiteId: 'qa-1',
    title: 'Plan <with> "odd" & \u0001 chars',
    file: 'p.md',
    startedAt: Date.UTC(2026, 0, 2, 3, 4, 5),
    durationMs: 4200,
    cases: [
      { name: 'a & b', line: 3, status: 'passed', flaky: false, message: 'ok', attempts: [{ attempt: 1, status: 'passed', message: 'ok', checks: [], evidence: ['/x/1.png'], durationMs: 1000 }], durationMs: 1000 },
      {
        name: 'c',
        line: 9,
        status: 'failed',
        flaky: false,
        message: 'shows "6" <not 5>',
        attempts: [
          { attempt: 1, status: 'failed', message: 'first', checks: [check(false, '6')], evidence: [], durationMs: 10 },
          { attempt: 2, status: 'failed', message: 'second', checks: [check(false, '6')], evidence: [], durationMs: 10 },
        ],
        durationMs: 20,
      },
      { name: 'd', line: 12, status: 'blocked', flaky: false, message: 'no verdict', attempts: [], durationMs: 0 },
    ],
  };

  it('escapes everything, counts failures and errors, keeps reruns', () => {
    const xml = renderJUnit(suite);
    expect(xml).not.toContain('\u0001');
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' }).parse(xml) as {
      testsuites: { '@_tests': string; '@_failures': string; '@_errors': string; testsuite: { '@_name': string; testcase: Array<Record<string, unknown>> } };
    };
    expect(doc.testsuites['@_tests']).toBe('3');
    expect(doc.testsuites['@_failures']).toBe('1');
    expect(doc.testsuites['@_errors']).toBe('1');
    expect(doc.testsuites.testsuite['@_name']).toBe('Plan <with> "odd" &  chars');
    const [a, c, d] = doc.testsuites.testsuite.testcase;
    expect(a!['@_name']).toBe('a & b');
    expect((c!.failure as Record<string, string>)['@_message']).toBe('shows "6" <not 5>');
    expect(c).toHaveProperty('rerunFailure');
    expect((d!.error as Record<string, string>)['@_type']).toBe('blocked');
  });

  it('exit codes: 0 all passed, 1 failed or blocked, 2 setup invalid', () => {
    expect(exitCodeFor(suite)).toBe(1);
    expect(exitCodeFor({ ...suite, cases: [suite.cases[0]!] })).toBe(0);
    expect(exitCodeFor({ ...suite, cases: [{ ...suite.cases[0]!, status: 'passed', flaky: true }] })).toBe(0);
    expect(exitCodeFor({ ...suite, setupError: 'no window' })).toBe(2);
  });
});

describe('an inconclusive check in every view', () => {
  const decided = decideOutcome({ verdict: 'pass', reason: 'The display shows 5.' }, [unsure('9)')], 1);
  const suite: SuiteResult = {
    suiteId: 'qa-2',
    title: 'xcalc',
    startedAt: Date.UTC(2026, 0, 2),
    durationMs: 1000,
    cases: [
      {
        name: 'adds',
        line: 3,
        status: decided.status,
        flaky: false,
        message: decided.message,
        attempts: [{ attempt: 1, status: decided.status, message: decided.message, verdict: { verdict: 'pass', reason: 'The display shows 5.' }, checks: [unsure('9)')], evidence: [], durationMs: 900 }],
        durationMs: 900,
      },
    ],
  };

  it('JUnit: the case passes, carries an inconclusiveChecks property and an INCONCLUSIVE line', () => {
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' }).parse(renderJUnit(suite)) as {
      testsuites: { '@_failures': string; testsuite: { properties: { property: Array<Record<string, string>> }; testcase: Record<string, unknown> } };
    };
    expect(doc.testsuites['@_failures']).toBe('0');
    const tc = doc.testsuites.testsuite.testcase;
    expect(tc).not.toHaveProperty('failure');
    // Every case also says where its actions came from (qa --replay): here the model.
    expect((tc.properties as { property: Array<Record<string, string>> }).property).toEqual([
      { '@_name': 'source', '@_value': 'model' },
      { '@_name': 'inconclusiveChecks', '@_value': '1' },
    ]);
    expect(String(tc['system-out'])).toMatch(/^INCONCLUSIVE: 1 check\(s\) could not judge; the model's verdict stands$/m);
    expect(String(tc['system-out'])).toMatch(/check INCONCLUSIVE: Expect display: 5 — OCR of region "display" is inconclusive/);
    expect(doc.testsuites.testsuite.properties.property).toContainEqual({ '@_name': 'inconclusiveChecks', '@_value': '1' });
  });

  it('HTML report: the summary row and the check are marked inconclusive', async () => {
    const html = await renderSuiteReport(suite);
    expect(html).toContain('<b>passed</b> <span class="qa-source qa-source-model">(ran with the model)</span> <span class="qa-inconclusive">(1 check inconclusive)</span>');
    expect(html).toContain('<div class="qa-inconclusive">Check inconclusive: <code>Expect display: 5</code>');
  });

  it('CLI line: PASS with the note', () => {
    expect(describeCase(suite.cases[0]!)).toMatchObject({ mark: 'PASS', note: '1 check inconclusive' });
  });
});

