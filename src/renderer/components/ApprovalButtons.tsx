import type { ReactElement, RefObject } from 'react';
import { assertNever } from '../../shared/assert-never.js';

/** What the approval card's buttons do; the card (ApprovalQueue) owns the state and the client calls. */
export interface ApprovalButtonActions {
  approve: () => void;
  approveSimilar: () => void;
  startEdit: () => void;
  openReject: () => void;
  confirmEdit: () => void;
  sendRejection: () => void;
  cancel: () => void;
}

export interface ApprovalButtonsProps {
  mode: 'idle' | 'reject' | 'edit';
  /** The gate held the action as risky: Reject comes first, filled and focused, and approving says "anyway". */
  risky: boolean;
  busy: boolean;
  /** Only a person may approve this one: "approve similar" is off. */
  humanOnly: boolean;
  /** What "approve similar" lets through, or why it is off (the button's title). */
  similarTitle: string;
  rejectRef: RefObject<HTMLButtonElement | null>;
  on: ApprovalButtonActions;
}

/**
 * The approval card's row of buttons. While idle the same four answers are shown in two
 * orders: the usual one (Approve first), and for a risky action Reject first, filled and
 * focused, with approving a deliberate "Approve anyway".
 */
export function ApprovalButtons({ mode, risky, busy, humanOnly, similarTitle, rejectRef, on }: ApprovalButtonsProps) {
  return <div className="buttons">{buttonsOf({ mode, risky, busy, humanOnly, similarTitle, rejectRef, on })}</div>;
}

function buttonsOf({ mode, risky, busy, humanOnly, similarTitle, rejectRef, on }: ApprovalButtonsProps): ReactElement[] {
  // An open edit or rejection: its Enter button, then Cancel (Esc).
  const enterAndCancel = (label: string, className: string, onEnter: () => void) => [
    <button key="enter" className={className} disabled={busy} onClick={onEnter}>
      {label} <kbd>Enter</kbd>
    </button>,
    <button key="cancel" onClick={on.cancel}>
      Cancel <kbd>Esc</kbd>
    </button>,
  ];
  switch (mode) {
    case 'edit':
      return enterAndCancel('Run edited', 'primary', on.confirmEdit);
    case 'reject':
      return enterAndCancel('Send rejection', 'danger', on.sendRejection);
    case 'idle': {
      const approve = (
        <button key="approve" className={risky ? 'danger' : 'primary'} disabled={busy} onClick={on.approve} data-testid={risky ? 'approve-anyway' : undefined}>
          {risky ? 'Approve anyway' : 'Approve'} <kbd>A</kbd>
        </button>
      );
      const similar = (
        <button key="similar" disabled={busy || humanOnly} onClick={on.approveSimilar} title={similarTitle} aria-describedby="similar-hint">
          Approve similar <kbd>S</kbd>
        </button>
      );
      const edit = (
        <button key="edit" disabled={busy} onClick={on.startEdit}>
          Edit <kbd>E</kbd>
        </button>
      );
      const reject = (
        <button key="reject" ref={risky ? rejectRef : undefined} className={risky ? 'danger-primary' : 'danger'} disabled={busy} onClick={on.openReject} data-testid={risky ? 'reject' : undefined}>
          Reject <kbd>R</kbd>
        </button>
      );
      return risky ? [reject, edit, approve, similar] : [approve, similar, edit, reject];
    }
    default:
      return assertNever(mode, 'approval card mode');
  }
}
