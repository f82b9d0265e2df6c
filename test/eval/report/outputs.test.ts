import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildResultsFile, compareResults, readResultsFile, renderComparison, renderEvalJUnit, renderEvalReport, type EvalResultsFile } from '../../../src/main/eval/report/index.js';
import { result } from './results.js';

// results.json, junit.xml, report.html and compare on hand-made results.
const meta = { deskpilotVersion: '0.1.0', startedAt: '2026-12-03T22:00:00.000Z', suite: 'builtin' };
const file = buildResultsFile(meta, [
  result({ id: 'calc-add', sessionReport: 'sessions/s1/report.html', sessionId: 's1' }),
  result({ id: 'mousepad-save', status: 'failed', reason: 'the checker said no <script>alert(1)</script> [[ATTACHMENT|/etc/passwd]]', claim: 'done' }),
  result({ id: 'infeasible-print', status: 'needed a person' }),
  result({ id: 'chrome-tabs', status: 'skipped', reason: 'config[0]: setup step "chrome_open_tabs" is not supported' }),
  result({ id: 'calc-add', harness: 'ui-tars', cost: 0.002 }),
  result({ id: 'mousepad-save', harness: 'ui-tars', cost: 0.002, status: 'error', reason: 'setup failed: mousepad: not found', failure: 'setup' }),
]);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'eval-report-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('results.json', () => {
  it('is written with its summary derived and read back the same', async () => {
    const target = path.join(dir, 'results.json');
    await writeFile(target, JSON.stringify(file));
    const back = await readResultsFile(target);
    expect(back).toEqual(file);
    expect(back.summary.map((s) => [s.harness, s.successRate])).toEqual([
      ['native', 1 / 3],
      ['ui-tars', 1],
    ]);
  });

  it('a hand-edited summary is derived again from the results', async () => {
    const target = path.join(dir, 'edited.json');
    await writeFile(target, JSON.stringify({ ...file, summary: [] }));
    expect((await readResultsFile(target)).summary).toEqual(file.summary);
  });

  it('a broken file is refused naming the file and the field', async () => {
    const target = path.join(dir, 'broken.json');
    await writeFile(target, JSON.stringify({ ...file, results: [{ ...file.results[0], status: 'won' }] }));
    await expect(readResultsFile(target)).rejects.toThrow(`${target}: is not a deskpilot eval results file: results.0.status:`);
    await writeFile(target, '{"schemaVersion": 1,');
    await expect(readResultsFile(target)).rejects.toThrow(`${target}: is not JSON`);
    await expect(readResultsFile(path.join(dir, 'none.json'))).rejects.toThrow('cannot be read');
    expect(() => buildResultsFile(meta, [result({ id: 'x' }), result({ id: 'x' })])).toThrow('two results share the key');
  });
});

describe('junit.xml', () => {
  const xml = renderEvalJUnit(file);
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as {
    testsuites: { tests: string; failures: string; errors: string; skipped: string; testsuite: Array<{ name: string; testcase: Array<Record<string, unknown>> }> };
  };

  it('one suite per profile × harness, one case per task run, with the totals', () => {
    expect(parsed.testsuites).toMatchObject({ tests: '6', failures: '1', errors: '2', skipped: '1' });
    expect(parsed.testsuites.testsuite.map((s) => s.name)).toEqual(['claude × native', 'claude × ui-tars']);
    expect(parsed.testsuites.testsuite[0]!.testcase.map((c) => c.name)).toEqual(['calc-add', 'mousepad-save', 'infeasible-print', 'chrome-tabs']);
  });

  it('failed → failure, error and needed a person → error, skipped → skipped; CI markers made inert', () => {
    const [passed, failed, person, skipped] = parsed.testsuites.testsuite[0]!.testcase;
    expect(passed).not.toHaveProperty('failure');
    expect(failed!.failure).toMatchObject({ type: 'checker' });
    expect(JSON.stringify(failed!.failure)).not.toContain('[[ATTACHMENT');
    expect(person!.error).toMatchObject({ type: 'needed a person' });
    expect(skipped!.skipped).toMatchObject({ message: expect.stringContaining('chrome_open_tabs') });
    expect(parsed.testsuites.testsuite[1]!.testcase[1]!.error).toMatchObject({ type: 'setup' });
  });
});

describe('report.html', () => {
  const html = renderEvalReport(file, { reportFile: path.join('/out', 'report.html'), resultsFile: path.join('/out', 'results.json') });

  it('is self-contained: the no-network CSP, no external resource', () => {
    expect(html).toContain(`content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"`);
    expect(html).not.toMatch(/(src|href)="https?:/);
  });

  it('draws one point per group in the success-vs-cost chart, its interval as a bar', () => {
    const chart = html.slice(html.indexOf('<svg class="ev-chart"'), html.indexOf('</svg>'));
    expect(chart.match(/<circle class="dot"/g)).toHaveLength(2);
    expect(chart.match(/<line class="bar"/g)).toHaveLength(2);
    expect(chart).toContain('claude × native: 33.3%, $0.01 per task run');
  });

  it('has a grid row per task linking each run to its session report, reasons escaped', () => {
    expect(html).toContain('<a href="sessions/s1/report.html"><span class="ev-cell ev-passed"');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)');
    for (const id of ['calc-add', 'mousepad-save', 'infeasible-print', 'chrome-tabs']) expect(html).toContain(`<tr><td>${id}</td>`);
  });

  it('lists skipped tasks with their reasons and says runs are --policy auto', () => {
    expect(html).toContain('Skipped tasks (1)');
    expect(html).toContain('setup step &quot;chrome_open_tabs&quot; is not supported');
    expect(html).toContain('--policy auto');
  });
});

describe('eval compare', () => {
  const after: EvalResultsFile = buildResultsFile(meta, [
    result({ id: 'calc-add', status: 'failed', cost: 0.02, steps: 14 }),
    result({ id: 'mousepad-save', cost: 0.005, steps: 6 }),
    result({ id: 'infeasible-print', status: 'needed a person' }),
    result({ id: 'new-task' }),
    result({ id: 'calc-add', harness: 'ui-tars', cost: 0.002 }),
  ]);
  const c = compareResults(file, after);

  it('names tasks newly failing and newly passing with their cost and step deltas', () => {
    expect(c.newlyFailing).toEqual([{ id: 'calc-add', profile: 'claude', harness: 'native', before: 1, after: 0, costDelta: expect.closeTo(0.01, 12), stepsDelta: 4 }]);
    expect(c.newlyPassing).toEqual([{ id: 'mousepad-save', profile: 'claude', harness: 'native', before: 0, after: 1, costDelta: expect.closeTo(-0.005, 12), stepsDelta: -4 }]);
    expect(c.unchanged.map((t) => t.id)).toEqual(['infeasible-print', 'calc-add']);
    expect(c.onlyAfter).toEqual(['new-task (claude × native)']);
    expect(c.onlyBefore).toEqual([]);
  });

  it('prints group rates before → after and the task lists', () => {
    const text = renderComparison(c);
    expect(text).toContain('claude × native: 33.3% → 50.0% (1 → 2 passed)');
    expect(text).toContain('Newly failing: 1\n  calc-add (claude × native): 100.0% → 0.0% · cost +$0.01 · steps +4.0');
    expect(text).toContain('Newly passing: 1\n  mousepad-save (claude × native): 0.0% → 100.0% · cost -$0.005 · steps -4.0');
    expect(text).toContain('Judged in B only: new-task (claude × native)');
  });
});
