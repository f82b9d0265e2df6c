import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useApp, useClient } from '../bridge/context.js';
import { hasTarget, targetOf } from '../lib/geometry.js';
import { notificationsSupported, requestApprovalNotifications } from '../lib/approval-alert.js';
import type { DesktopPlatform } from '../lib/key-names.js';
import { useDesktopPlatform } from '../lib/desktop-platform.js';
import { riskWarningOf } from '../lib/risk.js';
import { grantText, similarGrants, similarMeaning } from '../lib/similar.js';
import { isTextEntry } from '../lib/shortcuts.js';
import { similarOffWhy, useApprovalCard, useCardShortcuts } from './approval-card-state.js';
import { ApprovalButtons } from './ApprovalButtons.js';
import { EditText, RejectFeedback, TargetFields } from './ApprovalEditFields.js';
import { CarriedText, HeldBecause, LandsOn, ProposalLine, ResolvedLine, RiskWarning } from './ApprovalFacts.js';
import { ApprovalShot } from './ApprovalShot.js';
import { CommandSandbox } from './CommandSandbox.js';
import { Countdown } from './Countdown.js';
import { useStageSlot } from './Stage.js';

/**
 * The approval queue: only the head item can be answered. Keys (window shortcuts, they
 * work with focus on any button and are text in a text field — see lib/shortcuts):
 * A approve, S approve similar, R reject (with feedback), E edit, Esc closes an open
 * edit or rejection (then the next Esc stops the run), C cancels an auto-approve
 * countdown (the gate then re-sends the item without one, so it waits). Enter is never
 * a window shortcut: it activates the focused button, confirms the focused edit field
 * or, on the focused screenshot while editing, runs the edited target.
 *
 * Editing a target works by mouse (click the screenshot) and keyboard alike: the
 * screenshot takes focus, arrow keys move the point 1 px (Shift: 10 px) in the image
 * the model saw, and X/Y fields take exact values.
 *
 * Text the action carries (a shell command, text to type, keys) is shown whole through
 * FullText: controls made visible, the end never hidden behind a cut.
 */
export function ApprovalQueue() {
  const client = useClient();
  const run = useApp((s) => s.run);
  const reviewing = useApp((s) => s.reviewing);
  const head = run && !reviewing ? run.proposals[run.pending[0] ?? ''] : undefined;
  const waiting = run ? run.pending.length : 0;
  const card = useApprovalCard(run, head);
  const { mode, setMode, busy, answer, cancelCountdown, startEdit, editedAction, moveTo, confirmEdit, sendRejection } = card;
  const feedbackRef = useRef<HTMLTextAreaElement>(null);
  const rejectRef = useRef<HTMLButtonElement>(null);
  const slot = useStageSlot();
  const risk = riskWarningOf(head?.decision);
  // Keys are named as the desktop the agent acts on names them (the service says which), not the browser's.
  const platform: DesktopPlatform = useDesktopPlatform();

  const headId = head?.proposalId;
  // However the rejection was opened (R, a click, Enter on the button), its box takes the typing.
  useEffect(() => {
    if (mode === 'reject') feedbackRef.current?.focus();
  }, [mode]);
  // A risky action arrives with Reject focused (the default: Enter rejects), unless the
  // person is typing in a field — a keystroke meant for it must not land on the card.
  const risky = !!risk;
  useEffect(() => {
    if (risky && !isTextEntry(document.activeElement)) rejectRef.current?.focus();
  }, [headId, risky]);

  useCardShortcuts(head, card);

  if (!head) return <EmptyQueue during={!!run && !reviewing && run.state !== 'ended'} />;

  const similarOff = similarOffWhy(head);
  const similarTitle = similarOff ?? `S ${similarMeaning(head.action, head.decision)}`;
  const shown = mode === 'edit' ? (editedAction() ?? head.action) : head.action;
  const canPick = mode === 'edit' && hasTarget(head.action);
  // The screen the model saw: on the run view's one large screen (the Stage's slot), or here when the card is mounted alone.
  const screen = head.shot ? (
    <ApprovalShot
      src={client.fileUrl(run!.runId, head.shot.image)}
      shot={head.shot}
      step={head.step}
      shown={shown}
      proposed={head.action}
      changed={mode === 'edit' && !!card.edited && card.edited !== head.action}
      canPick={canPick}
      onStage={slot !== undefined}
      focusRef={card.shotRef}
      moveTo={moveTo}
      confirmEdit={confirmEdit}
    />
  ) : null;

  return (
    <section className={risk ? 'panel queue risky' : 'panel queue'} aria-label="Approval queue" data-testid="approval-queue" data-risky={risky}>
      <h2>
        Approve step {head.step + 1}? {waiting > 1 && <span className="pill">{waiting} waiting</span>}
      </h2>
      <RiskWarning risk={risk} />
      <LandsOn action={shown} element={head.element} window={head.window} />
      <ResolvedLine resolved={head.resolved} />
      <ProposalLine action={shown} />
      <CarriedText action={shown} platform={platform} />
      <CommandSandbox action={shown} sandbox={run?.sandbox} />
      <HeldBecause decision={head.decision} risky={risky} />
      {head.countdownMs ? <CountdownRow proposalId={head.proposalId} ms={head.countdownMs} startedAt={head.countdownAt} busy={busy} onCancel={() => void cancelCountdown()} /> : null}
      {canPick && (
        <div className="edit-target">
          <p className="hint">Click the screenshot or use the arrow keys on it (Shift: 10 px) to move the target, or type the point; then press Enter.</p>
          <TargetFields point={targetOf(shown)} onChange={moveTo} onEnter={confirmEdit} />
        </div>
      )}
      {mode === 'edit' && <EditText action={shown} value={card.text} onChange={card.setText} onEnter={confirmEdit} inputRef={card.textRef} />}
      {mode === 'reject' && <RejectFeedback value={card.feedback} onChange={card.setFeedback} onSend={sendRejection} textareaRef={feedbackRef} />}
      <ApprovalButtons
        mode={mode}
        risky={risky}
        busy={busy}
        humanOnly={similarOff !== undefined}
        similarTitle={similarTitle}
        rejectRef={rejectRef}
        on={{
          approve: () => void answer({ decision: 'approve' }),
          approveSimilar: () => void answer({ decision: 'approve_similar' }),
          startEdit,
          openReject: () => setMode('reject'),
          confirmEdit,
          sendRejection,
          cancel: () => setMode('idle'),
        }}
      />
      {mode === 'idle' && (
        <p className="muted similar-hint" id="similar-hint" data-testid="similar-hint">
          {similarOff ? `Approve similar is off: ${similarOff.charAt(0).toLowerCase()}${similarOff.slice(1)}.` : `Approve similar ${similarMeaning(head.action, head.decision)}.`}
        </p>
      )}
      <SimilarActive />
      {card.notice && <p className="notice" role="status">{card.notice}</p>}
      {head.reasoning && <p className="reasoning">{head.reasoning}</p>}
      {screen && (slot === undefined ? screen : slot ? createPortal(screen, slot) : null)}
    </section>
  );
}

/** The queue with nothing waiting: during a run one line (the screen and the steps need the room more), else the panel with the notification offer. */
function EmptyQueue({ during }: { during: boolean }) {
  if (during) {
    return (
      <section className="panel queue queue-empty compact" aria-label="Approval queue">
        <p className="muted">No action is waiting for you. One that needs you appears here, and the page title shows a badge.</p>
        <SimilarActive />
      </section>
    );
  }
  return (
    <section className="panel queue queue-empty" aria-label="Approval queue">
      <h2>Approvals</h2>
      <p className="muted">Nothing waiting. Proposed actions that need you appear here; the page title shows a badge while one waits.</p>
      <NotifyToggle />
    </section>
  );
}

/** An auto-approve countdown and the button that cancels it (C). */
function CountdownRow({ proposalId, ms, startedAt, busy, onCancel }: { proposalId: string; ms: number; startedAt: number | undefined; busy: boolean; onCancel: () => void }) {
  return (
    <div className="countdown-row">
      <Countdown key={`${proposalId}:${ms}`} ms={ms} startedAt={startedAt} />
      <button disabled={busy} onClick={onCancel} data-testid="cancel-countdown">
        Cancel countdown <kbd>C</kbd>
      </button>
    </div>
  );
}

/** Offers desktop notifications for waiting approvals (the browser asks the person). */
function NotifyToggle() {
  const [state, setState] = useState(() => (notificationsSupported() ? Notification.permission : 'unsupported'));
  if (state !== 'default') return null;
  return (
    <button type="button" className="link" data-testid="notify-toggle" onClick={() => void requestApprovalNotifications().then(setState)}>
      Also notify me on the desktop
    </button>
  );
}

/** The "approve similar" grants in force in this run, while it runs: what the gate now lets through unasked. */
function SimilarActive() {
  const run = useApp((s) => (s.reviewing ? null : s.run));
  if (!run || run.state === 'ended') return null;
  const grants = similarGrants(run);
  if (!grants.length) return null;
  return (
    <p className="similar-active" data-testid="similar-active">
      Approving similar in this run, without asking: {grants.map(grantText).join('; ')}.
    </p>
  );
}
