import { useState } from 'react';
import type { ProviderProfile } from '../../shared/config.js';
import { PROVIDER_LIST } from '../../shared/providers.js';
import { FieldProblem } from './FieldProblem.js';
import type { SettingsSectionProps } from './settings-form-state.js';

/** Settings' model profiles: the table (default, provider, model, base URL, key variable, remove), adding one, and the grounding model. */
export function SettingsProfiles({ draft, patch, problemAt, fieldProps }: SettingsSectionProps) {
  const [newProfile, setNewProfile] = useState('');
  const patchProfile = (name: string, fn: (p: ProviderProfile) => void) => patch((c) => fn(c.profiles[name]!));
  return (
    <fieldset>
      <legend>Model profiles</legend>
      <table className="profiles">
        <thead>
          <tr>
            <th>Default</th>
            <th>Name</th>
            <th>Provider</th>
            <th>Model</th>
            <th>Base URL</th>
            <th>Key variable</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {Object.entries(draft.profiles).map(([name, p]) => (
            <tr key={name} data-testid="profile-row">
              <td>
                <input type="radio" name="defaultProfile" aria-label={`Default profile ${name}`} checked={draft.defaultProfile === name} onChange={() => patch((c) => void (c.defaultProfile = name))} />
              </td>
              <td>{name}</td>
              <td>
                <select aria-label={`Provider of ${name}`} value={p.provider} onChange={(e) => patchProfile(name, (q) => void (q.provider = e.target.value as ProviderProfile['provider']))}>
                  {PROVIDER_LIST.map((d) => (
                    <option key={d.family} value={d.family}>
                      {d.label}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                <input aria-label={`Model of ${name}`} value={p.model} onChange={(e) => patchProfile(name, (q) => void (q.model = e.target.value))} {...fieldProps(`profiles.${name}.model`)} />
                <FieldProblem field={`profiles.${name}.model`} words={problemAt(`profiles.${name}.model`)} />
              </td>
              <td>
                <input
                  aria-label={`Base URL of ${name}`}
                  placeholder="provider default"
                  value={p.baseUrl ?? ''}
                  onChange={(e) => patchProfile(name, (q) => (e.target.value ? (q.baseUrl = e.target.value) : delete q.baseUrl))}
                  {...fieldProps(`profiles.${name}.baseUrl`)}
                />
                <FieldProblem field={`profiles.${name}.baseUrl`} words={problemAt(`profiles.${name}.baseUrl`)} />
              </td>
              <td>
                <input
                  aria-label={`Key variable of ${name}`}
                  placeholder="default"
                  value={p.apiKeyEnv ?? ''}
                  onChange={(e) => patchProfile(name, (q) => (e.target.value ? (q.apiKeyEnv = e.target.value) : delete q.apiKeyEnv))}
                  {...fieldProps(`profiles.${name}.apiKeyEnv`)}
                />
                <FieldProblem field={`profiles.${name}.apiKeyEnv`} words={problemAt(`profiles.${name}.apiKeyEnv`)} />
              </td>
              <td>
                <button type="button" className="icon" aria-label={`Remove profile ${name}`} onClick={() => patch((c) => void delete c.profiles[name])}>
                  ✕
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <FieldProblem field="defaultProfile" words={problemAt('defaultProfile')} />
      <div className="inline">
        <input aria-label="New profile name" placeholder="new profile name" value={newProfile} onChange={(e) => setNewProfile(e.target.value)} />
        <button
          type="button"
          disabled={!newProfile.trim() || newProfile.trim() in draft.profiles}
          onClick={() => {
            patch((c) => void (c.profiles[newProfile.trim()] = { provider: 'openai-compatible', model: 'model-name', baseUrl: 'http://127.0.0.1:11434/v1' }));
            setNewProfile('');
          }}
        >
          Add profile
        </button>
      </div>
      <label className="field">
        Grounding model (the planner-grounder harness finds what the tree and OCR miss with it)
        <select
          aria-label="Grounding model profile"
          value={draft.grounderProfile ?? ''}
          onChange={(e) => patch((c) => (e.target.value ? (c.grounderProfile = e.target.value) : delete c.grounderProfile))}
          {...fieldProps('grounderProfile')}
        >
          <option value="">none (the accessibility tree and OCR only)</option>
          {Object.keys(draft.profiles).map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <FieldProblem field="grounderProfile" words={problemAt('grounderProfile')} />
      </label>
    </fieldset>
  );
}
