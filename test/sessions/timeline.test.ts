import { describe, expect, it } from 'vitest';
import { RunEventSchema, type RunEvent } from '../../src/shared/events.js';
import { buildRunView } from '../../src/main/sessions/export/timeline.js';
import { actionsOnImage } from '../../src/main/sessions/export/common.js';
import { overlaySvg } from '../../src/main/sessions/export/overlay.js';
import { observationRecord } from './fixture.js';

function events(list: Array<Record<string, unknown>>): RunEvent[] {
  return list.map((e, seq) => RunEventSchema.parse({ v: 1, runId: 'r', seq, at: 1000 + seq, ...e }));
}

const click = { type: 'click', x: 10, y: 20, button: 'left', clicks: 1, modifiers: [] };

describe('run view', () => {
  it('shows a resumed step with the screenshot its action was proposed against, and attaches approvals to proposals', () => {
    const view = buildRunView(
      events([
        { type: 'run_started', task: 't', provider: 'p', model: 'm', policy: 'ask', limits: { maxSteps: 5, maxWallMs: 1000, maxCostUsd: 1 } },
        { type: 'observation', step: 0, observation: observationRecord('before-crash'), image: 'a.png', thumb: 'a.png' },
        { type: 'run_started', task: 't', provider: 'p', model: 'm', policy: 'ask', limits: { maxSteps: 5, maxWallMs: 1000, maxCostUsd: 1 }, resumedFromSeq: 1 },
        { type: 'observation', step: 0, observation: observationRecord('after-resume'), image: 'b.png', thumb: 'b.png' },
        { type: 'action_proposed', step: 0, proposalId: 'p0', action: click, observationId: 'after-resume' },
        { type: 'approval_requested', proposalId: 'p0', decision: { verdict: 'ask', rule: 'mode:ask', reason: 'ask mode' } },
        { type: 'approval_answered', proposalId: 'p0', answer: { decision: 'edit', action: { ...click, x: 30 } }, by: { kind: 'person', detail: 'ws:2' } },
        { type: 'action_executed', step: 0, proposalId: 'p0', action: { ...click, x: 60 }, by: { kind: 'person', detail: 'ws:2' }, ok: true, durationMs: 4 },
        { type: 'error', message: 'overloaded', retryInMs: 500 },
        { type: 'run_ended', status: 'done', steps: 1, total: {} },
      ]),
    );
    expect(view.resumes).toHaveLength(1);
    expect(view.steps).toHaveLength(1);
    const [step] = view.steps;
    expect(step!.observation?.image).toBe('b.png');
    expect(step!.actions[0]!.answered?.by.detail).toBe('ws:2');
    expect(step!.actions[0]!.executed?.ok).toBe(true);
    expect(step!.notes.map((n) => n.type)).toEqual(['error']);
    // The person's edit is what is drawn, in image space.
    expect(actionsOnImage(step!)).toEqual([{ ...click, x: 30 }]);
    expect(view.summary).toMatchObject({ status: 'done', steps: 1, task: 't' });
  });

  it('draws each action kind in the image space, scaled to the rendered size', () => {
    const size = { width: 200, height: 100 };
    const svg = overlaySvg([{ type: 'click', x: 50, y: 40, button: 'left', clicks: 1, modifiers: [] }], size, { render: { width: 400, height: 200 } });
    expect(svg).toContain('viewBox="0 0 200 100"');
    expect(svg).toContain('width="400" height="200"');
    expect(svg).toContain('cx="50" cy="40"');
    const typed = overlaySvg([{ type: 'type', text: '<b>&"x"' }], size);
    expect(typed).toContain('&lt;b&gt;&amp;&quot;x&quot;');
    expect(overlaySvg([{ type: 'drag', path: [{ x: 1, y: 2 }, { x: 30, y: 40 }], button: 'left', modifiers: [] }], size)).toContain('M1 2L30 40');
  });
});
