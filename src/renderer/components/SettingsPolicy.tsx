import type { Config } from '../../shared/config.js';
import type { FieldKey } from '../lib/settings-problems.js';
import { FieldProblem } from './FieldProblem.js';
import { RuleEditor, type RulesDraft } from './RuleEditor.js';
import { typedNumber, type SettingsSectionProps } from './settings-form-state.js';

/** Settings' approval policy: the mode, the auto-approve countdown, and the rule table. */
export function SettingsPolicy({
  draft,
  patch,
  problemAt,
  fieldProps,
  rules,
  editRules,
  byField,
}: SettingsSectionProps & { rules: RulesDraft; editRules: (rules: RulesDraft) => void; byField: Map<FieldKey, string> }) {
  return (
    <fieldset>
      <legend>Approval policy</legend>
      <label className="field">
        Mode
        <select data-testid="settings-policy" {...fieldProps('policy.mode')} value={draft.policy.mode} onChange={(e) => patch((c) => void (c.policy.mode = e.target.value as Config['policy']['mode']))}>
          <option value="ask">Ask for every action</option>
          <option value="risky">Ask for risky actions</option>
          <option value="auto">Auto (no questions)</option>
        </select>
      </label>
      <label className="field">
        Auto-approve countdown (seconds, empty = off)
        <input
          inputMode="numeric"
          value={draft.policy.countdownSeconds ?? ''}
          onChange={(e) => patch((c) => (e.target.value ? (c.policy.countdownSeconds = typedNumber(e.target.value)) : delete c.policy.countdownSeconds))}
          {...fieldProps('policy.countdownSeconds')}
        />
        <FieldProblem field="policy.countdownSeconds" words={problemAt('policy.countdownSeconds')} />
      </label>
      <RuleEditor draft={rules} onChange={editRules} problems={byField} />
    </fieldset>
  );
}
