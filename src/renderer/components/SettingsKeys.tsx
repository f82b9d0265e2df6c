import type { Config } from '../../shared/config.js';
import type { SettingsView } from '../../shared/bridge.js';
import { DEFAULT_KEY_ENVS } from '../../shared/providers.js';
import { useApp } from '../bridge/context.js';

/** The key variables Settings lists: the providers' defaults, those the draft's profiles name, and those the service knows. */
function keyNames(view: SettingsView, draft: Config): string[] {
  const names = new Set(DEFAULT_KEY_ENVS);
  for (const p of Object.values(draft.profiles)) if (p.apiKeyEnv) names.add(p.apiKeyEnv);
  for (const k of Object.keys(view.keys)) names.add(k);
  return [...names];
}

/**
 * Settings' API keys, write-only: a stored key is never shown again, only "stored". Where
 * keys cannot be stored (`deskpilot serve`), the steps to give serve a key in its
 * environment instead.
 */
export function SettingsKeys({ view, draft, keys, setKeys }: { view: SettingsView; draft: Config; keys: Record<string, string>; setKeys: (keys: Record<string, string>) => void }) {
  const canStoreKeys = useApp((s) => s.canStoreKeys);
  return (
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
  );
}
