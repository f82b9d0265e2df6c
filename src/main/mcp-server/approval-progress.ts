import { describeWhole } from '../../shared/action-text.js';
import type { ApprovalAnswer } from '../../shared/approvals.js';
import { assertNever } from '../../shared/assert-never.js';
import type { RunEvent } from '../../shared/events.js';

/**
 * The progress notes of one MCP call while its action waits for a person: said when the
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

export function approvalProgress(progress: (message: string) => void): ApprovalProgress {
  let timer: NodeJS.Timeout | undefined;
  let proposed = '';
  let stopped = false;
  const stopRepeating = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  const say = (message: string) => {
    if (!stopped) progress(message);
  };
  return {
    onEvent(event) {
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
