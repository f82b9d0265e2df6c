import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { call, qaModel, runQaCli } from './qa-support.js';

/**
 * Issue 20's shard test: a 6-case xcalc plan, run whole and as --shard 1/3, 2/3, 3/3
 * (each into its own --out-dir) with the fake model; every case runs in exactly one
 * shard, and `qa merge` of the three gives the same counts as the whole run.
 */
const PLAN = `# Sharded xcalc
## App
- Launch: \`xcalc -geometry 260x340+100+100\`
- Window: Calculator
- Region display: 8, 2, 248, 22
## Defaults
- Timeout: 60s
- Max steps: 6
## Case: Adds
Steps:
1. Press 2, +, 3 and =.
Expected:
- Expect display: 5
## Case: Multiplies
Steps:
1. Press 9, *, 9 and =.
Expected:
- Expect display: 81
## Case: Subtracts
Steps:
1. Press 7, -, 2 and =.
Expected:
- Expect display: 4
## Case: Divides
Steps:
1. Press 8, /, 2 and =.
Expected:
- Expect display: 4
## Case: Needs a printer
Steps:
1. Print the result.
Expected:
- A page comes out.
## Case: Ones
Steps:
1. Press 1, +, 1 and =.
Expected:
- Expect display: 2
`;

const KEYS: Record<string, string> = { Adds: '2+3=', Multiplies: '9*9=', Subtracts: '7-2=', Divides: '8/2=', Ones: '1+1=' };

let xvfb: Xvfb;
let fake: FakeModelServer;
let tmp: string;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1024, height: 768 });
  fake = await startFakeModel();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-qa-shard-'));
  const typing = (keys: string, fails: boolean) => [
    () => ({ toolCalls: [call.type(keys)] }),
    () => ({ toolCalls: [fails ? call.verdict('fail', 'The display shows 5, not 4.') : call.verdict('pass', 'The display shows the result.')] }),
  ];
  fake.setFallback(
    qaModel({
      ...Object.fromEntries(Object.entries(KEYS).map(([name, keys]) => [name, typing(keys, name === 'Subtracts')])),
      'Needs a printer': [() => ({ toolCalls: [call.verdict('blocked', 'There is no printer on this machine.')] })],
    }),
  );
});
afterAll(async () => {
  await fake?.close();
  await xvfb?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function qa(args: string[]) {
  const planFile = path.join(tmp, 'sharded.plan.md');
  writeFileSync(planFile, PLAN);
  return runQaCli(
    ['qa', planFile, '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, ...args],
    { ...xvfb.env, DESKPILOT_HOME: path.join(tmp, 'home'), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: '' },
  );
}

interface Results {
  shard: { index: number; total: number } | null;
  counts: Record<string, number>;
  cases: Array<{ name: string; status: string; attempts: Array<{ session?: string }> }>;
}
const results = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as Results;

function junitCounts(file: string) {
  const t = (new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' }).parse(readFileSync(file, 'utf8')) as { testsuites: Record<string, string> }).testsuites;
  return { tests: t['@_tests'], failures: t['@_failures'], errors: t['@_errors'], skipped: t['@_skipped'] };
}

describe('deskpilot qa --shard + qa merge', () => {
  it('3 shards cover every case exactly once and merge to the counts of one whole run', async () => {
    const whole = path.join(tmp, 'whole');
    const single = await qa(['--out-dir', whole]);
    expect(single.code, `${single.stdout}\n${single.stderr}`).toBe(1);
    expect(results(whole).counts).toMatchObject({ passed: 4, failed: 1, blocked: 1, error: 0 });

    const shardDirs: string[] = [];
    for (const index of [1, 2, 3]) {
      const dir = path.join(tmp, `shard-${index}`);
      shardDirs.push(dir);
      const run = await qa(['--shard', `${index}/3`, '--out-dir', dir]);
      expect([0, 1], `${run.stdout}\n${run.stderr}`).toContain(run.code);
      expect(run.stdout).toContain(`shard ${index}/3:`);
      const r = results(dir);
      expect(r.shard).toEqual({ index, total: 3 });
      // The shard's sessions are in its folder, labelled with the shard.
      for (const c of r.cases) {
        const session = c.attempts.at(-1)!.session!;
        const first = JSON.parse(readFileSync(path.join(dir, session, 'events.jsonl'), 'utf8').split('\n')[0]!) as { labels: Record<string, string> };
        expect(first.labels).toMatchObject({ qaCase: c.name, qaShard: `${index}/3` });
      }
      expect(readFileSync(path.join(dir, 'junit.xml'), 'utf8')).toContain(`[shard ${index}/3]`);
      expect(readFileSync(path.join(dir, 'report.html'), 'utf8')).toContain(`Shard: <b>${index}/3</b>`);
    }
    const names = shardDirs.flatMap((d) => results(d).cases.map((c) => c.name));
    expect(names.sort()).toEqual(['Adds', 'Divides', 'Multiplies', 'Needs a printer', 'Ones', 'Subtracts']);
    // The replay cache (qa --replay) says which shard's run each passing trajectory is from.
    const cacheDir = path.join(tmp, 'home', 'qa', 'replay-cache');
    const cached = readdirSync(cacheDir).map((f) => JSON.parse(readFileSync(path.join(cacheDir, f), 'utf8')) as { caseName: string; shard?: { index: number; total: number } });
    const shardOf = (name: string) => shardDirs.findIndex((d) => results(d).cases.some((c) => c.name === name)) + 1;
    expect(cached.map((c) => c.caseName).sort()).toEqual(['Adds', 'Divides', 'Multiplies', 'Ones']);
    for (const c of cached) expect(c.shard, c.caseName).toEqual({ index: shardOf(c.caseName), total: 3 });

    const all = path.join(tmp, 'merged', 'all.xml');
    const report = path.join(tmp, 'merged', 'all.html');
    const merged = await runQaCli(['qa', 'merge', ...shardDirs, '--junit', all, '--report', report], { ...process.env, DESKPILOT_HOME: path.join(tmp, 'home') });
    expect(merged.code, merged.stderr).toBe(single.code);
    expect(junitCounts(all)).toEqual(junitCounts(path.join(whole, 'junit.xml')));
    expect(junitCounts(all)).toMatchObject({ tests: '6', failures: '1', errors: '1' });
    const html = readFileSync(report, 'utf8');
    expect((html.match(/class="dp-run"/g) ?? []).length).toBe(6);
    expect(html).toMatch(/href="\.\.\/shard-\d\/sessions\/[^"]+\/events\.jsonl"/);
    // The two runs of the whole suite and the shards are separate sessions in the data folder too.
    expect(readdirSync(path.join(tmp, 'home', 'sessions')).filter((d) => !d.startsWith('.') && d !== 'index').length).toBe(12);
  }, 420_000);
});
