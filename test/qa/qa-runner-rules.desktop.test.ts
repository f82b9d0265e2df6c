import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/shared/config.js';
import { parsePlan } from '../../src/main/qa/parse-plan.js';
import { renderJUnit } from '../../src/main/qa/junit.js';
import { exitCodeFor, type SuiteResult } from '../../src/main/qa/results.js';
import type { RunOptions, RunHandle } from '../../src/main/agent/run-api.js';
import type { Computer } from '../../src/os-control/types.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { call, qaModel } from './qa-support.js';

/**
 * The QA runner's rules, through its API on a real xcalc: DeskPilot's check overrules
 * a wrong "pass", a retry that passes is reported as flaky, a run without a verdict is
 * blocked, and a verdict before the last action was seen is refused.
 */
const PLAN = `# Runner rules
## App
- Launch: \`xcalc -geometry 260x340+100+100\`
- Window: Calculator
- Region display: 8, 2, 248, 22
## Defaults
- Timeout: 60s
- Max steps: 6
## Case: Wrong pass
Steps:
1. Press 7, -, 2 and =.
Expected:
- Expect display: 4
## Case: Flaky
- Retries: 1
Steps:
1. Press 6, *, 7 and =.
Expected:
- Expect display: 42
## Case: Silent model
Steps:
1. Press 1.
Expected:
- Expect display: 1
## Case: Endless
- Max steps: 2
Steps:
1. Press 1 until the display is full.
Expected:
- The display is full.
## Case: Slow model
- Timeout: 3s
Steps:
1. Press 1.
Expected:
- Expect display: 1
## Case: Title
Steps:
1. Press 1, then look at the window title.
Expected:
- Expect title contains: Calc
`;

let xvfb: Xvfb;
let fake: FakeModelServer;
let home: string;
let computer: Computer;
let startRun: (options: RunOptions) => Promise<RunHandle>;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1024, height: 768 });
  // nut.js binds to the display of the process when first loaded: set it before importing.
  process.env.DISPLAY = xvfb.display;
  ({ startRun } = await import('../../src/main/agent/runner.js'));
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = createComputer();
  fake = await startFakeModel();
  home = mkdtempSync(path.join(os.tmpdir(), 'dp-qa-rules-'));
});
afterAll(async () => {
  await fake?.close();
  await xvfb?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('QA runner rules', () => {
  it('check overrules a wrong pass; retry → flaky; no verdict → blocked; early verdict refused', async () => {
    let flakyAttempt = 0;
    fake.setFallback(
      qaModel({
        'Wrong pass': [
          () => ({ toolCalls: [call.type('7-2=')] }),
          () => ({ text: 'Looks right to me.', toolCalls: [call.verdict('pass', 'The display shows 4.', { checks: [{ expectation: 1 }] })] }),
        ],
        Flaky: [
          () => {
            flakyAttempt += 1;
            // First attempt: a hasty verdict without acting; the second does the work.
            if (flakyAttempt === 1) return { toolCalls: [call.verdict('fail', 'The display shows 0, not 42.')] };
            return { toolCalls: [call.type('6*7=')] };
          },
          () => ({ toolCalls: [call.verdict('pass', 'The display shows 42.')] }),
        ],
        'Silent model': [() => ({ text: 'All good, I think.' })],
        Endless: [() => ({ toolCalls: [call.type('1')] })],
        'Slow model': [() => ({ fault: 'hang' })],
        Title: [
          () => ({ toolCalls: [call.type('1'), call.verdict('pass', 'Title is Calculator.')] }),
          () => ({ toolCalls: [call.verdict('pass', 'The title is Calculator.')] }),
        ],
      }),
    );

    const { runQaPlan } = await import('../../src/main/qa/qa-runner.js');
    const suite: SuiteResult = await runQaPlan(parsePlan(PLAN, 'rules.plan.md'), {
      profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl },
      apiKey: 'sk-ant-test',
      config: ConfigSchema.parse({}),
      computer,
      startRun,
      home,
      env: { ...xvfb.env },
    });
    const byName = Object.fromEntries(suite.cases.map((c) => [c.name, c]));

    // The model said pass; DeskPilot read 5 and failed the case, saying why.
    const wrong = byName['Wrong pass']!;
    expect(wrong.status).toBe('failed');
    expect(wrong.attempts[0]?.verdict?.verdict).toBe('pass');
    expect(wrong.message).toMatch(/the model's verdict "pass" is contradicted by DeskPilot's check: "Expect display: 4": OCR of region "display" reads "5", expected "4"/);

    // Failed once, passed on the retry: passed, flagged flaky, both attempts kept.
    const flaky = byName.Flaky!;
    expect(flaky.status).toBe('passed');
    expect(flaky.flaky).toBe(true);
    expect(flaky.attempts.map((a) => a.status)).toEqual(['failed', 'passed']);
    expect(flaky.attempts[0]?.checks[0]?.actual).toBe('0');

    // The model stopped without qa_verdict: blocked, not passed.
    const silent = byName['Silent model']!;
    expect(silent.status).toBe('blocked');
    expect(silent.message).toMatch(/no verdict: the run ended \(done\) without calling qa_verdict/);

    // The step limit ends a case that never concludes: blocked, with the reason.
    const endless = byName.Endless!;
    expect(endless.status).toBe('blocked');
    expect(endless.message).toMatch(/no verdict: the run ended \(limit\) without calling qa_verdict: step limit reached \(2 steps\)/);

    // The case's time limit ends a run whose model never answers.
    const slow = byName['Slow model']!;
    expect(slow.status).toBe('blocked');
    expect(slow.message).toMatch(/time limit reached \(3 s\)/);

    // The qa skill and the QA rules reached the system prompt of every case's run.
    const firstBody = JSON.stringify(fake.requests[0]?.body);
    expect(firstBody).toContain('You are a careful software tester');
    expect(firstBody).toContain('qa_verdict is refused until the screenshot after your last action has been taken');
    expect(fake.requests[0]?.toolNames).toEqual(expect.arrayContaining(['qa_verdict', 'find_text']));

    // A verdict in the same turn as an action was refused; the next one, after the screenshot, counted.
    const title = byName.Title!;
    expect(title.status).toBe('passed');
    expect(title.attempts[0]?.checks[0]).toMatchObject({ status: 'pass', actual: 'Calculator' });
    const refusals = fake.requests.flatMap((r) => r.toolResults).filter((t) => t.text.includes('your last action has not been observed'));
    expect(refusals.length).toBeGreaterThanOrEqual(1);

    expect(exitCodeFor(suite)).toBe(1);

    // JUnit: the flaky case carries its failed attempt as <flakyFailure>, the blocked one an <error>.
    const xml = renderJUnit(suite);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' }).parse(xml) as {
      testsuites: { '@_tests': string; '@_failures': string; '@_errors': string; testsuite: { testcase: Array<Record<string, unknown>> } };
    };
    expect(parsed.testsuites['@_tests']).toBe('6');
    expect(parsed.testsuites['@_failures']).toBe('1');
    expect(parsed.testsuites['@_errors']).toBe('3');
    const flakyCase = parsed.testsuites.testsuite.testcase.find((c) => c['@_name'] === 'Flaky')!;
    expect(flakyCase).toHaveProperty('flakyFailure');
    expect(flakyCase).not.toHaveProperty('failure');
    expect(String(flakyCase['system-out'])).toMatch(/FLAKY: passed on attempt 2/);
  }, 240_000);
});
