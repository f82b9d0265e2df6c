import { describe, expect, it } from 'vitest';
import { foldOutcome, NO_FACTS, outcomeOf } from '../../src/main/sessions/outcome.js';
import { ruleLabel } from '../../src/shared/labels.js';
import { isQaRun, readQaLabels } from '../../src/shared/qa-labels.js';
import { isModeRule, RISK_RULE_IDS, SECRET_TEXT_RULE } from '../../src/shared/rule-ids.js';
import type { RunEvent } from '../../src/shared/events.js';

// Ids that cross files are typed constants in shared (issue 15 item 5): the QA labels
// one schema for writers and readers, the gate's rule ids one union.

const started = (labels: Record<string, string>) =>
  ({ type: 'run_started', seq: 1, ts: 1, task: 't', provider: 'anthropic', model: 'm', policy: 'auto', limits: { maxSteps: 1, maxWallMs: 1, maxCostUsd: 1 }, skills: [], labels }) as unknown as RunEvent;
const ended = (labels: Record<string, string>) => ({ type: 'run_ended', seq: 2, ts: 2, status: 'done', summary: 's', steps: 1, total: {}, labels }) as unknown as RunEvent;

describe('QA labels', () => {
  it('reads what fits and leaves out what does not (a log file is not trusted)', () => {
    expect(readQaLabels({ qaSuite: 's1', qaCase: 'adds', qaAttempt: '2', qaPlan: 'Calc', qaVerdict: 'pass', other: 'x' })).toEqual({
      qaSuite: 's1',
      qaCase: 'adds',
      qaAttempt: '2',
      qaPlan: 'Calc',
      qaVerdict: 'pass',
    });
    expect(readQaLabels({ qaVerdict: 'PASS' })).toEqual({});
    expect(readQaLabels(undefined)).toEqual({});
    expect(isQaRun({ qaCase: '' })).toBe(true);
    expect(isQaRun({ task: 'x' })).toBe(false);
  });

  it('the outcome fold reads the verdict label through the schema', () => {
    const fold = (labels: Record<string, string>) => outcomeOf([started({ qaSuite: 's' }), ended(labels)].reduce(foldOutcome, NO_FACTS));
    expect(fold({ qaVerdict: 'fail' })).toMatchObject({ verdict: 'failed', rule: 'qa-model-verdict' });
    expect(fold({ qaVerdict: 'maybe' })).toMatchObject({ verdict: 'blocked', rule: 'qa-no-verdict' });
  });
});

describe('rule ids', () => {
  it('every risk rule reads as a risk rule, the secret rule is one of them, modes are told apart', () => {
    expect(RISK_RULE_IDS).toContain(SECRET_TEXT_RULE);
    for (const id of RISK_RULE_IDS) expect(ruleLabel(id)).toMatch(/^the risk rule "/);
    expect(isModeRule('mode:ask')).toBe(true);
    expect(isModeRule('risk:shell')).toBe(false);
  });
});
