import { FieldProblem } from './FieldProblem.js';
import { typedNumber, type SettingsSectionProps } from './settings-form-state.js';

/** Settings' run limits: steps, minutes (kept in config as milliseconds) and cost. A cleared field shows empty, not NaN. */
export function SettingsLimits({ draft, patch, problemAt, fieldProps }: SettingsSectionProps) {
  return (
    <fieldset>
      <legend>Limits</legend>
      <div className="inline">
        <label className="field">
          Max steps
          <input data-testid="settings-max-steps" inputMode="numeric" value={Number.isNaN(draft.limits.maxSteps) ? '' : draft.limits.maxSteps} onChange={(e) => patch((c) => void (c.limits.maxSteps = typedNumber(e.target.value)))} {...fieldProps('limits.maxSteps')} />
          <FieldProblem field="limits.maxSteps" words={problemAt('limits.maxSteps')} />
        </label>
        <label className="field">
          Max minutes
          <input inputMode="decimal" value={Number.isNaN(draft.limits.maxWallMs) ? '' : Math.round(draft.limits.maxWallMs / 60_000)} onChange={(e) => patch((c) => void (c.limits.maxWallMs = Math.round(typedNumber(e.target.value) * 60_000)))} {...fieldProps('limits.maxWallMs')} />
          <FieldProblem field="limits.maxWallMs" words={problemAt('limits.maxWallMs')} />
        </label>
        <label className="field">
          Max cost (USD)
          <input inputMode="decimal" value={Number.isNaN(draft.limits.maxCostUsd) ? '' : draft.limits.maxCostUsd} onChange={(e) => patch((c) => void (c.limits.maxCostUsd = typedNumber(e.target.value)))} {...fieldProps('limits.maxCostUsd')} />
          <FieldProblem field="limits.maxCostUsd" words={problemAt('limits.maxCostUsd')} />
        </label>
      </div>
    </fieldset>
  );
}
