import { describeWhole } from '../../shared/action-text.js';
import { visibleText } from '../../shared/visible-text.js';
import type { ApprovalAnswer } from '../../shared/approvals.js';
import { assertNever } from '../../shared/assert-never.js';
import type { RunEvent } from '../../shared/events.js';

/**
 * The progress notes of one MCP call while it waits for a person — for an approval, or
 * for the run to be resumed after a pause (issue 27: a takeover pause used to hold every
 * later call without a word): said when the
 * approval is asked, again every PROGRESS_EVERY_MS while it waits, and when it is
 * answered. MCP clients time a request out (the TypeScript SDK after 60 s) unless
 * progress resets the timer (`resetTimeoutOnProgress`); a person may take minutes, so
 * the repeat keeps such a client waiting for the answer instead of failing the call.
 *
 * Each note names the action whole (shared/action-text.ts, the approval card's describer):
 * a client's person sees the same command the approver does, never a cut one.
 *
 * The notes never carry the supervision page's URL: its token answers approvals, and
 * the client's model must not be able to approve its own actions.
 */
export const PROGRESS_EVERY_MS = 10_000;

function answered(answer: ApprovalAnswer): string {
  switch (answer.decision) {
    case 'approve':
    case 'approve_similar':
      return 'approved: running it';
    case 'edit':
      return `approved as edited: running ${describeWhole(answer.action)}`;
    case 'reject':
      return 'rejected';
    default:
      return assertNever(answer, 'approval answer');
  }
}

export interface ApprovalProgress {
  /** Feed the session run's events. */
  onEvent(event: RunEvent): void;
  /** The call returned: no note is sent after this (the token is no longer in progress). */
  stop(): void;
}

/** The note while the run is paused: why, and what ends the wait. */
export function pausedNote(reason: string): string {
  return `the DeskPilot run is paused (${visibleText(reason || 'no reason given')}); this call waits until a person resumes it in DeskPilot (the supervision page or the app)`;
}

/**
 * `pausedReason`: the run was already paused when the call began (a takeover earlier):
 * the client hears so at once, not only when a pause begins during the call.
 */
export function approvalProgress(progress: (message: string) => void, pausedReason?: string): ApprovalProgress {
  let timer: NodeJS.Timeout | undefined;
  let proposed = '';
  let stopped = false;
  let paused = false;
  const stopRepeating = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  const say = (message: string) => {
    if (!stopped) progress(message);
  };
  // Any pause is told, and repeated while it lasts (a client's request timer must not run out meanwhile).
  const onPause = (reason: string) => {
    paused = true;
    const started = Date.now();
    say(pausedNote(reason));
    stopRepeating();
    timer = setInterval(() => say(`still paused (${Math.round((Date.now() - started) / 1000)} s): ${pausedNote(reason)}`), PROGRESS_EVERY_MS);
    timer.unref();
  };
  if (pausedReason !== undefined) onPause(pausedReason);
  return {
    onEvent(event) {
      if (event.type === 'state' && event.state === 'paused') onPause(event.reason);
      else if (event.type === 'state' && paused && event.state !== 'ended') {
        paused = false;
        stopRepeating();
        say('resumed');
      }
      if (event.type === 'action_proposed') proposed = describeWhole(event.action);
      if (event.type === 'approval_requested') {
        const started = Date.now();
        say(`waiting for a person to approve ${proposed || 'the action'} in DeskPilot (the supervision page or the app)`);
        stopRepeating();
        timer = setInterval(() => say(`still waiting for approval (${Math.round((Date.now() - started) / 1000)} s)`), PROGRESS_EVERY_MS);
        timer.unref();
      }
      if (event.type === 'approval_answered') {
        stopRepeating();
        say(answered(event.answer));
      }
      if (event.type === 'run_ended') stopRepeating();
    },
    stop() {
      stopped = true;
      stopRepeating();
    },
  };
}
