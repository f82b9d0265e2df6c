/**
 * decideStatus: each numbered rule, and that an earlier rule wins over a later one
 * (an interruption over everything, a setup error over the agent, a question over the
 * run's own ending, the checker's score alone for passed/failed).
 */
import { describe, expect, it } from 'vitest';
import { decideStatus, type StatusInput } from '../../../src/main/eval/run/status.js';
import { duration, progressLine } from '../../../src/main/eval/run/progress.js';

const agent = (over: Partial<NonNullable<StatusInput['agent']>> = {}): NonNullable<StatusInput['agent']> => ({ status: 'done', summary: 'did it', exitCode: 0, stderrTail: '', ...over });

describe('decideStatus', () => {
  it('1. interrupted wins over everything', () => {
    expect(decideStatus({ interrupted: 'interrupted (Ctrl-C)', setupError: 'x', agent: agent(), check: { score: 1 } })).toMatchObject({ status: 'interrupted', success: false, failure: 'interrupted', reason: 'interrupted (Ctrl-C)' });
  });
  it('2. skipped with its reason', () => {
    expect(decideStatus({ skipped: 'getter vm_screen_size is not supported' })).toMatchObject({ status: 'skipped', reason: 'getter vm_screen_size is not supported', failure: 'skipped' });
  });
  it('3. the runner\'s own failure is an error of its kind, before the setup and the agent', () => {
    expect(decideStatus({ runnerError: 'no virtual desktop: Xvfb exited', setupError: 'x', agent: agent(), check: { score: 1 } })).toMatchObject({ status: 'error', success: false, score: 0, failure: 'runner', reason: 'the runner failed: no virtual desktop: Xvfb exited' });
    expect(decideStatus({ interrupted: 'interrupted (Ctrl-C)', runnerError: 'x' })).toMatchObject({ status: 'interrupted' });
    expect(decideStatus({ skipped: 'getter x', runnerError: 'x' })).toMatchObject({ status: 'skipped' });
  });
  it('4. a setup error is an error, before the agent', () => {
    expect(decideStatus({ setupError: 'step 1 (execute): boom', agent: agent(), check: { score: 0 } })).toMatchObject({ status: 'error', failure: 'setup', reason: 'setup failed: step 1 (execute): boom' });
  });
  it('5. a question to the person: needed a person, whatever the checker says', () => {
    const out = decideStatus({ agent: agent({ status: 'stopped', askedPerson: 'the model asked: which one?' }), check: { score: 1 } });
    expect(out).toMatchObject({ status: 'needed a person', success: false, failure: 'person' });
    expect(out.reason).toContain('which one?');
  });
  it('6. a run that ended in an error, or with no ending at all, is an error', () => {
    expect(decideStatus({ agent: agent({ status: 'error', summary: 'provider refused the key' }) })).toMatchObject({ status: 'error', failure: 'run', reason: 'the run failed: provider refused the key' });
    expect(decideStatus({ agent: agent({ status: undefined, exitCode: 2, stderrTail: 'x\ndeskpilot: no API key: set ANTHROPIC_API_KEY\n' }) })).toMatchObject({ status: 'error', reason: 'the run failed: no API key: set ANTHROPIC_API_KEY' });
  });
  it('7. a checker that threw is an error, not a failure', () => {
    expect(decideStatus({ agent: agent(), check: { error: 'not in the file cache' } })).toMatchObject({ status: 'error', failure: 'check-error', reason: 'the checker failed: not in the file cache' });
    expect(decideStatus({ agent: agent() })).toMatchObject({ status: 'error', failure: 'check-error' });
  });
  it('8. the score alone: 1 passes whatever the agent claimed, less fails with the kind of failure', () => {
    expect(decideStatus({ agent: agent({ status: 'failed' }), check: { score: 1, detail: 'exact_match: 1' } })).toMatchObject({ status: 'passed', success: true, score: 1 });
    expect(decideStatus({ agent: agent(), check: { score: 0.5 } })).toMatchObject({ status: 'failed', success: false, score: 0.5, failure: 'checker' });
    expect(decideStatus({ agent: agent({ status: 'limit' }), check: { score: 0 } })).toMatchObject({ status: 'failed', failure: 'limit' });
    expect(decideStatus({ agent: agent({ status: 'stopped' }), check: { score: 0 } })).toMatchObject({ status: 'failed', failure: 'stopped' });
    // No agent (an anti-reference): the checker's word.
    expect(decideStatus({ check: { score: 0, detail: 'no' } })).toMatchObject({ status: 'failed', failure: 'checker', reason: 'the checker said no (score 0): no' });
    // Scores outside 0–1 are clamped, never a pass above 1 by accident.
    expect(decideStatus({ check: { score: 1.5 } })).toMatchObject({ status: 'passed', score: 1 });
    expect(decideStatus({ check: { score: -1 } })).toMatchObject({ status: 'failed', score: 0 });
  });
});

describe('decideStatus reasons, word for word (every view shows them)', () => {
  it('a run that ended with no result: the last line of its stderr, else how it ended', () => {
    const noEnd = (stderrTail: string, exitCode: number | null) => decideStatus({ agent: agent({ status: undefined, exitCode, stderrTail }) }).reason;
    expect(noEnd('', null)).toBe('the run failed: the run ended without a result (exit by a signal)');
    expect(noEnd('', 3)).toBe('the run failed: the run ended without a result (exit 3)');
    // The last non-empty line, trimmed, its "deskpilot: " prefix (only at its start) dropped, at most 300 characters.
    expect(noEnd('first\nsecond\nerror: deskpilot: third   \n\n', 1)).toBe('the run failed: error: deskpilot: third');
    expect(noEnd('a\nb\ndeskpilot: c', 1)).toBe('the run failed: c');
    expect(noEnd(`deskpilot: ${'x'.repeat(400)}`, 1)).toBe(`the run failed: ${'x'.repeat(300)}`);
  });

  it('not checked; passed with and without the checker\'s detail (at most 400 characters of it)', () => {
    expect(decideStatus({ agent: agent() }).reason).toBe('the task was not checked');
    expect(decideStatus({ check: { score: 1 } }).reason).toBe('the checker passed the end state');
    expect(decideStatus({ check: { score: 1, detail: 'exact_match: 1' } }).reason).toBe('the checker passed the end state: exact_match: 1');
    expect(decideStatus({ check: { score: 0, detail: 'd'.repeat(500) } }).reason).toBe(`the checker said no (score 0): ${'d'.repeat(400)}`);
  });

  it('failed: the score to three places, and how the run ended with its summary (at most 160 characters) beside it', () => {
    expect(decideStatus({ check: { score: 0.12345 } }).reason).toBe('the checker said no (score 0.123)');
    expect(decideStatus({ agent: agent({ summary: '' }), check: { score: 0 } }).reason).toBe('the checker said no (score 0) (the run ended done)');
    expect(decideStatus({ agent: agent({ summary: 's'.repeat(200) }), check: { score: 0, detail: 'no' } }).reason).toBe(`the checker said no (score 0): no (the run ended done: ${'s'.repeat(160)})`);
  });

  it('a limit or a stop: a failure of its kind, never a success, with the checker\'s detail or score', () => {
    expect(decideStatus({ agent: agent({ status: 'limit', summary: 'step limit (8)' }), check: { score: 0.5 } })).toEqual({
      status: 'failed',
      success: false,
      score: 0.5,
      failure: 'limit',
      reason: 'a step or cost limit ended the run (the run ended limit: step limit (8)); the checker said 0.5',
    });
    expect(decideStatus({ agent: agent({ status: 'limit', summary: '' }), check: { score: 0, detail: 'exact_match: 0' } }).reason).toBe('a step or cost limit ended the run (the run ended limit); the checker said: exact_match: 0');
    expect(decideStatus({ agent: agent({ status: 'stopped', summary: 'Ctrl-C' }), check: { score: 0.25 } })).toEqual({
      status: 'failed',
      success: false,
      score: 0.25,
      failure: 'stopped',
      reason: 'the run was stopped (the run ended stopped: Ctrl-C); the checker said 0.25',
    });
    expect(decideStatus({ agent: agent({ status: 'stopped', summary: '' }), check: { score: 0, detail: 'no file' } }).reason).toBe('the run was stopped (the run ended stopped); the checker said: no file');
  });
});

describe('progress line', () => {
  it('done/total, passes, spend and an ETA at the pace so far', () => {
    expect(progressLine({ done: 2, total: 8, passed: 1, spentUsd: 0.4213, elapsedMs: 60_000, workers: 2 })).toBe('[2/8] 1 passed · $0.4213 · ETA 3m00s');
    expect(progressLine({ done: 8, total: 8, passed: 8, spentUsd: 0, elapsedMs: 1, workers: 1 })).toBe('[8/8] 8 passed · $0.00');
    expect(duration(59_400)).toBe('59s');
    expect(duration(3 * 3600_000 + 5 * 60_000)).toBe('3h05m');
  });
});
