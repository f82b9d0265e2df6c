import { useEffect, useMemo, useRef, useState } from 'react';
import { ConfigSchema, type Config, type ProviderProfile } from '../../shared/config.js';
import type { SettingsView } from '../../shared/bridge.js';
import { DEFAULT_KEY_ENVS, PROVIDER_LIST } from '../../shared/providers.js';
import { useApp, useClient } from '../bridge/context.js';
import { problemsOf, serviceProblem, type FieldKey, type SettingsProblem } from '../lib/settings-problems.js';
import { useShortcuts } from '../lib/shortcuts.js';
import { FieldProblem, invalidProps } from './FieldProblem.js';
import { RuleEditor, rulesDraftOf, rulesOf, type RulesDraft } from './RuleEditor.js';
import { SandboxSettings } from './SandboxSettings.js';

/**
 * Settings: profiles (provider, model, base URL, key variable), API keys (write-only:
 * a stored key is never shown again, only "stored"), policy and rules, limits,
 * display, takeover, hotkey and instructions. Validated with the config schema
 * before anything is sent; every problem is said in words under its field, which is
 * marked (issue 34 item 7), and listed above Save with a link to the field. Leaving
 * the tab with unsaved edits asks first (the store's navigate).
 */

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
  const [rules, setRules] = useState<RulesDraft>(rulesDraftOf([]));
  const [keys, setKeys] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<SettingsProblem[]>([]);
  const [saved, setSaved] = useState(false);
  const [newProfile, setNewProfile] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const setDirty = useApp((s) => s.setSettingsDirty);
  const leaveRequest = useApp((s) => s.leaveRequest);
  const answerLeave = useApp((s) => s.answerLeave);

  useEffect(() => {
    if (!view) void loadSettings();
  }, [view, loadSettings]);
  useEffect(() => {
    if (view) {
      setDraft(structuredClone(view.config));
      setRules(rulesDraftOf(view.config.policy.rules));
    }
  }, [view]);

  // Unsaved: the draft, the rules or a typed key differ from what the service holds.
  const dirty = useMemo(() => {
    if (!view || !draft) return false;
    if (Object.keys(keys).length > 0) return true;
    if (JSON.stringify({ ...draft, policy: { ...draft.policy, rules: [] } }) !== JSON.stringify({ ...view.config, policy: { ...view.config.policy, rules: [] } })) return true;
    // Both sides pass the editor's own reading, so a saved rule it writes differently (an
    // empty list, a padded reason) is not an edit the person made.
    const read = rulesOf(rules);
    const saved = rulesOf(rulesDraftOf(view.config.policy.rules));
    return read.rules.length === 0 && read.problems.length > 0 ? true : JSON.stringify(read.rules) !== JSON.stringify(saved.rules);
  }, [view, draft, rules, keys]);
  useEffect(() => setDirty(dirty), [dirty, setDirty]);
  useEffect(() => () => setDirty(false), [setDirty]);
  // A browser tab closed with unsaved edits asks too (the desktop app's window is not a page a person closes by accident).
  useEffect(() => {
    if (!dirty || surface !== 'browser') return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty, surface]);
  // While the leave question is open, Esc keeps editing (the card layer: it never stops a run from here).
  useShortcuts(leaveRequest ? { Escape: () => answerLeave(false) } : {}, 'card');

  const byField = useMemo(() => {
    const m = new Map<FieldKey, string>();
    for (const p of problems) if (!m.has(p.field)) m.set(p.field, p.words);
    return m;
  }, [problems]);
  const problemAt = (field: FieldKey) => byField.get(field);
  const focusField = (field: FieldKey) => {
    // Compared, not put in a selector: a profile's name may hold any character.
    const el = [...(formRef.current?.querySelectorAll<HTMLElement>('[data-field]') ?? [])].find((e) => e.dataset.field === field);
    el?.focus();
    el?.scrollIntoView?.({ block: 'center' });
  };

  if (!view || !draft) return <section className="panel settings"><p className="muted">Loading settings…</p></section>;

  const patch = (fn: (c: Config) => void) => {
    const next = structuredClone(draft);
    fn(next);
    setDraft(next);
    setSaved(false);
  };
  const patchProfile = (name: string, fn: (p: ProviderProfile) => void) => patch((c) => fn(c.profiles[name]!));
  const fieldProps = (field: FieldKey) => ({ 'data-field': field, ...invalidProps(field, problemAt(field)) });

  /** Saves when everything is valid; true when saved. Problems go to their fields, the first one gets focus. */
  const save = async (): Promise<boolean> => {
    const read = rulesOf(rules);
    const candidate = { ...draft, policy: { ...draft.policy, rules: read.rules } };
    const parsed = ConfigSchema.safeParse(candidate);
    const found = [...read.problems, ...(parsed.success ? [] : problemsOf(parsed.error.issues).filter((p) => !p.field.startsWith('policy.rules') || read.problems.length === 0))];
    setProblems(found);
    if (found.length || !parsed.success) {
      requestAnimationFrame(() => found[0] && focusField(found[0].field));
      return false;
    }
    const apiKeys = Object.fromEntries(Object.entries(keys).filter(([, v]) => v !== undefined && (v === '' || v.trim() !== '')));
    try {
      const next = await client.call('settings.save', { config: parsed.data, ...(Object.keys(apiKeys).length ? { apiKeys } : {}) });
      setKeys({});
      setSettings(next);
      setSaved(true);
      return true;
    } catch (err) {
      const problem = serviceProblem(err instanceof Error ? err.message : String(err));
      setProblems([problem]);
      if (problem.field) requestAnimationFrame(() => focusField(problem.field));
      return false;
    }
  };

  const num = (v: string) => (v.trim() === '' ? NaN : Number(v));

  return (
    <form
      ref={formRef}
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
      {leaveRequest && <div className="leave-backdrop" aria-hidden="true" onClick={() => answerLeave(false)} />}
      {leaveRequest && (
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
      )}

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

      <fieldset>
        <legend>API keys</legend>
        {canStoreKeys ? (
          <p className="muted">Keys are stored encrypted by the operating system and never shown again. Environment variables still work.</p>
        ) : (
          <div className="muted" data-testid="keys-env-only">
            <p>
              Keys cannot be entered here: <code>deskpilot serve</code> takes API keys from its own environment only (a key typed into a page
              would cross the network, and a file on the server would be weaker than the environment). To set one:
            </p>
            <ol className="steps">
              <li>Stop <code>deskpilot serve</code> (Ctrl+C where it runs).</li>
              <li>
                Start it again with the key in its environment, e.g. <code data-testid="keys-env-command">{keyNames(view, draft).find((k) => !view.keys[k]?.stored && !view.keys[k]?.fromEnv) ?? DEFAULT_KEY_ENVS[0]}=… deskpilot serve</code>
              </li>
              <li>Open the new address it prints. The status below then says “from environment”.</li>
            </ol>
          </div>
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
                  onChange={(e) => {
                    // An emptied field means "no new key", never "forget the stored one" (that is the Forget button).
                    const { [k]: _, ...rest } = keys;
                    setKeys(e.target.value === '' ? rest : { ...rest, [k]: e.target.value });
                  }}
                />
                {st?.stored && keys[k] === '' && <span className="notice">forgotten when you save</span>}
                {st?.stored && keys[k] !== '' && (
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
            onChange={(e) => patch((c) => (e.target.value ? (c.policy.countdownSeconds = num(e.target.value)) : delete c.policy.countdownSeconds))}
            {...fieldProps('policy.countdownSeconds')}
          />
          <FieldProblem field="policy.countdownSeconds" words={problemAt('policy.countdownSeconds')} />
        </label>
        <RuleEditor draft={rules} onChange={(d) => (setRules(d), setSaved(false))} problems={byField} />
      </fieldset>

      <SandboxSettings sandbox={draft.sandbox} onChange={(next) => patch((c) => (next ? (c.sandbox = next) : delete c.sandbox))} problemAt={problemAt} />

      <fieldset>
        <legend>Limits</legend>
        <div className="inline">
          <label className="field">
            Max steps
            <input data-testid="settings-max-steps" inputMode="numeric" value={Number.isNaN(draft.limits.maxSteps) ? '' : draft.limits.maxSteps} onChange={(e) => patch((c) => void (c.limits.maxSteps = num(e.target.value)))} {...fieldProps('limits.maxSteps')} />
            <FieldProblem field="limits.maxSteps" words={problemAt('limits.maxSteps')} />
          </label>
          <label className="field">
            Max minutes
            <input inputMode="decimal" value={Number.isNaN(draft.limits.maxWallMs) ? '' : Math.round(draft.limits.maxWallMs / 60_000)} onChange={(e) => patch((c) => void (c.limits.maxWallMs = Math.round(num(e.target.value) * 60_000)))} {...fieldProps('limits.maxWallMs')} />
            <FieldProblem field="limits.maxWallMs" words={problemAt('limits.maxWallMs')} />
          </label>
          <label className="field">
            Max cost (USD)
            <input inputMode="decimal" value={Number.isNaN(draft.limits.maxCostUsd) ? '' : draft.limits.maxCostUsd} onChange={(e) => patch((c) => void (c.limits.maxCostUsd = num(e.target.value)))} {...fieldProps('limits.maxCostUsd')} />
            <FieldProblem field="limits.maxCostUsd" words={problemAt('limits.maxCostUsd')} />
          </label>
        </div>
      </fieldset>

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
    </form>
  );
}
