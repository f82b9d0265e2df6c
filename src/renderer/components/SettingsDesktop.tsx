import type { Config } from '../../shared/config.js';
import { useApp } from '../bridge/context.js';
import { FieldProblem } from './FieldProblem.js';
import type { SettingsSectionProps } from './settings-form-state.js';

/** Settings' desktop: the display, what the person's own input does to a run, the stop hotkey (desktop app only), and the standing instructions. */
export function SettingsDesktop({ draft, patch, problemAt, fieldProps }: SettingsSectionProps) {
  const surface = useApp((s) => s.surface);
  return (
    <fieldset>
      <legend>Desktop</legend>
      <div className="inline">
        <label className="field">
          Display id (empty = primary)
          <input value={draft.displayId ?? ''} onChange={(e) => patch((c) => (e.target.value ? (c.displayId = e.target.value) : delete c.displayId))} {...fieldProps('displayId')} />
          <FieldProblem field="displayId" words={problemAt('displayId')} />
        </label>
        <label className="field">
          When you move the mouse or type
          <select value={draft.takeover} onChange={(e) => patch((c) => void (c.takeover = e.target.value as Config['takeover']))}>
            <option value="pause">pause the run</option>
            <option value="ignore">ignore</option>
          </select>
        </label>
        {surface === 'desktop' && (
          <label className="field">
            Stop hotkey
            <input data-testid="settings-hotkey" value={draft.killHotkey} onChange={(e) => patch((c) => void (c.killHotkey = e.target.value))} {...fieldProps('killHotkey')} />
            <FieldProblem field="killHotkey" words={problemAt('killHotkey')} />
          </label>
        )}
      </div>
      {surface === 'browser' && (
        // A page cannot hear keys pressed in other apps: only the desktop app registers a global stop hotkey.
        <p className="muted" data-testid="no-global-hotkey">
          Stop hotkey: none in the browser. A page hears keys only while it has focus, so here <kbd>X</kbd> or <kbd>Esc</kbd> stops a run
          (<kbd>Esc</kbd> also while typing in a field), or the Stop button. The desktop app adds a stop hotkey that works from any app.
        </p>
      )}
      <label className="field">
        Your instructions for every run
        <textarea rows={3} value={draft.instructions} onChange={(e) => patch((c) => void (c.instructions = e.target.value))} {...fieldProps('instructions')} />
        <FieldProblem field="instructions" words={problemAt('instructions')} />
      </label>
    </fieldset>
  );
}
