import type { Ref } from 'react';
import type { Action } from '../../shared/actions.js';

/** The fields of an open edit or rejection on the approval card. */

/** X/Y fields for the edited target, in pixels of the screenshot the model saw. */
export function TargetFields({ point, onChange, onEnter }: { point: { x: number; y: number } | null; onChange: (p: { x: number; y: number }) => void; onEnter: () => void }) {
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

/** The edited text of a `type`, or the keys of a `key` / `hold_key`; Enter runs the edited action. */
export function EditText({ action, value, onChange, onEnter, inputRef }: { action: Action; value: string; onChange: (text: string) => void; onEnter: () => void; inputRef: Ref<HTMLInputElement> }) {
  if (action.type !== 'type' && action.type !== 'key' && action.type !== 'hold_key') return null;
  return (
    <label className="field">
      {action.type === 'type' ? 'Text to type' : 'Keys'}
      <input ref={inputRef} data-testid="edit-text" value={value} onChange={(e) => onChange(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && onEnter()} />
    </label>
  );
}

/** The rejection's feedback for the model; Enter sends it, Shift+Enter makes a new line. */
export function RejectFeedback({ value, onChange, onSend, textareaRef }: { value: string; onChange: (text: string) => void; onSend: () => void; textareaRef: Ref<HTMLTextAreaElement> }) {
  return (
    <label className="field">
      Feedback for the model (optional)
      <textarea
        ref={textareaRef}
        data-testid="reject-feedback"
        rows={2}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            onSend();
          }
        }}
      />
    </label>
  );
}
