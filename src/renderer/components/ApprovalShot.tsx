import type { RefObject } from 'react';
import type { Action } from '../../shared/actions.js';
import { nudgeFor, targetOf } from '../lib/geometry.js';
import { ActionOverlay } from './ActionOverlay.js';
import { Magnifier } from './Magnifier.js';
import { Screenshot } from './Screenshot.js';
import { STAGE_MAX_HEIGHT } from './Stage.js';

/**
 * The approval screenshot is at most this share of the window's height, so the card
 * (buttons above it) fits without scrolling at 800×600 and up (issue 13 item 11).
 */
const APPROVAL_SHOT_MAX_HEIGHT = '42vh';

function targetText(p: { x: number; y: number } | null): string {
  return p ? `x ${Math.round(p.x)}, y ${Math.round(p.y)}` : 'none';
}

export interface ApprovalShotProps {
  src: string;
  shot: { width: number; height: number };
  step: number;
  /** The action as it would run now (the edit, while editing), and as the model proposed it. */
  shown: Action;
  proposed: Action;
  /** The edit's action when it differs from the proposal: the proposal is drawn faint behind it. */
  changed: boolean;
  /** The target may be moved (an open edit of an action with a point). */
  canPick: boolean;
  /** On the run view's stage (taller) or alone in the card. */
  onStage: boolean;
  focusRef: RefObject<HTMLDivElement | null>;
  moveTo: (p: { x: number; y: number }) => void;
  confirmEdit: () => void;
}

/**
 * The screen the model saw, with the action and a magnifier around its point; while
 * editing, a click or the arrow keys move the target (Shift: 10 px) and Enter runs it.
 */
export function ApprovalShot({ src, shot, step, shown, proposed, changed, canPick, onStage, focusRef, moveTo, confirmEdit }: ApprovalShotProps) {
  const point = targetOf(shown);
  return (
    <Screenshot
      src={src}
      size={shot}
      alt={`Screenshot the model saw at step ${step + 1}`}
      testId="approval-shot"
      maxHeight={onStage ? STAGE_MAX_HEIGHT : APPROVAL_SHOT_MAX_HEIGHT}
      onPick={canPick ? moveTo : undefined}
      focusRef={focusRef}
      onKeyDown={
        canPick
          ? (e) => {
              const d = nudgeFor(e.key, e.shiftKey);
              const at = targetOf(shown);
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
      pickLabel={canPick ? `Target at ${targetText(point)}. Arrow keys move it 1 pixel, Shift+arrow 10 pixels; Enter runs the edited action.` : undefined}
    >
      <ActionOverlay action={shown} size={shot} />
      {point && <Magnifier src={src} size={shot} point={point} />}
      {changed && (
        // Where the model wanted it, faint, so the person sees what they changed.
        <div className="ghost" data-testid="original-overlay">
          <ActionOverlay action={proposed} size={shot} />
        </div>
      )}
    </Screenshot>
  );
}
