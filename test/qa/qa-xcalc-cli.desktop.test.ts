import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { call, pointFromFindText, qaModel, REPO_ROOT, runQaCli } from './qa-support.js';

/**
 * The acceptance test of issue 8: `deskpilot qa` runs a three-case xcalc plan on
 * Xvfb, driven by the fake model over the real Anthropic protocol. The model presses
 * keys (and finds AC with find_text), sees the display, and gives verdicts; DeskPilot
 * reads the display itself. One expectation in the plan is wrong, so one case fails.
 */
const PLAN = path.join(REPO_ROOT, 'test', 'qa', 'xcalc.plan.md');

let xvfb: Xvfb;
let fake: FakeModelServer;
let tmp: string;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  fake = await startFakeModel();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-qa-'));
});
afterAll(async () => {
  await fake?.close();
  await xvfb?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('deskpilot qa on xcalc', () => {
  it('runs three cases: 2 pass, the wrong expectation fails with a reason; JUnit and report are written', async () => {
    const turns: string[] = [];
    let findTextResult = '';
    fake.setFallback(
      qaModel(
        {
          'Adds two numbers': [
            () => ({ text: 'I look for the AC button.', toolCalls: [call.findText('AC')] }),
            (req) => {
              findTextResult = req.toolResults.at(-1)?.text ?? '';
              const at = pointFromFindText(findTextResult);
              if (!at) return { text: `find_text failed: ${findTextResult}` };
              return { text: 'Clearing, then 2+3=.', toolCalls: [call.click(...at), call.type('2+3=')] };
            },
            () => ({ text: 'The display shows 5.', toolCalls: [call.verdict('pass', 'The display shows 5 as expected.', { checks: [{ expectation: 2 }] })] }),
          ],
          'Multiplies two numbers': [
            () => ({ toolCalls: [call.type('9*9=')] }),
            () => ({ text: 'It shows 81.', toolCalls: [call.verdict('pass', 'The display shows 81.')] }),
          ],
          'Subtracts two numbers': [
            () => ({ toolCalls: [call.type('7-2=')] }),
            () => ({ text: 'It shows 5, not 4.', toolCalls: [call.verdict('fail', 'Expected the display to show 4, but it shows 5.')] }),
          ],
        },
        turns,
      ),
    );

    const junit = path.join(tmp, 'out', 'junit.xml');
    const report = path.join(tmp, 'out', 'report.html');
    const home = path.join(tmp, 'home');
    const result = await runQaCli(
      [
        'qa', PLAN, '--junit', junit, '--report', report,
        '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl,
      ],
      { ...xvfb.env, DESKPILOT_HOME: home, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: '' },
    );
    // Kept for people to look at (test-artifacts/ is not committed).
    const artifacts = path.join(REPO_ROOT, 'test-artifacts', 'qa');
    mkdirSync(artifacts, { recursive: true });
    for (const f of [junit, report]) {
      try {
        copyFileSync(f, path.join(artifacts, path.basename(f)));
      } catch {
        // asserted below
      }
    }
    const output = `${result.stdout}\n${result.stderr}\nturns: ${turns.join(' ')}`;
    expect(result.code, output).toBe(1);
    expect(findTextResult).toMatch(/"AC" at x=\d+, y=\d+/);

    // JUnit: parses, 3 testcases, exactly one failure, for the wrong expectation.
    const xml = readFileSync(junit, 'utf8');
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' }).parse(xml) as {
      testsuites: { '@_tests': string; '@_failures': string; testsuite: { testcase: Array<Record<string, unknown>> } };
    };
    expect(parsed.testsuites['@_tests']).toBe('3');
    expect(parsed.testsuites['@_failures']).toBe('1');
    const cases = parsed.testsuites.testsuite.testcase;
    expect(cases.map((c) => c['@_name'])).toEqual(['Adds two numbers', 'Multiplies two numbers', 'Subtracts two numbers']);
    const failed = cases.filter((c) => 'failure' in c);
    expect(failed.map((c) => c['@_name'])).toEqual(['Subtracts two numbers']);
    const failure = failed[0]!.failure as Record<string, string>;
    expect(failure['@_message']).toContain('Expected the display to show 4, but it shows 5.');
    // DeskPilot's own reading of the display is in the failure, and agrees with the model.
    expect(failure['@_message']).toMatch(/OCR of region "display" reads "5", expected "4"/);
    expect(String(failed[0]!['system-out'])).toMatch(/\[\[ATTACHMENT\|.+\.(png|jpg|webp)\]\]/);
    for (const c of cases.filter((x) => !('failure' in x))) {
      expect(String(c['system-out'])).toMatch(/check passed: Expect display: (5|81) — OCR of region "display" reads "(5|81)"/);
    }

    // The HTML report: self-contained (no external URL), a summary and each case's run.
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('Subtracts two numbers');
    expect(html).toMatch(/1 failed/);
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect((html.match(/class="dp-run"/g) ?? []).length).toBe(3);

    // The runs are ordinary sessions, labelled as one suite with per-case names.
    const sessions = path.join(home, 'sessions');
    const labels = readdirSync(sessions)
      .filter((d) => d !== 'index' && !d.startsWith('.'))
      .flatMap((d) => {
        try {
          const first = readFileSync(path.join(sessions, d, 'events.jsonl'), 'utf8').split('\n')[0]!;
          return [(JSON.parse(first) as { labels: Record<string, string> }).labels];
        } catch {
          return [];
        }
      });
    expect(labels.map((l) => l.qaCase).sort()).toEqual(['Adds two numbers', 'Multiplies two numbers', 'Subtracts two numbers']);
    expect(new Set(labels.map((l) => l.qaSuite)).size).toBe(1);
  }, 240_000);
});
