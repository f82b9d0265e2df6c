import { useApp } from '../bridge/context.js';
import { SandboxSettings } from './SandboxSettings.js';
import { SettingsDesktop } from './SettingsDesktop.js';
import { SettingsKeys } from './SettingsKeys.js';
import { SettingsLeaveDialog } from './SettingsLeaveDialog.js';
import { SettingsLimits } from './SettingsLimits.js';
import { SettingsPolicy } from './SettingsPolicy.js';
import { SettingsProfiles } from './SettingsProfiles.js';
import { SettingsSaveBar } from './SettingsSaveBar.js';
import { useSettingsForm } from './settings-form-state.js';

/**
 * Settings: profiles (provider, model, base URL, key variable), API keys (write-only:
 * a stored key is never shown again, only "stored"), policy and rules, limits,
 * display, takeover, hotkey and instructions. Validated with the config schema
 * before anything is sent; every problem is said in words under its field, which is
 * marked (issue 34 item 7), and listed above Save with a link to the field. Leaving
 * the tab with unsaved edits asks first (the store's navigate).
 *
 * The form's state and save are settings-form-state.ts; each fieldset is its own
 * component, handed the draft, the one patch and each field's problem.
 */
export function Settings() {
  const form = useSettingsForm();
  const leaveRequest = useApp((s) => s.leaveRequest);
  const answerLeave = useApp((s) => s.answerLeave);
  if (!form) return <section className="panel settings"><p className="muted">Loading settings…</p></section>;
  const { draft, patch, problemAt, fieldProps, save } = form;
  const section = { draft, patch, problemAt, fieldProps };
  return (
    <form
      ref={form.formRef}
      className="panel settings"
      aria-label="Settings"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      onKeyDown={(e) => {
        if (e.key === 's' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          void save();
        }
      }}
    >
      <h2>Settings</h2>
      {leaveRequest && <SettingsLeaveDialog answerLeave={answerLeave} save={save} />}
      <SettingsProfiles {...section} />
      <SettingsKeys view={form.view} draft={draft} keys={form.keys} setKeys={form.setKeys} />
      <SettingsPolicy {...section} rules={form.rules} editRules={form.editRules} byField={form.byField} />
      <SandboxSettings sandbox={draft.sandbox} onChange={(next) => patch((c) => (next ? (c.sandbox = next) : delete c.sandbox))} problemAt={problemAt} />
      <SettingsLimits {...section} />
      <SettingsDesktop {...section} />
      <SettingsSaveBar problems={form.problems} focusField={form.focusField} dirty={form.dirty} saved={form.saved} />
    </form>
  );
}
