import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkAction, type CheckedAction } from '../../src/os-control/check-action.js';
import type { RunEventInput } from '../../src/shared/events.js';
import { blockCommand } from '../../src/shared/code-block.js';
import type { ActionContext, GateRequest } from '../../src/main/agent/gate.js';
import { createSupervisedGate, type SupervisedGateOptions } from '../../src/main/agent/supervision/supervised-gate.js';

/** Proposals are checked actions, in the pixels of a 100×100 screenshot. */
const SPACE = { image: { width: 100, height: 100 } };
const a = (input: Record<string, unknown>): CheckedAction => {
  const r = checkAction(input, SPACE);
  if (!r.ok) throw new Error(r.error);
  return r.action;
};
const editor: ActionContext = { step: 1, activeWindow: { title: 'notes', app: 'mousepad' } };
const xterm: ActionContext = { step: 1, activeWindow: { title: 'bash', app: 'xterm' } };
let seq = 0;
const req = (action: CheckedAction, context: ActionContext = editor): GateRequest => ({ proposalId: `p${++seq}`, action, context, space: SPACE });

function setup(options: Partial<SupervisedGateOptions> = {}) {
  const events: RunEventInput[] = [];
  const gate = createSupervisedGate({ mode: 'ask', emit: (e) => events.push(e), ...options });
  const controller = new AbortController();
  return { gate, events, signal: controller.signal, controller };
}

/** Lets pending microtasks and promise callbacks run. */
const flush = () => new Promise((r) => setImmediate(r));

afterEach(() => vi.useRealTimers());

describe('gate outcomes and audit', () => {
  it('policy ask: the action does not come back until a person approves; by names the client', async () => {
    const { gate, events, signal } = setup();
    const r = req(a({ type: 'click', x: 5, y: 6 }));
    let outcome: unknown;
    void gate.submit(r, signal).then((o) => (outcome = o));
    await flush();
    expect(outcome).toBeUndefined();
    expect(gate.pending().map((i) => i.proposalId)).toEqual([r.proposalId]);
    // The event names the window the action lands in, for the person answering.
    expect(events).toEqual([
      { type: 'approval_requested', proposalId: r.proposalId, decision: expect.objectContaining({ verdict: 'ask', rule: 'mode:ask' }), window: r.context.activeWindow },
    ]);
    expect(gate.answerApproval(r.proposalId, { decision: 'approve' }, 'ws:3')).toBe(true);
    await flush();
    expect(outcome).toEqual({ kind: 'run', action: r.action, by: { kind: 'person', detail: 'ws:3' } });
    expect(events[1]).toEqual({ type: 'approval_answered', proposalId: r.proposalId, answer: { decision: 'approve' }, by: { kind: 'person', detail: 'ws:3' } });
    expect(gate.pending()).toEqual([]);
  });

  it('records mode and rule as who let unattended actions through', async () => {
    const { gate, signal } = setup({ mode: 'risky', rules: [{ effect: 'allow', actions: ['shell'], textPattern: '^ls' }] });
    expect(await gate.submit(req(a({ type: 'click', x: 1, y: 1 })), signal)).toMatchObject({ kind: 'run', by: { kind: 'mode', detail: 'risky' } });
    expect(await gate.submit(req(a({ type: 'screenshot' })), signal)).toMatchObject({ kind: 'run', by: { kind: 'rule', detail: 'observe' } });
    expect(await gate.submit(req(a({ type: 'shell', command: 'ls' })), signal)).toMatchObject({ kind: 'run', by: { kind: 'rule', detail: 'user:allow:0' } });
  });

  it('policy risky: ctrl+q, typing into xterm and a shell command wait', async () => {
    const { gate, signal } = setup({ mode: 'risky' });
    for (const [action, ctx, rule] of [
      [a({ type: 'key', keys: 'ctrl+q' }), editor, 'risk:destructive-combo'],
      [a({ type: 'type', text: 'ls' }), xterm, 'risk:terminal-type'],
      [a({ type: 'shell', command: 'ls' }), editor, 'risk:shell'],
    ] as const) {
      const r = req(action, ctx);
      const p = gate.submit(r, signal);
      await flush();
      expect(gate.pending()[0]).toMatchObject({ proposalId: r.proposalId, decision: { rule } });
      gate.answerApproval(r.proposalId, { decision: 'reject' }, 'cli');
      expect((await p).kind).toBe('reject');
    }
  });

  it('a deny rule blocks in every mode, including auto, and emits action_denied', async () => {
    for (const mode of ['ask', 'risky', 'auto'] as const) {
      const { gate, events, signal } = setup({ mode, rules: [{ effect: 'deny', keys: ['ctrl+q'], reason: 'no quitting' }] });
      const r = req(a({ type: 'key', keys: 'Control+Q' }));
      const out = await gate.submit(r, signal);
      expect(out).toEqual({ kind: 'deny', decision: expect.objectContaining({ verdict: 'deny', rule: 'user:deny:0', reason: 'no quitting' }) });
      expect(events).toEqual([{ type: 'action_denied', proposalId: r.proposalId, decision: expect.objectContaining({ rule: 'user:deny:0' }) }]);
      expect(gate.pending()).toEqual([]);
    }
  });

  it('reject carries the feedback for the model', async () => {
    const { gate, signal } = setup();
    const r = req(a({ type: 'click', x: 1, y: 1 }));
    const p = gate.submit(r, signal);
    await flush();
    gate.answerApproval(r.proposalId, { decision: 'reject', feedback: 'click the Save button instead' }, 'electron');
    expect(await p).toEqual({ kind: 'reject', feedback: 'click the Save button instead', by: { kind: 'person', detail: 'electron' } });
  });

  it('setMode changes the policy for later proposals', async () => {
    const { gate, signal } = setup({ mode: 'ask' });
    gate.setMode('auto');
    expect(gate.mode).toBe('auto');
    expect(await gate.submit(req(a({ type: 'click', x: 1, y: 1 })), signal)).toMatchObject({ kind: 'run', by: { kind: 'mode', detail: 'auto' } });
  });
});

describe('the one approval queue', () => {
  it('only the head item can be answered; the next one becomes head after', async () => {
    const { gate, signal } = setup();
    const r1 = req(a({ type: 'click', x: 1, y: 1 }));
    const r2 = req(a({ type: 'click', x: 2, y: 2 }));
    const p1 = gate.submit(r1, signal);
    const p2 = gate.submit(r2, signal);
    await flush();
    expect(gate.answer(r2.proposalId, { decision: 'approve' }, 'cli')).toEqual({ accepted: false, reason: expect.stringMatching(/head/) });
    expect(gate.answerApproval(r1.proposalId, { decision: 'approve' }, 'cli')).toBe(true);
    expect(gate.answerApproval(r2.proposalId, { decision: 'approve' }, 'cli')).toBe(true);
    expect((await p1).kind).toBe('run');
    expect((await p2).kind).toBe('run');
  });

  it('two answers in the same tick: exactly one wins', async () => {
    const { gate, events, signal } = setup();
    const r = req(a({ type: 'click', x: 1, y: 1 }));
    const p = gate.submit(r, signal);
    await flush();
    const results = [gate.answerApproval(r.proposalId, { decision: 'approve' }, 'ws:1'), gate.answerApproval(r.proposalId, { decision: 'reject', feedback: 'no' }, 'ws:2')];
    expect(results).toEqual([true, false]);
    expect(await p).toMatchObject({ kind: 'run', by: { detail: 'ws:1' } });
    expect(events.filter((e) => e.type === 'approval_answered')).toHaveLength(1);
  });

  it('answers from two async paths racing: exactly one wins, whichever comes first', async () => {
    for (let round = 0; round < 20; round++) {
      const { gate, events, signal } = setup();
      const r = req(a({ type: 'click', x: 1, y: 1 }));
      const p = gate.submit(r, signal);
      await flush();
      const answerLater = async (client: string, decision: 'approve' | 'reject', hops: number) => {
        for (let i = 0; i < hops; i++) await (i % 2 ? new Promise((res) => setImmediate(res)) : Promise.resolve());
        return gate.answerApproval(r.proposalId, { decision }, client);
      };
      const [x, y] = await Promise.all([answerLater('electron', 'approve', round % 3), answerLater('ws:7', 'reject', (round + 1) % 3)]);
      expect([x, y].filter(Boolean)).toHaveLength(1);
      const outcome = await p;
      const answered = events.filter((e) => e.type === 'approval_answered');
      expect(answered).toHaveLength(1);
      // The outcome is the winner's answer.
      expect(outcome.kind).toBe(x ? 'run' : 'reject');
    }
  });

  it('refuses an invalid answer and keeps the item', async () => {
    const { gate, signal } = setup();
    const r = req(a({ type: 'click', x: 1, y: 1 }));
    void gate.submit(r, signal);
    await flush();
    expect(gate.answer(r.proposalId, { decision: 'maybe' }, 'cli').accepted).toBe(false);
    expect(gate.answer('nope', { decision: 'approve' }, 'cli').accepted).toBe(false);
    expect(gate.pending()).toHaveLength(1);
  });

  it('edit: the edited action runs, validated like model output; an invalid edit is refused and the item stays', async () => {
    const { gate, events, signal } = setup({
      rules: [{ effect: 'deny', textPattern: 'secret-place' }],
    });
    const r = req(a({ type: 'click', x: 10, y: 10 }));
    const p = gate.submit(r, signal);
    await flush();
    expect(gate.answer(r.proposalId, { decision: 'edit', action: { type: 'click', x: 500, y: 10 } }, 'cli')).toEqual({ accepted: false, reason: expect.stringMatching(/0–99/) });
    expect(gate.answer(r.proposalId, { decision: 'edit', action: { type: 'click', x: Number.NaN, y: 1 } }, 'cli').accepted).toBe(false);
    expect(gate.answer(r.proposalId, { decision: 'edit', action: { type: 'shell', command: 'ls' } }, 'cli')).toEqual({ accepted: false, reason: expect.stringMatching(/must stay a input action/) });
    expect(gate.pending()).toHaveLength(1);
    expect(gate.answer(r.proposalId, { decision: 'edit', action: { type: 'click', x: 42, y: 43, button: 'right' } }, 'ws:1')).toEqual({ accepted: true });
    const out = await p;
    expect(out).toEqual({ kind: 'run', action: { type: 'click', x: 42, y: 43, button: 'right', clicks: 1, modifiers: [] }, by: { kind: 'person', detail: 'ws:1' } });
    expect(events.at(-1)).toMatchObject({ type: 'approval_answered', answer: { decision: 'edit', action: { x: 42 } } });

    // An edit cannot sneak past a deny rule.
    const t = req(a({ type: 'type', text: 'hello' }));
    void gate.submit(t, signal);
    await flush();
    expect(gate.answer(t.proposalId, { decision: 'edit', action: { type: 'type', text: 'go to secret-place' } }, 'cli').accepted).toBe(false);
  });

  it('approve_similar: later actions of the same kind held for the same reason run unattended', async () => {
    const { gate, signal } = setup({ mode: 'ask' });
    const r1 = req(a({ type: 'click', x: 1, y: 1 }));
    const p1 = gate.submit(r1, signal);
    await flush();
    gate.answerApproval(r1.proposalId, { decision: 'approve_similar' }, 'electron');
    expect(await p1).toMatchObject({ kind: 'run', by: { kind: 'person' } });
    const out = await gate.submit(req(a({ type: 'click', x: 9, y: 9, button: 'right' })), signal);
    expect(out).toEqual({ kind: 'run', action: expect.objectContaining({ x: 9 }), by: { kind: 'similar', detail: `electron on ${r1.proposalId}` } });
    // A different kind still waits.
    const k = req(a({ type: 'key', keys: 'ctrl+s' }));
    void gate.submit(k, signal);
    await flush();
    expect(gate.pending().map((i) => i.proposalId)).toEqual([k.proposalId]);
  });

  it('approve_similar never covers a code block (issue 31): not the next block, and a shell grant does not reach one', async () => {
    const { gate, signal } = setup({ mode: 'ask' });
    const block = (code: string) => a({ type: 'shell', language: 'python', command: blockCommand('python', code) });
    const b1 = req(block('print(1)'));
    const p1 = gate.submit(b1, signal);
    await flush();
    gate.answerApproval(b1.proposalId, { decision: 'approve_similar' }, 'cli');
    expect(await p1).toMatchObject({ kind: 'run', by: { kind: 'person', detail: 'cli' } });
    const b2 = req(block('print(2)'));
    void gate.submit(b2, signal);
    await flush();
    expect(gate.pending().map((i) => i.proposalId)).toEqual([b2.proposalId]);
    gate.answerApproval(b2.proposalId, { decision: 'reject' }, 'cli');
    // A plain command approved "similar" grants plain commands only.
    const s1 = req(a({ type: 'shell', command: 'ls' }));
    const p3 = gate.submit(s1, signal);
    await flush();
    gate.answerApproval(s1.proposalId, { decision: 'approve_similar' }, 'cli');
    await p3;
    expect(await gate.submit(req(a({ type: 'shell', command: 'ls -l' })), signal)).toMatchObject({ by: { kind: 'similar' } });
    const b3 = req(block('print(3)'));
    void gate.submit(b3, signal);
    await flush();
    expect(gate.pending().map((i) => i.proposalId)).toEqual([b3.proposalId]);
  });

  it('a humanOnly item is never auto-approved: not by approve_similar, not by countdown', async () => {
    vi.useFakeTimers();
    const { gate, events, signal } = setup({ mode: 'auto', countdownSeconds: 2 });
    const checks = [{ id: 'sc', code: 'irrelevant_domain', message: 'unexpected site' }];
    const r = req(a({ type: 'click', x: 1, y: 1 }), { ...editor, step: 4, safetyChecks: checks });
    let outcome: unknown;
    void gate.submit(r, signal).then((o) => (outcome = o));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(outcome).toBeUndefined();
    expect(events[0]).toEqual({ type: 'approval_requested', proposalId: r.proposalId, decision: expect.objectContaining({ humanOnly: true }), window: editor.activeWindow });
    expect('countdownMs' in events[0]!).toBe(false);
    gate.answerApproval(r.proposalId, { decision: 'approve_similar' }, 'cli');
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome).toMatchObject({ kind: 'run', by: { kind: 'person', detail: 'cli' } });
    // The next click of the same turn still needs a person (it comes after the safety check)…
    const r2 = req(a({ type: 'click', x: 2, y: 2 }), { ...editor, step: 4 });
    let second: unknown;
    void gate.submit(r2, signal).then((o) => (second = o));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(second).toBeUndefined();
    gate.answerApproval(r2.proposalId, { decision: 'approve' }, 'cli');
    // …but the next step runs by the mode again.
    expect(await gate.submit(req(a({ type: 'click', x: 3, y: 3 }), { ...editor, step: 5 }), signal)).toMatchObject({ by: { kind: 'mode' } });
  });

  it('countdown auto-approves after the configured time and says so', async () => {
    vi.useFakeTimers();
    const { gate, events, signal } = setup({ mode: 'ask', countdownSeconds: 3 });
    const r = req(a({ type: 'click', x: 1, y: 1 }));
    let outcome: unknown;
    void gate.submit(r, signal).then((o) => (outcome = o));
    expect(events[0]).toMatchObject({ type: 'approval_requested', countdownMs: 3000 });
    await vi.advanceTimersByTimeAsync(2_999);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toEqual({ kind: 'run', action: r.action, by: { kind: 'countdown', detail: '3000 ms' } });
    expect(events[1]).toMatchObject({ type: 'approval_answered', by: { kind: 'countdown' } });
  });

  it('cancelling the countdown leaves the item waiting for a person', async () => {
    vi.useFakeTimers();
    const { gate, events, signal } = setup({ mode: 'ask', countdownSeconds: 3 });
    const r = req(a({ type: 'click', x: 1, y: 1 }));
    let outcome: unknown;
    void gate.submit(r, signal).then((o) => (outcome = o));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(gate.cancelCountdown(r.proposalId)).toBe(true);
    expect(gate.cancelCountdown(r.proposalId)).toBe(false);
    expect(events[1]).toEqual({ type: 'approval_requested', proposalId: r.proposalId, decision: expect.anything(), window: r.context.activeWindow });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(outcome).toBeUndefined();
    gate.answerApproval(r.proposalId, { decision: 'approve' }, 'cli');
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome).toMatchObject({ by: { kind: 'person' } });
  });

  it('a second item starts its countdown only when it reaches the head', async () => {
    vi.useFakeTimers();
    const { gate, signal } = setup({ mode: 'ask', countdownSeconds: 1 });
    const r1 = req(a({ type: 'click', x: 1, y: 1 }));
    const r2 = req(a({ type: 'click', x: 2, y: 2 }));
    const order: string[] = [];
    void gate.submit(r1, signal).then(() => order.push('1'));
    void gate.submit(r2, signal).then(() => order.push('2'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(order).toEqual(['1']);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(order).toEqual(['1', '2']);
  });

  it('stop: a held item rejects with AbortError and leaves the queue; answering it afterwards is refused', async () => {
    const { gate, signal, controller } = setup();
    const r = req(a({ type: 'click', x: 1, y: 1 }));
    const p = gate.submit(r, signal);
    await flush();
    controller.abort(new DOMException('stop requested', 'AbortError'));
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(gate.pending()).toEqual([]);
    expect(gate.answerApproval(r.proposalId, { decision: 'approve' }, 'cli')).toBe(false);
    await expect(gate.submit(req(a({ type: "screenshot" })), signal)).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe('aroundHold', () => {
  it('wraps only the wait for a person, not actions the policy lets through', async () => {
    const wrapped: string[] = [];
    const { gate, signal } = setup({
      mode: 'risky',
      aroundHold: async (wait) => {
        wrapped.push('start');
        try {
          return await wait();
        } finally {
          wrapped.push('end');
        }
      },
    });
    await gate.submit(req(a({ type: 'click', x: 1, y: 1 })), signal);
    expect(wrapped).toEqual([]);
    const r = req(a({ type: 'shell', command: 'ls' }));
    const p = gate.submit(r, signal);
    await flush();
    expect(wrapped).toEqual(['start']);
    gate.answerApproval(r.proposalId, { decision: 'approve' }, 'cli');
    await p;
    expect(wrapped).toEqual(['start', 'end']);
  });
});

describe('beforeRun (pause holds actions at the gate)', () => {
  it('an allowed input action waits while the run is paused; observe actions do not; stop ends the wait', async () => {
    const { createRunControl } = await import('../../src/main/agent/supervision/run-control.js');
    const control = createRunControl();
    const gate = createSupervisedGate({ mode: 'auto', beforeRun: (s) => control.waitWhilePaused(s) });
    control.pause('human takeover: pointer moved from (1, 1) to (50, 50)');
    let outcome: unknown;
    void gate.submit(req(a({ type: 'click', x: 1, y: 1 })), control.signal).then((o) => (outcome = o));
    expect(await gate.submit(req(a({ type: 'screenshot' })), control.signal)).toMatchObject({ kind: 'run' });
    await flush();
    expect(outcome).toBeUndefined();
    control.resume();
    await flush();
    expect(outcome).toMatchObject({ kind: 'run', by: { kind: 'mode', detail: 'auto' } });

    control.pause();
    const held = gate.submit(req(a({ type: 'key', keys: 'Return' })), control.signal);
    control.stop('stopped by the user');
    await expect(held).rejects.toMatchObject({ name: 'AbortError' });
  });
});
