/**
 * The question asked when a person leaves Settings with unsaved edits (the store's
 * navigate sets leaveRequest): keep editing, save and leave (only when the save went
 * through), or discard. The backdrop keeps editing too.
 */
export function SettingsLeaveDialog({ answerLeave, save }: { answerLeave: (leave: boolean) => void; save: () => Promise<boolean> }) {
  return (
    <>
      <div className="leave-backdrop" aria-hidden="true" onClick={() => answerLeave(false)} />
      <div className="leave-dialog" role="alertdialog" aria-modal="true" aria-labelledby="leave-title" aria-describedby="leave-text" data-testid="leave-dialog">
        <p id="leave-title" className="leave-title">
          Unsaved changes
        </p>
        <p id="leave-text">Your changes to Settings are not saved yet. Leaving now loses them.</p>
        <div className="buttons">
          <button type="button" autoFocus onClick={() => answerLeave(false)} data-testid="leave-keep">
            Keep editing <kbd>Esc</kbd>
          </button>
          <button type="button" className="primary" onClick={() => void save().then((ok) => answerLeave(ok))} data-testid="leave-save">
            Save and leave
          </button>
          <button type="button" className="danger" onClick={() => answerLeave(true)} data-testid="leave-discard">
            Discard changes
          </button>
        </div>
      </div>
    </>
  );
}
