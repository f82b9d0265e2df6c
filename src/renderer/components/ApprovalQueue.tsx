import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { actionSpec, carriedText, type Action } from '../../shared/actions.js';
import { describeWhole, shortTitle } from '../../shared/action-text.js';
import { similarMayCover } from '../../shared/code-block.js';
import { ruleLabel } from '../../shared/labels.js';
import { resolvedTargetSentence } from '../../shared/resolved-target.js';
import { hasHiddenCharacters, visibleText } from '../../shared/visible-text.js';
import type { ApprovalAnswer } from '../../shared/approvals.js';
import { isModeRule } from '../../shared/rule-ids.js';
import { useApp, useClient } from '../bridge/context.js';
import { clampToImage, hasTarget, moveTarget, nudgeFor, targetOf } from '../lib/geometry.js';
import { notificationsSupported, requestApprovalNotifications } from '../lib/approval-alert.js';
import { chordsOf, type DesktopPlatform } from '../lib/key-names.js';
import { useDesktopPlatform } from '../lib/desktop-platform.js';
import { riskWarningOf } from '../lib/risk.js';
import { grantText, similarGrants, similarMeaning } from '../lib/similar.js';
import { isTextEntry, useShortcuts } from '../lib/shortcuts.js';
import { ActionOverlay } from './ActionOverlay.js';
import { ApprovalButtons } from './ApprovalButtons.js';
import { CommandSandbox } from './CommandSandbox.js';
import { Countdown } from './Countdown.js';
import { FullText } from './FullText.js';
import { Magnifier } from './Magnifier.js';
import { Screenshot } from './Screenshot.js';
import { STAGE_MAX_HEIGHT, useStageSlot } from './Stage.js';

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

  const [mode, setMode] = useState<'idle' | 'reject' | 'edit'>('idle');
  const [feedback, setFeedback] = useState('');
  const [edited, setEdited] = useState<Action | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const feedbackRef = useRef<HTMLTextAreaElement>(null);
  const textRef = useRef<HTMLInputElement>(null);
  const shotRef = useRef<HTMLDivElement>(null);

  const rejectRef = useRef<HTMLButtonElement>(null);
  const slot = useStageSlot();
  const risk = riskWarningOf(head?.decision);
  // Keys are named as the desktop the agent acts on names them (the service says which), not the browser's.
  const platform: DesktopPlatform = useDesktopPlatform();

  const headId = head?.proposalId;
  useEffect(() => {
    setMode('idle');
    setFeedback('');
    setEdited(null);
    setNotice(null);
  }, [headId]);
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
    setTimeout(() => (hasTarget(head.action) ? shotRef.current?.focus() : textRef.current?.focus()), 0);
  };

  /** Moves the edited target to `p` (image pixels of the screenshot the model saw), kept inside the image. */
  const moveTo = (p: { x: number; y: number }) => {
    if (!head?.shot) return;
    const moved = moveTarget(editedAction() ?? head.action, clampToImage(p, head.shot));
    if (moved) setEdited(moved);
  };

  const editedAction = (): Action | null => {
    const base = edited ?? head?.action;
    if (!base) return null;
    if (base.type === 'type') return { ...base, text };
    if (base.type === 'key' || base.type === 'hold_key') return { ...base, keys: text };
    return base;
  };

  const sendRejection = () => void answer({ decision: 'reject', feedback: feedback.trim() || undefined });

  const confirmEdit = () => {
    const a = editedAction();
    if (a) void answer({ decision: 'edit', action: a });
  };

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
  // Esc closes an open edit or rejection before it stops the run (see lib/shortcuts: layers).
  useShortcuts(
    head && mode !== 'idle'
      ? {
          Escape: () => {
            setMode('idle');
            setEdited(null);
          },
        }
      : {},
    'card',
  );

  if (!head && run && !reviewing && run.state !== 'ended') {
    // During a run, one line: the screen and the steps need the room more.
    return (
      <section className="panel queue queue-empty compact" aria-label="Approval queue">
        <p className="muted">No action is waiting for you. One that needs you appears here, and the page title shows a badge.</p>
        <SimilarActive />
      </section>
    );
  }
  if (!head) {
    return (
      <section className="panel queue queue-empty" aria-label="Approval queue">
        <h2>Approvals</h2>
        <p className="muted">Nothing waiting. Proposed actions that need you appear here; the page title shows a badge while one waits.</p>
        <NotifyToggle />
      </section>
    );
  }

  const similarOff = similarOffWhy(head);
  const similarTitle = similarOff ?? `S ${similarMeaning(head.action, head.decision)}`;
  const shown = mode === 'edit' ? (editedAction() ?? head.action) : head.action;
  const canPick = mode === 'edit' && hasTarget(head.action);
  const point = targetOf(shown);
  // The screen the model saw, with the action and a magnifier around its point: on the run
  // view's one large screen (the Stage's slot), or here when the card is mounted alone.
  const screen = head.shot ? (
        <Screenshot
          src={client.fileUrl(run!.runId, head.shot.image)}
          size={head.shot}
          alt={`Screenshot the model saw at step ${head.step + 1}`}
          testId="approval-shot"
          maxHeight={slot === undefined ? APPROVAL_SHOT_MAX_HEIGHT : STAGE_MAX_HEIGHT}
          onPick={canPick ? moveTo : undefined}
          focusRef={shotRef}
          onKeyDown={
            canPick
              ? (e) => {
                  const d = nudgeFor(e.key, e.shiftKey);
                  const at = targetOf(editedAction() ?? head.action);
                  if (d && at) {
                    e.preventDefault();
                    e.stopPropagation();
                    moveTo({ x: at.x + d.x, y: at.y + d.y });
                  } else if (e.key === 'Enter') {
                    e.preventDefault();
                    confirmEdit();
                  }
                }
              : undefined
          }
          pickLabel={canPick ? `Target at ${targetText(targetOf(shown))}. Arrow keys move it 1 pixel, Shift+arrow 10 pixels; Enter runs the edited action.` : undefined}
        >
          <ActionOverlay action={shown} size={head.shot} />
          {point && <Magnifier src={client.fileUrl(run!.runId, head.shot.image)} size={head.shot} point={point} />}
          {mode === 'edit' && edited && edited !== head.action && (
            // Where the model wanted it, faint, so the person sees what they changed.
            <div className="ghost" data-testid="original-overlay">
              <ActionOverlay action={head.action} size={head.shot} />
            </div>
          )}
        </Screenshot>
  ) : null;

  return (
    <section className={risk ? 'panel queue risky' : 'panel queue'} aria-label="Approval queue" data-testid="approval-queue" data-risky={risky}>
      <h2>
        Approve step {head.step + 1}? {waiting > 1 && <span className="pill">{waiting} waiting</span>}
      </h2>
      {risk && (
        <p className="risk-warning" role="alert" data-testid="risk-warning">
          <span className="risk-icon" aria-hidden="true">
            ⚠
          </span>
          <span>
            <strong>Risky: {visibleText(risk.finding)}.</strong> <span className="risk-rule">Held by {risk.rule}. Reject is the default.</span>
          </span>
        </p>
      )}
      <LandsOn action={shown} element={head.element} window={head.window} />
      {head.resolved && (
        <p className="lands-on" data-testid="proposal-resolved">
          {resolvedTargetSentence(head.resolved).lead} <strong>{visibleText(resolvedTargetSentence(head.resolved).line)}</strong>
        </p>
      )}
      <p className="proposal-line" data-testid="proposal-description">
        <strong>{headlineOf(shown).title}</strong>
        {hasTarget(shown) && <span className="muted coords-note"> (in the screenshot the model saw)</span>}
      </p>
      <CarriedText action={shown} platform={platform} />
      <CommandSandbox action={shown} sandbox={run?.sandbox} />
      {head.decision && !risk && (
        <p className="muted why">
          {head.decision.reason}
          {!isModeRule(head.decision.rule) && (
            <span className="rule" title={head.decision.rule}>
              {' '}
              ({ruleLabel(head.decision.rule)})
            </span>
          )}
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
      {canPick && (
        <div className="edit-target">
          <p className="hint">Click the screenshot or use the arrow keys on it (Shift: 10 px) to move the target, or type the point; then press Enter.</p>
          <TargetFields
            point={targetOf(shown)}
            onChange={moveTo}
            onEnter={confirmEdit}
          />
        </div>
      )}
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
                sendRejection();
              }
            }}
          />
        </label>
      )}
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
      {notice && <p className="notice" role="status">{notice}</p>}
      {head.reasoning && <p className="reasoning">{head.reasoning}</p>}
      {screen && (slot === undefined ? screen : slot ? createPortal(screen, slot) : null)}
    </section>
  );
}

/**
 * The card's headline is the one describer's (shared/action-text.ts, issue 27 item 3): the
 * same words the terminal prompt, ACP, MCP and the HUD say, never the renderer's own. It is
 * `shortTitle` — `describeWhole` when that fits two short lines (100 characters), else its start
 * and end around the cut — and then the card shows the carried text whole below it.
 */
function headlineOf(action: Action): { title: string; whole: boolean } {
  const title = shortTitle(action, HEADLINE_CHARS);
  return { title, whole: title === describeWhole(action) };
}
const HEADLINE_CHARS = 100;

/**
 * What the action lands on, named before any coordinates (issue 34 item 3): the element
 * under the point when the accessibility tree told, and the window that has the focus
 * (where keys go, and the window a click is in).
 */
function LandsOn({ action, element, window }: { action: Action; element?: { role: string; name: string }; window?: { title: string; app: string } }) {
  const onElement = element && action.type !== 'element' ? element : undefined;
  const keys = action.type === 'type' || action.type === 'key' || action.type === 'hold_key' || action.type === 'key_down' || action.type === 'key_up';
  if (!onElement && !window) return null;
  return (
    <p className="lands-on" data-testid="proposal-target">
      {onElement && (
        <span data-testid="proposal-element">
          On <strong>{visibleText(onElement.role)} “{visibleText(onElement.name)}”</strong>
        </span>
      )}
      {window && (
        <span data-testid="proposal-window">
          {onElement ? ' in ' : keys ? 'Into ' : 'In '}
          <strong>“{visibleText(window.title || window.app)}”</strong>
          {window.title && window.app ? <span className="muted"> ({visibleText(window.app)})</span> : null}
        </span>
      )}
    </p>
  );
}

/** The text an action carries, whole: key chords by their names on this platform, any other text through FullText. */
function CarriedText({ action, platform }: { action: Action; platform: DesktopPlatform }) {
  const text = carriedText(action);
  if (text === undefined) return null;
  const chords = actionSpec(action).chords ? chordsOf(text, platform) : null;
  if (!chords) {
    // The headline already says short plain text whole; text cut there, or with a control or
    // invisible character in it, is shown whole here with every such character marked.
    if (headlineOf(action).whole && !hasHiddenCharacters(text) && !text.includes('\n')) return null;
    return <FullText text={text} label={`${action.type} text, whole`} testId="proposal-text" />;
  }
  return (
    <p className="chords" data-testid="proposal-keys">
      {chords.map((chord, i) => (
        <span key={i} className="chord">
          {i > 0 && <span className="muted"> then </span>}
          {chord.map((k, j) => (
            <span key={j}>
              {j > 0 && <span className="plus">+</span>}
              <kbd className="key">{k}</kbd>
            </span>
          ))}
        </span>
      ))}
    </p>
  );
}


function targetText(p: { x: number; y: number } | null): string {
  return p ? `x ${Math.round(p.x)}, y ${Math.round(p.y)}` : 'none';
}

/** X/Y fields for the edited target, in pixels of the screenshot the model saw. */
function TargetFields({ point, onChange, onEnter }: { point: { x: number; y: number } | null; onChange: (p: { x: number; y: number }) => void; onEnter: () => void }) {
  if (!point) return null;
  const field = (axis: 'x' | 'y') => (
    <label className="coord">
      {axis.toUpperCase()}
      <input
        type="number"
        inputMode="numeric"
        step={1}
        data-testid={`edit-${axis}`}
        value={Math.round(point[axis])}
        onChange={(e) => {
          const v = Number(e.target.value);
          if (e.target.value !== '' && Number.isFinite(v)) onChange({ ...point, [axis]: v });
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            onEnter();
          }
        }}
      />
    </label>
  );
  return (
    <div className="coords">
      {field('x')}
      {field('y')}
    </div>
  );
}

/**
 * The approval screenshot is at most this share of the window's height, so the card
 * (buttons above it) fits without scrolling at 800×600 and up (issue 13 item 11).
 */
const APPROVAL_SHOT_MAX_HEIGHT = '42vh';

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

/**
 * Why "Approve similar" is off for this held action, or undefined when it is on: an action
 * only a person may approve, and a code block (the gate never lets a grant cover one,
 * shared/code-block.ts similarMayCover: one approved block says nothing about the next).
 */
function similarOffWhy(held: { action: Action; decision?: { humanOnly?: boolean } }): string | undefined {
  if (held.decision?.humanOnly) return 'Only you can approve this one, each time';
  if (!similarMayCover(held.action)) return 'A code block is approved one block at a time';
  return undefined;
}
