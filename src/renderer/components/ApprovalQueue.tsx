import { useEffect, useRef, useState } from 'react';
import { describeAction, type Action } from '../../shared/actions.js';
import type { ApprovalAnswer } from '../../shared/approvals.js';
import { useApp, useClient } from '../bridge/context.js';
import { hasTarget, moveTarget } from '../lib/geometry.js';
import { useShortcuts } from '../lib/shortcuts.js';
import { ActionOverlay } from './ActionOverlay.js';
import { Countdown } from './Countdown.js';
import { Screenshot } from './Screenshot.js';

/**
 * The approval queue: only the head item can be answered. Keys: A approve,
 * S approve similar, R reject (with feedback), E edit (click the screenshot to move
 * the target, or change the text/keys), Esc cancels editing, C cancels an
 * auto-approve countdown (the gate then re-sends the item without one, so it waits).
 */
export function ApprovalQueue() {
  const client = useClient();
  const run = useApp((s) => s.run);
  const reviewing = useApp((s) => s.reviewing);
  const head = run && !reviewing ? run.proposals[run.pending[0] ?? ''] : undefined;
  const waiting = run ? run.pending.length : 0;

  const [mode, setMode] = useState<'idle' | 'reject' | 'edit'>('idle');
  const [feedback, setFeedback] = useState('');
  const [edited, setEdited] = useState<Action | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const feedbackRef = useRef<HTMLTextAreaElement>(null);
  const textRef = useRef<HTMLInputElement>(null);

  const headId = head?.proposalId;
  useEffect(() => {
    setMode('idle');
    setFeedback('');
    setEdited(null);
    setNotice(null);
  }, [headId]);

  const answer = async (a: ApprovalAnswer) => {
    if (!run || !head || busy) return;
    setBusy(true);
    try {
      const r = await client.call('approval.answer', { runId: run.runId, proposalId: head.proposalId, answer: a });
      if (!r.accepted) setNotice(r.reason ?? 'Another client answered first.');
    } catch (err) {
      setNotice(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const cancelCountdown = async () => {
    if (!run || !head?.countdownMs || busy) return;
    setBusy(true);
    try {
      const r = await client.call('approval.cancelCountdown', { runId: run.runId, proposalId: head.proposalId });
      if (!r.cancelled) setNotice('The countdown could not be cancelled: it has already ended or the item was answered.');
    } catch (err) {
      setNotice(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const startEdit = () => {
    if (!head) return;
    setMode('edit');
    setEdited(head.action);
    if (head.action.type === 'type') setText(head.action.text);
    if (head.action.type === 'key' || head.action.type === 'hold_key') setText(head.action.keys);
    setTimeout(() => textRef.current?.focus(), 0);
  };

  const editedAction = (): Action | null => {
    const base = edited ?? head?.action;
    if (!base) return null;
    if (base.type === 'type') return { ...base, text };
    if (base.type === 'key' || base.type === 'hold_key') return { ...base, keys: text };
    return base;
  };

  const confirmEdit = () => {
    const a = editedAction();
    if (a) void answer({ decision: 'edit', action: a });
  };

  useShortcuts(
    head
      ? {
          a: () => mode === 'idle' && void answer({ decision: 'approve' }),
          Enter: () => (mode === 'edit' ? confirmEdit() : mode === 'idle' && void answer({ decision: 'approve' })),
          s: () => mode === 'idle' && !head.decision?.humanOnly && void answer({ decision: 'approve_similar' }),
          r: () => {
            setMode('reject');
            setTimeout(() => feedbackRef.current?.focus(), 0);
          },
          e: startEdit,
          ...(head.countdownMs ? { c: () => void cancelCountdown() } : {}),
          Escape: () => {
            setMode('idle');
            setEdited(null);
          },
        }
      : {},
  );

  if (!head) {
    return (
      <section className="panel queue queue-empty" aria-label="Approval queue">
        <h2>Approvals</h2>
        <p className="muted">Nothing waiting. Proposed actions that need you appear here.</p>
      </section>
    );
  }

  const shown = mode === 'edit' ? (editedAction() ?? head.action) : head.action;
  const canPick = mode === 'edit' && hasTarget(head.action);

  return (
    <section className="panel queue" aria-label="Approval queue" data-testid="approval-queue">
      <h2>
        Approve step {head.step + 1}? {waiting > 1 && <span className="pill">{waiting} waiting</span>}
      </h2>
      <p className="proposal-line" data-testid="proposal-description">
        <strong>{describeAction(shown)}</strong>
      </p>
      {head.decision && (
        <p className="muted why">
          {head.decision.reason} <span className="rule">({head.decision.rule})</span>
        </p>
      )}
      {head.decision?.humanOnly && <p className="notice">Only a person can approve this one.</p>}
      {head.countdownMs ? (
        <div className="countdown-row">
          <Countdown key={`${head.proposalId}:${head.countdownMs}`} ms={head.countdownMs} startedAt={head.countdownAt} />
          <button disabled={busy} onClick={() => void cancelCountdown()} data-testid="cancel-countdown">
            Cancel countdown <kbd>C</kbd>
          </button>
        </div>
      ) : null}
      {head.reasoning && <p className="reasoning">{head.reasoning}</p>}
      {head.shot && (
        <Screenshot
          src={client.fileUrl(run!.runId, head.shot.image)}
          size={head.shot}
          alt={`Screenshot the model saw at step ${head.step + 1}`}
          testId="approval-shot"
          onPick={
            canPick
              ? (p) => {
                  const moved = moveTarget(editedAction() ?? head.action, p);
                  if (moved) setEdited(moved);
                }
              : undefined
          }
        >
          <ActionOverlay action={shown} size={head.shot} />
          {mode === 'edit' && edited && edited !== head.action && (
            // Where the model wanted it, faint, so the person sees what they changed.
            <div className="ghost" data-testid="original-overlay">
              <ActionOverlay action={head.action} size={head.shot} />
            </div>
          )}
        </Screenshot>
      )}
      {canPick && <p className="hint">Click the screenshot to move the target, then press Enter.</p>}
      {mode === 'edit' && (shown.type === 'type' || shown.type === 'key' || shown.type === 'hold_key') && (
        <label className="field">
          {shown.type === 'type' ? 'Text to type' : 'Keys'}
          <input ref={textRef} data-testid="edit-text" value={text} onChange={(e) => setText(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && confirmEdit()} />
        </label>
      )}
      {mode === 'reject' && (
        <label className="field">
          Feedback for the model (optional)
          <textarea
            ref={feedbackRef}
            data-testid="reject-feedback"
            rows={2}
            value={feedback}
            onChange={(e) => setFeedback(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                void answer({ decision: 'reject', feedback: feedback.trim() || undefined });
              }
            }}
          />
        </label>
      )}
      <div className="buttons">
        {mode === 'idle' && (
          <>
            <button className="primary" disabled={busy} onClick={() => void answer({ decision: 'approve' })}>
              Approve <kbd>A</kbd>
            </button>
            <button disabled={busy || head.decision?.humanOnly} onClick={() => void answer({ decision: 'approve_similar' })}>
              Approve similar <kbd>S</kbd>
            </button>
            <button disabled={busy} onClick={startEdit}>
              Edit <kbd>E</kbd>
            </button>
            <button className="danger" disabled={busy} onClick={() => setMode('reject')}>
              Reject <kbd>R</kbd>
            </button>
          </>
        )}
        {mode === 'edit' && (
          <>
            <button className="primary" disabled={busy} onClick={confirmEdit}>
              Run edited <kbd>Enter</kbd>
            </button>
            <button onClick={() => setMode('idle')}>
              Cancel <kbd>Esc</kbd>
            </button>
          </>
        )}
        {mode === 'reject' && (
          <>
            <button className="danger" disabled={busy} onClick={() => void answer({ decision: 'reject', feedback: feedback.trim() || undefined })}>
              Send rejection <kbd>Enter</kbd>
            </button>
            <button onClick={() => setMode('idle')}>
              Cancel <kbd>Esc</kbd>
            </button>
          </>
        )}
      </div>
      {notice && <p className="notice" role="status">{notice}</p>}
    </section>
  );
}
