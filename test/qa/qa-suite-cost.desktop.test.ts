import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { call, qaModel, runQaCli } from './qa-support.js';

/**
 * Issue 20's suite cost limit, end to end through `deskpilot qa --max-cost`. Every reply
 * of the fake model reports 10,000 input tokens: $0.01 at claude-haiku-4-5's $1 per
 * million. Each case takes two replies ($0.02), the limit is $0.045: cases 1 and 2 run
 * ($0.04), case 3's first reply reaches the limit (its run may spend only the $0.005
 * left, and is stopped), and cases 4 and 5 never start. They are "not run" with the
 * reason everywhere a person or CI looks: stdout, JUnit (<skipped>), the HTML report and
 * results.json; exit code 1.
 */
const NAMES = ['Adds 1', 'Adds 2', 'Adds 3', 'Adds 4', 'Adds 5'];
const PLAN = `# Cost-limited xcalc
## App
- Launch: \`xcalc -geometry 260x340+100+100\`
- Window: Calculator
- Region display: 8, 2, 248, 22
- Start timeout: 20s
## Defaults
- Timeout: 90s
- Max steps: 6
${NAMES.map((n, i) => `## Case: ${n}\nSteps:\n1. Press ${i + 1}, +, ${i + 1} and =.\nExpected:\n- Expect display: ${2 * (i + 1)}\n`).join('\n')}`;

const TEN_THOUSAND_INPUT = { input: 10_000, output: 0 };

let xvfb: Xvfb;
let fake: FakeModelServer;
let tmp: string;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  fake = await startFakeModel();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-qa-cost-'));
});
afterAll(async () => {
  await fake?.close();
  await xvfb?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('deskpilot qa --max-cost', () => {
  it('stops at the suite limit and reports the cases beyond it as not run, with the reason, in every output', async () => {
    const turns: string[] = [];
    fake.setFallback(
      qaModel(
        Object.fromEntries(
          NAMES.map((n, i) => [
            n,
            [
              () => ({ text: 'Typing the sum.', toolCalls: [call.type(`${i + 1}+${i + 1}=`)], usage: TEN_THOUSAND_INPUT }),
              () => ({ text: 'It shows the sum.', toolCalls: [call.verdict('pass', `The display shows ${2 * (i + 1)}.`)], usage: TEN_THOUSAND_INPUT }),
            ],
          ]),
        ),
        turns,
      ),
    );
    const planFile = path.join(tmp, 'cost.plan.md');
    writeFileSync(planFile, PLAN);
    const out = path.join(tmp, 'out');
    const junit = path.join(tmp, 'junit.xml');
    const report = path.join(tmp, 'report.html');
    const result = await runQaCli(
      ['qa', planFile, '--max-cost', '0.045', '--out-dir', out, '--junit', junit, '--report', report, '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl],
      { ...xvfb.env, DESKPILOT_HOME: path.join(tmp, 'home'), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: '' },
    );
    const output = `${result.stdout}\n${result.stderr}\nturns: ${turns.join(' ')}`;
    expect(result.code, output).toBe(1);
    // The model was asked for cases 1–3 only: 2 + 2 + 1 replies.
    expect(turns, output).toEqual(['Adds 1#0', 'Adds 1#1', 'Adds 2#0', 'Adds 2#1', 'Adds 3#0']);
    const reason = /the suite cost limit \(\$0\.045\) was reached: \$0\.05 spent/;

    // results.json: 2 passed, the one in flight blocked by the stop, 2 not run with the reason.
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as {
      cases: Array<{ name: string; status: string; message: string }>;
      notRun: Array<{ name: string; reason: string }>;
      counts: Record<string, number>;
    };
    expect(results.cases.map((c) => [c.name, c.status]), output).toEqual([
      ['Adds 1', 'passed'],
      ['Adds 2', 'passed'],
      ['Adds 3', 'blocked'],
    ]);
    expect(results.notRun.map((n) => n.name)).toEqual(['Adds 4', 'Adds 5']);
    for (const n of results.notRun) expect(n.reason).toMatch(reason);
    expect(results.counts).toMatchObject({ passed: 2, blocked: 1, notRun: 2 });

    // JUnit: 5 testcases, 2 of them <skipped> with the reason; the totals agree.
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' }).parse(readFileSync(junit, 'utf8')) as {
      testsuites: { '@_tests': string; '@_skipped'?: string; testsuite: { '@_skipped': string; testcase: Array<Record<string, unknown>> } };
    };
    expect(parsed.testsuites['@_tests']).toBe('5');
    expect(parsed.testsuites.testsuite['@_skipped']).toBe('2');
    const skipped = parsed.testsuites.testsuite.testcase.filter((c) => 'skipped' in c);
    expect(skipped.map((c) => c['@_name'])).toEqual(['Adds 4', 'Adds 5']);
    for (const c of skipped) expect((c.skipped as Record<string, string>)['@_message']).toMatch(reason);
    // The out-dir's JUnit is the same document.
    expect(readFileSync(path.join(out, 'junit.xml'), 'utf8')).toBe(readFileSync(junit, 'utf8'));

    // The report says it too.
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('2 not run');
    for (const n of ['Adds 4', 'Adds 5']) expect(html).toMatch(new RegExp(`Not run: ${n} — the suite cost limit`));
  }, 240_000);
});
