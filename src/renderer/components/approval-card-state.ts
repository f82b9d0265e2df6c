import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Action } from '../../shared/actions.js';
import type { ApprovalAnswer } from '../../shared/approvals.js';
import { similarMayCover } from '../../shared/code-block.js';
import { useClient } from '../bridge/context.js';
import { clampToImage, hasTarget, moveTarget } from '../lib/geometry.js';
import { useShortcuts } from '../lib/shortcuts.js';
import type { RunView } from '../store/run-view.js';

type Proposal = RunView['proposals'][string];

/** What the card is doing with the head item: waiting for an answer, taking a rejection's feedback, or editing the action. */
export type CardMode = 'idle' | 'reject' | 'edit';

/**
 * The approval card's state for its head item, and the answers it sends: the mode, the
 * rejection's feedback, the edited action (its target and its text), and a busy flag and
 * notice for the bridge calls. A new head item starts afresh.
 */
export function useApprovalCard(run: RunView | null | undefined, head: Proposal | undefined) {
  const client = useClient();
  const [mode, setMode] = useState<CardMode>('idle');
  const [feedback, setFeedback] = useState('');
  const [edited, setEdited] = useState<Action | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const textRef = useRef<HTMLInputElement>(null);
  const shotRef = useRef<HTMLDivElement>(null);
  // Counts the edits started: focus goes to the target picker or the text in the commit that
  // draws the edit form (a setTimeout after it left a moment where the form was on screen and
  // focus still on Edit — the race settings-form-state.ts had with its problems).
  const [editsStarted, setEditsStarted] = useState(0);

  const headId = head?.proposalId;
  const editTargetable = head ? hasTarget(head.action) : false;
  useLayoutEffect(() => {
    if (editsStarted > 0) (editTargetable ? shotRef.current : textRef.current)?.focus();
  }, [editsStarted]);
  useEffect(() => {
    setMode('idle');
    setFeedback('');
    setEdited(null);
    setNotice(null);
  }, [headId]);

  /** One bridge call at a time; its refusal or error becomes the card's notice. */
  const call = async (work: () => Promise<string | null>) => {
    setBusy(true);
    try {
      const refused = await work();
      if (refused !== null) setNotice(refused);
    } catch (err) {
      setNotice(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const answer = async (a: ApprovalAnswer) => {
    if (!run || !head || busy) return;
    await call(async () => {
      const r = await client.call('approval.answer', { runId: run.runId, proposalId: head.proposalId, answer: a });
      return r.accepted ? null : (r.reason ?? 'Another client answered first.');
    });
  };

  const cancelCountdown = async () => {
    if (!run || !head?.countdownMs || busy) return;
    await call(async () => {
      const r = await client.call('approval.cancelCountdown', { runId: run.runId, proposalId: head.proposalId });
      return r.cancelled ? null : 'The countdown could not be cancelled: it has already ended or the item was answered.';
    });
  };

  const startEdit = () => {
    if (!head) return;
    setMode('edit');
    setEdited(head.action);
    if (head.action.type === 'type') setText(head.action.text);
    if (head.action.type === 'key' || head.action.type === 'hold_key') setText(head.action.keys);
    setEditsStarted((n) => n + 1);
  };

  const editedAction = (): Action | null => {
    const base = edited ?? head?.action;
    if (!base) return null;
    if (base.type === 'type') return { ...base, text };
    if (base.type === 'key' || base.type === 'hold_key') return { ...base, keys: text };
    return base;
  };

  /** Moves the edited target to `p` (image pixels of the screenshot the model saw), kept inside the image. */
  const moveTo = (p: { x: number; y: number }) => {
    if (!head?.shot) return;
    const moved = moveTarget(editedAction() ?? head.action, clampToImage(p, head.shot));
    if (moved) setEdited(moved);
  };

  const sendRejection = () => void answer({ decision: 'reject', feedback: feedback.trim() || undefined });

  const confirmEdit = () => {
    const a = editedAction();
    if (a) void answer({ decision: 'edit', action: a });
  };

  return { mode, setMode, feedback, setFeedback, edited, setEdited, text, setText, busy, notice, textRef, shotRef, answer, cancelCountdown, startEdit, editedAction, moveTo, sendRejection, confirmEdit };
}

/**
 * The card's window shortcuts for its head item: A approve, S approve similar (when it is
 * on), R reject, E edit, C cancel a countdown; Esc closes an open edit or rejection
 * before it stops the run (see lib/shortcuts: layers).
 */
export function useCardShortcuts(head: Proposal | undefined, card: ReturnType<typeof useApprovalCard>): void {
  const { mode, setMode, answer, startEdit, cancelCountdown } = card;
  useShortcuts(
    head
      ? {
          a: () => mode === 'idle' && void answer({ decision: 'approve' }),
          s: () => mode === 'idle' && similarOffWhy(head) === undefined && void answer({ decision: 'approve_similar' }),
          r: () => setMode('reject'),
          e: () => mode === 'idle' && startEdit(),
          ...(head.countdownMs ? { c: () => void cancelCountdown() } : {}),
        }
      : {},
  );
  useShortcuts(
    head && mode !== 'idle'
      ? {
          Escape: () => {
            setMode('idle');
            card.setEdited(null);
          },
        }
      : {},
    'card',
  );
}

/**
 * Why "Approve similar" is off for this held action, or undefined when it is on: an action
 * only a person may approve, and a code block (the gate never lets a grant cover one,
 * shared/code-block.ts similarMayCover: one approved block says nothing about the next).
 */
export function similarOffWhy(held: { action: Action; decision?: { humanOnly?: boolean } }): string | undefined {
  if (held.decision?.humanOnly) return 'Only you can approve this one, each time';
  if (!similarMayCover(held.action)) return 'A code block is approved one block at a time';
  return undefined;
}
