import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../src/main/qa/parse-plan.js';
import { caseId, casesInShard, MAX_SHARDS, parseShard, planFingerprint, shardOfCase, ShardSpecError } from '../../src/main/qa/shard.js';
import type { TestPlan } from '../../src/main/qa/plan-types.js';
import { runQaCli } from './qa-support.js';

/** A plan of `names`, in that order; each case's text is derived from its name. */
function plan(names: readonly string[], launch = 'xcalc'): TestPlan {
  const cases = names.map((n) => `## Case: ${n}\nSteps:\n1. Do ${n}.\nExpected:\n- ${n} is done.\n`).join('\n');
  return parsePlan(`# Shards\n## App\n- Launch: \`${launch}\`\n\n${cases}`, 'shards.plan.md');
}

const NAMES = Array.from({ length: 40 }, (_, i) => `case ${i + 1}`);

function assignment(p: TestPlan, total: number): Map<string, number> {
  const out = new Map<string, number>();
  for (let index = 1; index <= total; index++) for (const c of casesInShard(p, { index, total })) out.set(c.name, index);
  return out;
}

describe('--shard i/n', () => {
  it('parses i/n and refuses everything else with a message that says what is wrong', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, total: 3 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, total: 1 });
    const refused: Array<[string, RegExp]> = [
      ['0/3', /index runs from 1 to 3/],
      ['4/3', /index runs from 1 to 3/],
      ['1/0', /at least 1/],
      [`1/${MAX_SHARDS + 1}`, new RegExp(`at most ${MAX_SHARDS} shards`)],
      ['2', /write i\/n/],
      ['-1/3', /write i\/n/],
      ['1.5/3', /write i\/n/],
      ['a/b', /write i\/n/],
      ['', /write i\/n/],
      ['1/3/5', /write i\/n/],
    ];
    for (const [text, message] of refused) {
      expect(() => parseShard(text), text).toThrow(ShardSpecError);
      expect(() => parseShard(text), text).toThrow(message);
    }
  });

  it('puts every case in exactly one shard, for every n', () => {
    const p = plan(NAMES);
    for (let total = 1; total <= 9; total++) {
      const seen = NAMES.map((name) => [1, 2, 3, 4, 5, 6, 7, 8, 9].slice(0, total).filter((index) => casesInShard(p, { index, total }).some((c) => c.name === name)).length);
      expect(seen, `n=${total}`).toEqual(NAMES.map(() => 1));
    }
    // 40 cases over 4 shards: hashing spreads them (no shard empty, none with more than half).
    const sizes = [1, 2, 3, 4].map((index) => casesInShard(p, { index, total: 4 }).length);
    expect(Math.min(...sizes)).toBeGreaterThan(0);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(20);
  });

  it('keeps each case in its shard when the plan is reordered, cases are added or removed', () => {
    const before = assignment(plan(NAMES), 4);
    const shuffled = [...NAMES].reverse();
    const grown = [...shuffled.slice(0, 20), 'a new case', 'another one', ...shuffled.slice(20, 35)]; // 5 removed, 2 added
    const after = assignment(plan(grown), 4);
    for (const name of grown.filter((n) => NAMES.includes(n))) expect(after.get(name), name).toBe(before.get(name));
  });

  it('ties a case to its text and its app: another app or other steps are another case', () => {
    const a = plan(['one']);
    const b = plan(['one'], 'mousepad');
    expect(caseId(a, a.cases[0]!)).not.toBe(caseId(b, b.cases[0]!));
    const edited = { ...a.cases[0]!, steps: ['Do one, twice.'] };
    expect(caseId(a, edited)).not.toBe(caseId(a, a.cases[0]!));
    // The line it sits on is not part of it.
    const moved = { ...a.cases[0]!, line: 99 };
    expect(caseId(a, moved)).toBe(caseId(a, a.cases[0]!));
    expect(shardOfCase(caseId(a, a.cases[0]!), 1)).toBe(1);
  });

  it('fingerprints the plan: the same cases in another order match, another case does not', () => {
    expect(planFingerprint(plan(NAMES))).toBe(planFingerprint(plan([...NAMES].reverse())));
    expect(planFingerprint(plan(NAMES))).not.toBe(planFingerprint(plan([...NAMES, 'extra'])));
    expect(planFingerprint(plan(NAMES))).not.toBe(planFingerprint(plan(NAMES, 'gnome-calculator')));
  });

  it('deskpilot qa refuses a bad --shard as a usage error (exit 2) before reading the plan', async () => {
    const result = await runQaCli(['qa', 'no-such-plan.md', '--shard', '4/3'], { ...process.env, DESKPILOT_HOME: '/nonexistent-dp-home' });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("option '--shard <i/n>' argument '4/3' is invalid");
    expect(result.stderr).toContain('the shard index runs from 1 to 3');
  }, 60_000);
});
