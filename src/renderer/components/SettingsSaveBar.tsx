import type { FieldKey, SettingsProblem } from '../lib/settings-problems.js';

/**
 * The foot of Settings: every problem found, each a link to its field, above Save; and
 * whether the form holds unsaved edits or has just been saved.
 */
export function SettingsSaveBar({ problems, focusField, dirty, saved }: { problems: SettingsProblem[]; focusField: (field: FieldKey) => void; dirty: boolean; saved: boolean }) {
  return (
    <>
      {problems.length > 0 && (
        <div className="problems" role="alert" data-testid="settings-problems">
          <p>
            {problems.length === 1 ? 'One problem' : `${problems.length} problems`} — nothing was saved:
          </p>
          <ul>
            {problems.map((p, i) => (
              <li key={`${p.field}-${i}`}>
                {p.field ? (
                  <button type="button" className="link" onClick={() => focusField(p.field)}>
                    {p.label}
                  </button>
                ) : (
                  p.label
                )}
                : {p.words}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="buttons">
        <button type="submit" className="primary" data-testid="settings-save">
          Save <kbd>Ctrl+S</kbd>
        </button>
        {dirty && !saved && (
          <span className="muted" data-testid="settings-unsaved">
            Unsaved changes
          </span>
        )}
        {saved && !dirty && (
          <span className="ok" role="status">
            Saved.
          </span>
        )}
      </div>
    </>
  );
}
