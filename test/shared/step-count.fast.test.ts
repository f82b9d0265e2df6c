import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/shared/events.js';
import { EMPTY_TALLY, countSteps, isFinalMessageStep, stepsText, tallyStep, tallySteps } from '../../src/shared/step-count.js';

// The one step count (issue 34 item 6) over hand-made event streams: what counts as a step
// and what is only the final message or a screenshot.

const zero = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 };
let seq = 0;
const ev = (e: Record<string, unknown>): RunEvent => ({ runId: 'r', at: 1, seq: seq++, ...e }) as unknown as RunEvent;
const obs = (step: number) => ev({ type: 'observation', step, observation: { id: `o${step}` } });
const usage = (step: number) => ev({ type: 'usage', step, stepUsage: zero, total: zero });
const proposed = (step: number, type: string, id = `p${step}-${type}`) => ev({ type: 'action_proposed', step, proposalId: id, action: { type }, reasoning: '' });
const text = (step: number) => ev({ type: 'model_text', step, text: 'words', kind: 'text' });
const ended = (status: string) => ev({ type: 'run_ended', status, summary: '', steps: 99, total: zero });
const started = () => ev({ type: 'run_started', task: 't' });

describe('countSteps', () => {
  it('counts steps the model answered in, not the final finish', () => {
    const t = tallySteps([started(), obs(0), usage(0), proposed(0, 'click'), obs(1), usage(1), proposed(1, 'finish'), ended('done')]);
    expect(countSteps(t)).toBe(1);
    expect(isFinalMessageStep(t, 1)).toBe(true);
    expect(isFinalMessageStep(t, 0)).toBe(false);
  });

  it('a step with a finish beside another action is a step', () => {
    expect(countSteps(tallySteps([proposed(0, 'click'), proposed(0, 'finish'), ended('done')]))).toBe(1);
    expect(countSteps(tallySteps([proposed(0, 'finish'), proposed(0, 'key'), ended('done')]))).toBe(1);
  });

  it('the screenshot after the last turn (a step or time limit, a stop) is no step', () => {
    const t = tallySteps([obs(0), usage(0), proposed(0, 'click'), obs(1), usage(1), proposed(1, 'key'), obs(2), ended('limit')]);
    expect(countSteps(t)).toBe(2);
  });

  it('a last reply with no action ends the run with its text: the final message when done or failed, a step otherwise', () => {
    const base = [usage(0), proposed(0, 'click'), usage(1), text(1)];
    expect(countSteps(tallySteps([...base, ended('done')]))).toBe(1);
    expect(countSteps(tallySteps([...base, ended('failed')]))).toBe(1);
    expect(countSteps(tallySteps([...base, ended('error')]))).toBe(2);
    // Still running: nothing is final yet.
    expect(countSteps(tallySteps(base))).toBe(2);
  });

  it('a reply with no action that the run answered with a correction is a step (a later step follows)', () => {
    expect(countSteps(tallySteps([usage(0), text(0), usage(1), proposed(1, 'click'), usage(2), proposed(2, 'finish'), ended('done')]))).toBe(2);
  });

  it('an action the model got wrong is a step even with no proposal', () => {
    const t = tallySteps([usage(0), ev({ type: 'action_invalid', step: 0, error: 'bad' }), usage(1), proposed(1, 'finish'), ended('done')]);
    expect(countSteps(t)).toBe(1);
  });

  it('a resumed run goes on counting from its earlier part; its first end is no end any more', () => {
    const first = tallySteps([started(), usage(0), text(0), ended('stopped')]);
    expect(countSteps(first)).toBe(1);
    const resumed = tallySteps([started(), usage(1), proposed(1, 'click'), usage(2), proposed(2, 'finish'), ended('done')], first);
    expect(countSteps(resumed)).toBe(2);
  });

  // Mutation gaps (stryker, 83.18%: 18 of 107 survived) — each case below fails on one of them.
  it('each kind of answer alone makes its step: a usage report, text, a proposal it got wrong, an action run', () => {
    const alone = [usage(0), text(0), ev({ type: 'action_invalid', step: 0, error: 'bad' }), ev({ type: 'action_executed', step: 0, proposalId: 'p', result: {} })];
    for (const answer of alone) expect(countSteps(tallySteps([started(), obs(0), answer, ended('stopped')])), answer.type).toBe(1);
    // A screenshot alone is none (the same stream without the answer).
    expect(countSteps(tallySteps([started(), obs(0), ended('stopped')]))).toBe(0);
  });

  it("a last step whose only answer the model got wrong is a step, not the final message, even with a finish proposed before it", () => {
    expect(countSteps(tallySteps([started(), obs(0), ev({ type: 'action_invalid', step: 0, error: 'bad' }), ended('failed')]))).toBe(1);
    const t = tallySteps([started(), obs(0), proposed(0, 'finish'), ev({ type: 'action_invalid', step: 0, error: 'bad' }), ended('done')]);
    expect(t.steps[0]).toEqual({ proposals: 'finish-only', invalid: true });
  });

  it('a finish after another action keeps the step "acted"', () => {
    expect(tallySteps([proposed(0, 'click'), proposed(0, 'finish')]).steps[0]).toEqual({ proposals: 'acted', invalid: false });
  });

  it('a resumed run is not ended the moment its run_started is read; a first run_started changes nothing', () => {
    const ended_ = tallySteps([started(), usage(0), proposed(0, 'click'), ended('done')]);
    const resumed = tallyStep(ended_, started());
    expect(resumed.ended).toBeUndefined();
    expect(resumed.steps).toBe(ended_.steps);
    expect(tallyStep(EMPTY_TALLY, started())).toBe(EMPTY_TALLY);
  });

  it('an event that says nothing new about a step leaves the tally the same object; an unknown step is no final message', () => {
    const t = tallySteps([usage(0), proposed(0, 'click')]);
    expect(tallyStep(t, text(0))).toBe(t);
    expect(isFinalMessageStep(t, 7)).toBe(false);
    expect(isFinalMessageStep(EMPTY_TALLY, 0)).toBe(false);
  });

  it('reads "1 step" and "2 steps"', () => {
    expect([stepsText(0), stepsText(1), stepsText(2)]).toEqual(['0 steps', '1 step', '2 steps']);
  });
});
