import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qaMergeCommand } from '../../src/main/cli/qa-merge-command.js';
import { parsePlan } from '../../src/main/qa/parse-plan.js';
import { writeOutDir } from '../../src/main/qa/out-dir.js';
import { countCases, type CaseResult, type CaseStatus, type SuiteResult } from '../../src/main/qa/results.js';
import { RESULTS_FILE } from '../../src/main/qa/results-file.js';
import { caseId, casesInShard, planFingerprint, type ShardSpec } from '../../src/main/qa/shard.js';
import type { TestPlan } from '../../src/main/qa/plan-types.js';

/**
 * `deskpilot qa merge` on results folders written by the real writer (out-dir.ts):
 * the merged counts equal the whole run's, every refusal names the folders and the
 * problem, and a hostile results.json is a clear error that reads nothing outside its folder.
 */
const STATUS: Record<string, CaseStatus> = { alpha: 'passed', bravo: 'failed', charlie: 'blocked', delta: 'passed', echo: 'passed', foxtrot: 'failed', golf: 'passed' };

function makePlan(names = Object.keys(STATUS), title = 'Merge plan'): TestPlan {
  const cases = names.map((n) => `## Case: ${n}\nSteps:\n1. Do ${n}.\nExpected:\n- ${n} done.\n`).join('\n');
  return parsePlan(`# ${title}\n## App\n- Launch: \`xcalc\`\n\n${cases}`, 'merge.plan.md');
}

function suiteOf(plan: TestPlan, shard: ShardSpec | undefined): SuiteResult {
  const cases: CaseResult[] = casesInShard(plan, shard).map((c, i) => {
    const status = STATUS[c.name] ?? 'passed';
    const flaky = c.name === 'delta';
    return {
      id: caseId(plan, c),
      name: c.name,
      line: c.line,
      status,
      flaky,
      healed: false,
      message: `${c.name} ${status}`,
      attempts: [
        ...(flaky ? [{ attempt: 1, status: 'failed' as const, message: 'first try failed', checks: [], evidence: [], durationMs: 5 }] : []),
        { attempt: flaky ? 2 : 1, status, message: `${c.name} ${status}`, checks: [], evidence: [], durationMs: 10 },
      ],
      startedAt: 1_000 + i,
      durationMs: 10,
    };
  });
  return {
    suiteId: `qa-test-${shard ? shard.index : 0}`,
    title: plan.title,
    startedAt: 1_000,
    durationMs: 50,
    cases,
    ...(shard ? { shard } : {}),
    plan: { fingerprint: planFingerprint(plan), cases: plan.cases.map((c) => ({ id: caseId(plan, c), name: c.name, line: c.line })) },
    notRun: [],
  };
}

let tmp: string;
let counter = 0;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-merge-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function written(suite: SuiteResult): Promise<string> {
  const dir = path.join(tmp, `out-${++counter}`);
  mkdirSync(dir, { recursive: true });
  await writeOutDir(suite, dir);
  return dir;
}

async function merge(dirs: string[], extra: { junit?: string; report?: string } = {}) {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (d: Buffer) => (stdout += d.toString()));
  err.on('data', (d: Buffer) => (stderr += d.toString()));
  const junit = extra.junit ?? path.join(tmp, `merged-${++counter}.xml`);
  const code = await qaMergeCommand(dirs, { junit, ...(extra.report ? { report: extra.report } : {}) }, out, err);
  return { code, stdout, stderr, junit };
}

function junitCounts(file: string) {
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' }).parse(readFileSync(file, 'utf8')) as {
    testsuites: { '@_tests': string; '@_failures': string; '@_errors': string; testsuite: { testcase: Array<{ '@_name': string }> } };
  };
  const t = parsed.testsuites;
  return { tests: t['@_tests'], failures: t['@_failures'], errors: t['@_errors'], names: t.testsuite.testcase.map((c) => c['@_name']) };
}

describe('qa merge', () => {
  it('merges 3 shards into the counts, cases and exit code of one whole run, with links to each shard report', async () => {
    const plan = makePlan();
    const whole = suiteOf(plan, undefined);
    const shards = [1, 2, 3].map((index) => suiteOf(plan, { index, total: 3 }));
    // Every case exactly once over the three shards.
    expect(shards.flatMap((s) => s.cases.map((c) => c.name)).sort()).toEqual(Object.keys(STATUS).sort());
    const dirs = await Promise.all(shards.map(written));
    const wholeDir = await written(whole);
    const report = path.join(tmp, 'all', 'all.html');
    const merged = await merge(dirs, { report });
    const single = await merge([wholeDir]);
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(1); // failures in the plan
    expect(merged.code).toBe(single.code);
    expect(junitCounts(merged.junit)).toEqual(junitCounts(single.junit));
    expect(junitCounts(merged.junit)).toMatchObject({ tests: '7', failures: '2', errors: '1' });
    expect(merged.stdout).toContain('7 case(s) — 4 passed, 2 failed, 1 blocked, 0 errors, 1 flaky');
    const html = readFileSync(report, 'utf8');
    // Each case links to its row in its shard's report, relative to the merged report.
    for (const [i, dir] of dirs.entries()) {
      for (const [k] of shards[i]!.cases.entries()) expect(html).toContain(`href="${path.relative(path.dirname(report), path.join(dir, 'report.html'))}#case-${k}"`);
    }
    expect(html).toMatch(/<th>Shard<\/th>/);
    expect(countCases(whole)).toMatchObject({ passed: 4, failed: 2, blocked: 1, flaky: 1 });
  });

  it('refuses mixed plans, overlapping, missing and mixed shards, saying which', async () => {
    const plan = makePlan();
    const other = makePlan(['alpha', 'bravo', 'zulu'], 'Another plan');
    const s = (index: number, total = 3, p = plan) => written(suiteOf(p, { index, total }));
    const [one, two, three] = [await s(1), await s(2), await s(3)];
    const cases: Array<[string[], RegExp]> = [
      [[one, two, await s(3, 3, other)], /different plans.*Another plan/],
      [[one, two, three, await s(2)], new RegExp(`overlapping shards: 2/3 in ${two} and `)],
      [[one, three], /missing shard: 2\/3 \(have 1\/3, 3\/3\)/],
      [[one, await s(1, 2)], /different ways \(2 vs 3 shards\)/],
      [[one, await written(suiteOf(plan, undefined))], /ran the whole plan \(no --shard\)/],
      [[], /nothing to merge/],
    ];
    for (const [dirs, message] of cases) {
      const r = await merge(dirs);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('refuses a shard whose results were changed: a case from another shard, a case twice, a case missing', async () => {
    const plan = makePlan();
    const dirs = await Promise.all([1, 2, 3].map((index) => written(suiteOf(plan, { index, total: 3 }))));
    const read = (d: string) => JSON.parse(readFileSync(path.join(d, RESULTS_FILE), 'utf8')) as { cases: unknown[] };
    const donor = dirs.find((d) => read(d).cases.length > 0)!;
    const receiver = dirs.find((d) => d !== donor)!;
    const moved = read(receiver);
    moved.cases.push(read(donor).cases[0]);
    writeFileSync(path.join(receiver, RESULTS_FILE), JSON.stringify(moved));
    let r = await merge(dirs);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/reports case ".+", which belongs to shard \d\/3/);

    const fresh = await Promise.all([1, 2, 3].map((index) => written(suiteOf(plan, { index, total: 3 }))));
    const cut = fresh.find((d) => read(d).cases.length > 0)!;
    const lessened = read(cut);
    lessened.cases.pop();
    writeFileSync(path.join(cut, RESULTS_FILE), JSON.stringify(lessened));
    r = await merge(fresh);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/has no result for ".+": the run did not finish/);
  });

  it('gives a hostile or broken results.json a clear error naming the file and the field, and reads nothing outside its folder', async () => {
    const plan = makePlan(['alpha']);
    const base = () => written(suiteOf(plan, undefined));
    const edit = async (change: (json: Record<string, unknown>) => void) => {
      const dir = await base();
      const json = JSON.parse(readFileSync(path.join(dir, RESULTS_FILE), 'utf8')) as Record<string, unknown>;
      change(json);
      writeFileSync(path.join(dir, RESULTS_FILE), JSON.stringify(json));
      return dir;
    };
    const firstAttempt = (json: Record<string, unknown>) => ((json.cases as Array<{ attempts: Array<Record<string, unknown>> }>)[0]!.attempts[0]!);
    const notJson = await base();
    writeFileSync(path.join(notJson, RESULTS_FILE), '{"format": "deskpilot-qa-results", ');
    const huge = await base();
    truncateSync(path.join(huge, RESULTS_FILE), 33 * 1024 * 1024);
    const outside = await base();
    mkdirSync(path.join(outside, 'sessions'), { recursive: true });
    symlinkSync('/etc', path.join(outside, 'sessions', 'run-x'));
    const withLink = JSON.parse(readFileSync(path.join(outside, RESULTS_FILE), 'utf8')) as Record<string, unknown>;
    firstAttempt(withLink).session = 'sessions/run-x';
    writeFileSync(path.join(outside, RESULTS_FILE), JSON.stringify(withLink));

    const cases: Array<[string, RegExp]> = [
      [path.join(tmp, 'no-such-dir'), /results\.json: cannot read it .*is .*no-such-dir the --out-dir of a deskpilot qa run\?/],
      [notJson, /results\.json: not JSON/],
      [huge, /results\.json: it is 33(\.0)? MiB; a results file may be at most 32 MiB/],
      [await edit((j) => (j.format = 'junit')), /not a DeskPilot QA results file/],
      [await edit((j) => (j.version = 2)), /results version 2 is not one this DeskPilot reads \(1\)/],
      [await edit((j) => (firstAttempt(j).evidence = ['../../../etc/passwd'])), /cases\.0\.attempts\.0\.evidence\.0: must be a relative path inside the results folder/],
      [await edit((j) => (firstAttempt(j).session = '/home/someone/.deskpilot/sessions/x')), /cases\.0\.attempts\.0\.session: must be a relative path/],
      [await edit((j) => (j.title = 'x'.repeat(30_000))), /title: .*(too big|at most|<=)/i],
      [await edit((j) => ((j.cases as Array<Record<string, unknown>>)[0]!['__proto__x'] = 1)), /cases\.0: .*(unrecognized|Unrecognized)/],
      [await edit((j) => ((j.cases as Array<Record<string, unknown>>)[0]!.blocked = true)), /blocked must say whether status is "blocked"/],
      [await edit((j) => ((j.cases as Array<Record<string, unknown>>)[0]!.id = 'ZZ')), /cases\.0\.id: must be 16 lower-case hex digits/],
      [outside, /"sessions\/run-x" leads out of .* \(a symbolic link\); refusing to read it/],
    ];
    for (const [dir, message] of cases) {
      const r = await merge([dir]);
      expect(r.code, `${dir}: ${r.stderr}`).toBe(2);
      expect(r.stderr, dir).toMatch(message);
      expect(r.stderr.split('\n').length, 'one line').toBeLessThanOrEqual(2);
    }
  });

  it('links from the merged report stay relative paths, whatever the folders are called', async () => {
    const plan = makePlan(['alpha']);
    const dir = path.join(tmp, 'javascript:alert(1)#x');
    mkdirSync(dir, { recursive: true });
    await writeOutDir(suiteOf(plan, undefined), dir);
    const report = path.join(tmp, 'links.html');
    const r = await merge([dir], { report });
    expect(r.code, r.stderr).toBe(0);
    const hrefs = [...readFileSync(report, 'utf8').matchAll(/href="([^"]*)"/g)].map((m) => m[1]!).filter((h) => !h.startsWith('#'));
    expect(hrefs).toEqual(['./javascript%3Aalert(1)%23x/report.html#case-0']);
  });
});
