import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { call, pointFromFindText, qaModel, REPO_ROOT, runQaCli } from './qa-support.js';

/**
 * `deskpilot qa --replay` on xcalc (no accessibility tree: targets are found again by
 * their pixels and OCR words). A first suite runs two cases with the fake model and
 * caches their passing trajectories; the same suite with --replay passes both from the
 * cache with no model request; after one case's text changes, that case runs with the
 * model again while the other still comes from the cache. JUnit says which is which.
 */
let xvfb: Xvfb;
let fake: FakeModelServer;
let tmp: string;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  fake = await startFakeModel();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-qa-replay-'));
});
afterAll(async () => {
  await fake?.close();
  await xvfb?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

type JUnitCase = Record<string, unknown> & { properties: { property: Array<{ '@_name': string; '@_value': string }> | { '@_name': string; '@_value': string } } };

function junitCases(file: string): Array<{ name: string; source: string; failed: boolean }> {
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' }).parse(readFileSync(file, 'utf8')) as {
    testsuites: { testsuite: { testcase: JUnitCase[] | JUnitCase } };
  };
  const cases = [parsed.testsuites.testsuite.testcase].flat();
  return cases.map((c) => {
    const props = [c.properties.property].flat();
    return { name: String(c['@_name']), source: props.find((p) => p['@_name'] === 'source')?.['@_value'] ?? '', failed: 'failure' in c || 'error' in c };
  });
}

describe('deskpilot qa --replay', () => {
  it('caches passing cases, replays them with no model request, and runs a changed case with the model again', async () => {
    const plan = path.join(tmp, 'xcalc.plan.md');
    copyFileSync(path.join(REPO_ROOT, 'test', 'qa', 'xcalc.plan.md'), plan);
    const model = qaModel({
      'Adds two numbers': [
        () => ({ text: 'I look for the AC button.', toolCalls: [call.findText('AC')] }),
        (req) => {
          const at = pointFromFindText(req.toolResults.at(-1)?.text ?? '');
          if (!at) return { text: 'find_text failed' };
          return { text: 'Clearing, then 2+3=.', toolCalls: [call.click(...at), call.type('2+3=')] };
        },
        () => ({ text: 'The display shows 5.', toolCalls: [call.verdict('pass', 'The display shows 5 as expected.', { checks: [{ expectation: 2 }] })] }),
      ],
      'Multiplies two numbers': [
        () => ({ toolCalls: [call.type('9*9=')] }),
        () => ({ text: 'It shows 81.', toolCalls: [call.verdict('pass', 'The display shows 81.')] }),
      ],
    });
    const home = path.join(tmp, 'home');
    const env = { ...xvfb.env, DESKPILOT_HOME: home, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: '' };
    const args = (junit: string, ...more: string[]) => [
      'qa', plan, '--case', 'Adds two numbers', 'Multiplies two numbers', '--junit', junit,
      '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, ...more,
    ];

    // 1. With the model: both pass, and each passing trajectory is cached.
    fake.setFallback(model);
    const first = await runQaCli(args(path.join(tmp, 'first.xml')), env);
    expect(first.code, `${first.stdout}\n${first.stderr}`).toBe(0);
    expect(junitCases(path.join(tmp, 'first.xml'))).toEqual([
      { name: 'Adds two numbers', source: 'model', failed: false },
      { name: 'Multiplies two numbers', source: 'model', failed: false },
    ]);

    // 2. --replay: both from the cache, and the model is never asked (it would answer 400).
    fake.setFallback(undefined);
    const asked = fake.requests.length;
    const second = await runQaCli(args(path.join(tmp, 'second.xml'), '--replay'), env);
    expect(second.code, `${second.stdout}\n${second.stderr}`).toBe(0);
    expect(fake.requests.length).toBe(asked);
    expect(junitCases(path.join(tmp, 'second.xml'))).toEqual([
      { name: 'Adds two numbers', source: 'cache', failed: false },
      { name: 'Multiplies two numbers', source: 'cache', failed: false },
    ]);
    expect(second.stdout).toMatch(/PASS\s+Adds two numbers \[replayed from cache\]/);
    const xml = readFileSync(path.join(tmp, 'second.xml'), 'utf8');
    expect(xml).toContain('<property name="cached" value="2"/>');
    // DeskPilot's own check still read the display after the replay.
    expect(xml).toMatch(/check passed: Expect display: 81 — OCR of region &quot;display&quot; reads &quot;81&quot;/);

    // 3. A changed case text invalidates its cache: the model runs it; the other still replays.
    writeFileSync(plan, readFileSync(plan, 'utf8').replace('1. Press 9, *, 9 and =.', '1. Press 9, then *, then 9, then =.'));
    fake.setFallback(model);
    const third = await runQaCli(args(path.join(tmp, 'third.xml'), '--replay'), env);
    expect(third.code, `${third.stdout}\n${third.stderr}`).toBe(0);
    expect(junitCases(path.join(tmp, 'third.xml'))).toEqual([
      { name: 'Adds two numbers', source: 'cache', failed: false },
      { name: 'Multiplies two numbers', source: 'model', failed: false },
    ]);
    expect(fake.requests.length).toBeGreaterThan(asked);
  }, 300_000);
});
