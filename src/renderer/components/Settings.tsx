import { useEffect, useState } from 'react';
import { z } from 'zod';
import { ConfigSchema, UserRuleSchema, type Config, type ProviderProfile } from '../../shared/config.js';
import type { SettingsView } from '../../shared/bridge.js';
import { DEFAULT_KEY_ENVS, PROVIDER_LIST } from '../../shared/providers.js';
import { useApp, useClient } from '../bridge/context.js';

/**
 * Settings: profiles (provider, model, base URL, key variable), API keys (write-only:
 * a stored key is never shown again, only "stored"), policy and rules, limits,
 * display, takeover, hotkey and instructions. Validated with the config schema
 * before anything is sent.
 */

const RulesSchema = z.array(UserRuleSchema);

function keyNames(view: SettingsView, draft: Config): string[] {
  const names = new Set(DEFAULT_KEY_ENVS);
  for (const p of Object.values(draft.profiles)) if (p.apiKeyEnv) names.add(p.apiKeyEnv);
  for (const k of Object.keys(view.keys)) names.add(k);
  return [...names];
}

export function Settings() {
  const client = useClient();
  const view = useApp((s) => s.settings);
  const setSettings = useApp((s) => s.setSettings);
  const loadSettings = useApp((s) => s.loadSettings);
  const canStoreKeys = useApp((s) => s.canStoreKeys);
  const surface = useApp((s) => s.surface);
  const [draft, setDraft] = useState<Config | null>(null);
  const [rulesText, setRulesText] = useState('[]');
  const [keys, setKeys] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  const [newProfile, setNewProfile] = useState('');

  useEffect(() => {
    if (!view) void loadSettings();
  }, [view, loadSettings]);
  useEffect(() => {
    if (view) {
      setDraft(structuredClone(view.config));
      setRulesText(JSON.stringify(view.config.policy.rules, null, 2));
    }
  }, [view]);

  if (!view || !draft) return <section className="panel settings"><p className="muted">Loading settings…</p></section>;

  const patch = (fn: (c: Config) => void) => {
    const next = structuredClone(draft);
    fn(next);
    setDraft(next);
    setSaved(false);
  };
  const patchProfile = (name: string, fn: (p: ProviderProfile) => void) => patch((c) => fn(c.profiles[name]!));

  const save = async () => {
    const problems: string[] = [];
    let rules: unknown = [];
    try {
      rules = JSON.parse(rulesText || '[]');
    } catch {
      problems.push('Rules: not valid JSON.');
    }
    const parsedRules = RulesSchema.safeParse(rules);
    if (!parsedRules.success) problems.push(`Rules: ${parsedRules.error.issues[0]?.message ?? 'invalid'}`);
    const candidate = { ...draft, policy: { ...draft.policy, rules: parsedRules.success ? parsedRules.data : [] } };
    const parsed = ConfigSchema.safeParse(candidate);
    if (!parsed.success) for (const i of parsed.error.issues) problems.push(`${i.path.join('.')}: ${i.message}`);
    setErrors(problems);
    if (problems.length || !parsed.success) return;
    const apiKeys = Object.fromEntries(Object.entries(keys).filter(([, v]) => v !== undefined && (v === '' || v.trim() !== '')));
    try {
      const next = await client.call('settings.save', { config: parsed.data, ...(Object.keys(apiKeys).length ? { apiKeys } : {}) });
      setKeys({});
      setSettings(next);
      setSaved(true);
    } catch (err) {
      setErrors([err instanceof Error ? err.message : String(err)]);
    }
  };

  const num = (v: string) => (v.trim() === '' ? NaN : Number(v));

  return (
    <form
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
                  <input aria-label={`Model of ${name}`} value={p.model} onChange={(e) => patchProfile(name, (q) => void (q.model = e.target.value))} />
                </td>
                <td>
                  <input
                    aria-label={`Base URL of ${name}`}
                    placeholder="provider default"
                    value={p.baseUrl ?? ''}
                    onChange={(e) => patchProfile(name, (q) => (e.target.value ? (q.baseUrl = e.target.value) : delete q.baseUrl))}
                  />
                </td>
                <td>
                  <input
                    aria-label={`Key variable of ${name}`}
                    placeholder="default"
                    value={p.apiKeyEnv ?? ''}
                    onChange={(e) => patchProfile(name, (q) => (e.target.value ? (q.apiKeyEnv = e.target.value) : delete q.apiKeyEnv))}
                  />
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
      </fieldset>

      <fieldset>
        <legend>API keys</legend>
        {canStoreKeys ? (
          <p className="muted">Keys are stored encrypted by the operating system and never shown again. Environment variables still work.</p>
        ) : (
          <p className="muted" data-testid="keys-env-only">
            Browser supervision: <code>deskpilot serve</code> takes API keys from its environment only. Set them where you start it.
          </p>
        )}
        {keyNames(view, draft).map((k) => {
          const st = view.keys[k];
          return (
            <label className="field key-row" key={k}>
              <span>
                {k}{' '}
                <span className="tag" data-testid={`key-status-${k}`}>
                  {st?.stored ? 'stored' : st?.fromEnv ? 'from environment' : 'not set'}
                </span>
              </span>
              {canStoreKeys && (
              <span className="inline">
                <input
                  type="password"
                  autoComplete="off"
                  aria-label={`New value for ${k}`}
                  placeholder={st?.stored ? '•••••••• (enter a new key to replace)' : 'paste key'}
                  value={keys[k] ?? ''}
                  onChange={(e) => setKeys({ ...keys, [k]: e.target.value })}
                />
                {st?.stored && (
                  <button type="button" onClick={() => setKeys({ ...keys, [k]: '' })}>
                    Forget
                  </button>
                )}
              </span>
              )}
            </label>
          );
        })}
      </fieldset>

      <fieldset>
        <legend>Approval policy</legend>
        <label className="field">
          Mode
          <select data-testid="settings-policy" value={draft.policy.mode} onChange={(e) => patch((c) => void (c.policy.mode = e.target.value as Config['policy']['mode']))}>
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
            onChange={(e) => patch((c) => (e.target.value ? (c.policy.countdownSeconds = num(e.target.value)) : delete c.policy.countdownSeconds))}
          />
        </label>
        <label className="field">
          Rules (JSON: {'[{ "effect": "deny", "keys": ["ctrl+q"], "reason": "…" }]'})
          <textarea className="mono" rows={4} data-testid="settings-rules" value={rulesText} onChange={(e) => (setRulesText(e.target.value), setSaved(false))} />
        </label>
      </fieldset>

      <fieldset>
        <legend>Limits</legend>
        <div className="inline">
          <label className="field">
            Max steps
            <input data-testid="settings-max-steps" inputMode="numeric" value={Number.isNaN(draft.limits.maxSteps) ? '' : draft.limits.maxSteps} onChange={(e) => patch((c) => void (c.limits.maxSteps = num(e.target.value)))} />
          </label>
          <label className="field">
            Max minutes
            <input inputMode="decimal" value={Math.round(draft.limits.maxWallMs / 60_000)} onChange={(e) => patch((c) => void (c.limits.maxWallMs = Math.round(num(e.target.value) * 60_000)))} />
          </label>
          <label className="field">
            Max cost (USD)
            <input inputMode="decimal" value={draft.limits.maxCostUsd} onChange={(e) => patch((c) => void (c.limits.maxCostUsd = num(e.target.value)))} />
          </label>
        </div>
      </fieldset>

      <fieldset>
        <legend>Desktop</legend>
        <div className="inline">
          <label className="field">
            Display id (empty = primary)
            <input value={draft.displayId ?? ''} onChange={(e) => patch((c) => (e.target.value ? (c.displayId = e.target.value) : delete c.displayId))} />
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
              <input data-testid="settings-hotkey" value={draft.killHotkey} onChange={(e) => patch((c) => void (c.killHotkey = e.target.value))} />
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
          <textarea rows={3} value={draft.instructions} onChange={(e) => patch((c) => void (c.instructions = e.target.value))} />
        </label>
      </fieldset>

      {errors.length > 0 && (
        <ul className="errors" role="alert">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      <div className="buttons">
        <button type="submit" className="primary" data-testid="settings-save">
          Save <kbd>Ctrl+S</kbd>
        </button>
        {saved && (
          <span className="ok" role="status">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
}
