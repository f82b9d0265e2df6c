import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlan, readPlanFile } from '../../src/main/qa/parse-plan.js';
import { PlanError } from '../../src/main/qa/plan-types.js';
import { parseSkillMarkdown } from '../../src/main/agent/skills/parse-skill.js';
import { SkillError } from '../../src/main/agent/skills/skill-types.js';
import { compileUserRules, ruleMatches } from '../../src/main/agent/supervision/user-rules.js';
import { ConfigError, loadConfig } from '../../src/main/config/index.js';
import { LimitsSchema } from '../../src/shared/events.js';

// Class 10: inputs a person (or a hostile file) controls cannot hang the supervisor,
// fire a timer at once, or flood the terminal. No timing is asserted: a hang shows up
// as the test's own timeout, an overflowed timer as a wrong answer.

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'dp-sec-c10-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a catastrophic user regex', () => {
  const evil = { type: 'type' as const, text: `${'a'.repeat(30)}b` };

  it('^(a+)+$ on a runaway subject returns: a deny rule fails closed, an allow rule does not allow', () => {
    const [deny, allow] = compileUserRules([
      { effect: 'deny', textPattern: '^(a+)+$', reason: 'no a-runs' },
      { effect: 'allow', textPattern: '^(a+)+$' },
    ]);
    // On the old code this test does not return for minutes (2^30 backtracking steps on the main thread).
    expect(ruleMatches(deny!, evil, { step: 0 })).toBe(true);
    expect(ruleMatches(allow!, evil, { step: 0 })).toBe(false);
  }, 120_000);

  it('ordinary patterns still match as before, case-insensitive by default', () => {
    const [rule] = compileUserRules([{ effect: 'deny', textPattern: 'rm\\s+-rf' }]);
    expect(ruleMatches(rule!, { type: 'shell', command: 'sudo RM  -rf /' }, { step: 0 })).toBe(true);
    expect(ruleMatches(rule!, { type: 'shell', command: 'ls -la' }, { step: 0 })).toBe(false);
    const [window] = compileUserRules([{ effect: 'deny', windowPattern: '/^Bank/', actions: ['type'] }]);
    expect(ruleMatches(window!, { type: 'type', text: 'x' }, { step: 0, activeWindow: { title: 'Bank login', app: 'firefox' } })).toBe(true);
    expect(ruleMatches(window!, { type: 'type', text: 'x' }, { step: 0, activeWindow: { title: 'bank login', app: 'firefox' } })).toBe(false);
  });
});

describe('a SKILL.md with a huge front matter', () => {
  it('is refused at once with a clear error; duplicate keys are still found in small ones', () => {
    const keys = Array.from({ length: 30_000 }, (_, i) => `k${i}: v`).join('\n');
    const huge = `---\nname: big\ndescription: d\n${keys}\n---\nbody`;
    expect(() => parseSkillMarkdown(huge, 'SKILL.md')).toThrow(SkillError);
    expect(() => parseSkillMarkdown(huge, 'SKILL.md')).toThrow(/front matter is \d+ characters; at most 65536/);
    expect(() => parseSkillMarkdown('---\nname: a\ndescription: d\nname: b\n---\nx', 'SKILL.md')).toThrow(/unique.*"name" appears twice/);
  });
});

describe('durations beyond what a timer can wait', () => {
  it('limits.maxWallMs above 2^31-1 ms is refused with the reason, in the schema and in config.json', async () => {
    expect(LimitsSchema.safeParse({ maxWallMs: 2 ** 31 - 1 }).success).toBe(true);
    const over = LimitsSchema.safeParse({ maxWallMs: 2 ** 31 });
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]?.message).toMatch(/24\.8 days/);
    writeFileSync(path.join(scratch, 'config.json'), JSON.stringify({ limits: { maxSteps: 5, maxWallMs: 30 * 24 * 3_600_000, maxCostUsd: 1 } }));
    await expect(loadConfig(scratch)).rejects.toThrow(ConfigError);
    await expect(loadConfig(scratch)).rejects.toThrow(/24\.8 days/);
  });

  it('a plan timeout of 30 days is a plan error naming the line', () => {
    const plan = ['# P', '## App', '- Launch: xcalc', '## Defaults', '- Timeout: 30 days', '## Case: a', 'Steps:', '- x', 'Expected:', '- y'].join('\n');
    expect(() => parsePlan(plan.replace('30 days', '43200 min'), 'p.md')).toThrow(/p\.md:5: .*24\.8 days/);
    const start = ['# P', '## App', '- Launch: xcalc', '- Start timeout: 2147484s', '## Case: a', 'Steps:', '- x', 'Expected:', '- y'].join('\n');
    expect(() => parsePlan(start, 'p.md')).toThrow(/p\.md:4: .*24\.8 days/);
  });
});

describe('junk as a plan', () => {
  it('35 MB is refused by size in one line', async () => {
    const file = path.join(scratch, 'junk.plan.md');
    writeFileSync(file, Buffer.alloc(35 * 1024 * 1024, 'junk line\n'));
    const error = await readPlanFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanError);
    expect((error as PlanError).message.split('\n')).toHaveLength(1);
    expect((error as PlanError).message).toMatch(/it is 35 MiB; a plan may be at most 1 MiB/);
  });

  it('within the size, thousands of problems print as 20 and a count', () => {
    const junk = ['# Junk', '## Defaults', ...Array.from({ length: 5_000 }, (_, i) => `- Bogus${i}: 1`)].join('\n');
    const error = (() => {
      try {
        parsePlan(junk, 'junk.md');
      } catch (e) {
        return e as PlanError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(PlanError);
    const lines = error!.message.split('\n');
    expect(lines).toHaveLength(21);
    expect(lines.at(-1)).toMatch(/… and \d+ more problems/);
    expect(error!.problems.length).toBeGreaterThan(5_000 - 1);
  });
});
