import os from 'node:os';
import path from 'node:path';
import { ExportFormatSchema, type SettingsView } from '../../shared/bridge.js';
import type { Config } from '../../shared/config.js';
import { BASE_URL_ENVS, DEFAULT_KEY_ENVS } from '../../shared/providers.js';
import { own } from '../../shared/own.js';
import { loadConfig, saveConfig } from '../config/index.js';
import { apiKeyEnvName, resolveApiKey } from '../agent/providers/index.js';
import { pingProvider } from '../agent/providers/ping.js';
import { decideKeyDestination, resolveRunChoices } from '../agent/index.js';
import { compileUserRules, UserRuleError } from '../agent/supervision/index.js';
import { checkWorkspace, defaultAppWorkspace, SandboxInputError } from '../sandbox/index.js';
import { profileKey } from './api-key.js';
import { withConfigErrors } from './bridge-errors.js';
import type { CommandHandler, CommandHandlers } from './command-handlers.js';
import { BridgeError, type SecretStore, type ServiceHost } from './types.js';

/** What the settings commands need of the service. */
export interface SettingsDeps {
  home: string;
  env: NodeJS.ProcessEnv;
  secrets: SecretStore | undefined;
  host: ServiceHost | undefined;
  /** `sessions.export` can write a trajectory here (serve), so Settings offers it. */
  exportsTrajectory: boolean;
  /** `sessions.export` can fill secret words in screenshots here (serve). */
  redacts: boolean;
}

/** settings.get, settings.save and connection.test: the config, the keys, and whether a profile answers. */
export function settingsCommands(deps: SettingsDeps): CommandHandlers<'settings.get' | 'settings.save' | 'connection.test'> {
  const { home, env, secrets } = deps;
  return {
    'settings.get': async () => settingsView(deps, await withConfigErrors(() => loadConfig(home))),
    'settings.save': saveSettingsCommand(deps),
    'connection.test': async (input) => {
      const config = await withConfigErrors(() => loadConfig(home));
      // The profile by name, from the config only (resolveRunChoices takes no URL here).
      const resolved = await withConfigErrors(async () => resolveRunChoices(config, { profile: input.profile }, env));
      const { keyEnv, apiKey, baseUrl } = await profileKey(resolved.profile, secrets, env);
      if (!apiKey) return { ok: false, message: `no API key: ${secrets ? 'store one in Settings or ' : ''}set ${keyEnv ?? 'the key variable'} in the environment of deskpilot serve`, ms: 0 };
      return pingProvider(resolved.profile, { apiKey, ...(baseUrl ? { baseUrl } : {}), ...(keyEnv ? { keyEnv } : {}) });
    },
  };
}

/** The key variables the settings screen always shows, besides those profiles name. */
function keyNames(config: Config): string[] {
  const names = new Set(DEFAULT_KEY_ENVS);
  for (const profile of Object.values(config.profiles)) if (profile.apiKeyEnv) names.add(profile.apiKeyEnv);
  return [...names];
}

/** Key names follow the desktop the agent acts on: this process's OS (the BSDs name keys as Linux does). */
function desktopPlatform(p: NodeJS.Platform): NonNullable<SettingsView['platform']> {
  return p === 'darwin' || p === 'win32' ? p : 'linux';
}

async function settingsView(deps: SettingsDeps, config: Config): Promise<SettingsView> {
  const { secrets, env } = deps;
  const keys: SettingsView['keys'] = {};
  for (const name of keyNames(config)) {
    keys[name] = { stored: secrets ? await secrets.has(name) : false, fromEnv: Boolean(env[name]?.trim()) };
  }
  // The same lookup run.start makes, so "Start" is enabled exactly when a run could get a key.
  const profileKeys: NonNullable<SettingsView['profileKeys']> = {};
  for (const [name, profile] of Object.entries(config.profiles)) {
    const keyEnv = apiKeyEnvName(profile);
    const stored = keyEnv ? (own(keys, keyEnv)?.stored ?? false) : false;
    profileKeys[name] = { ...(keyEnv ? { keyEnv } : {}), ready: stored || Boolean(resolveApiKey(profile, env).apiKey?.trim()) };
  }
  // A format the service would refuse is not offered: the app has no trajectory exporter.
  const exports = ExportFormatSchema.options.filter((f) => f !== 'trajectory' || deps.exportsTrajectory);
  return { config, keys, profileKeys, platform: desktopPlatform(process.platform), exports, redacts: deps.redacts };
}

type SaveInput = Parameters<CommandHandler<'settings.save'>>[0];

/**
 * All or nothing: every check runs before anything is written, and a failed write
 * puts back what was already changed (keys, the stop hotkey).
 */
function saveSettingsCommand(deps: SettingsDeps): CommandHandler<'settings.save'> {
  const { home, secrets, host } = deps;
  return async (input, client) => {
    if (client.kind === 'ws') await refuseKeyReroute(deps, input);
    const keys = Object.entries(input.apiKeys ?? {});
    for (const [name] of keys) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new BridgeError('invalid', `not a key variable name: ${name}`);
    }
    if (keys.length && !secrets) throw new BridgeError('unavailable', 'keys cannot be stored here; set them as environment variables');
    const storeProblem = keys.some(([, value]) => value !== '') ? secrets?.storeProblem() : null;
    if (storeProblem) throw new BridgeError('unavailable', `keys cannot be stored: ${storeProblem}; set them as environment variables instead. Nothing was saved.`);
    // A rule the gate cannot compile (a pattern, a chord) would refuse every run at its
    // start: refused here instead, naming the rule's field ("policy.rules[0].keys[1]: …"),
    // which Settings shows at that field. The gate's own compiler: one reading of a rule.
    try {
      compileUserRules(input.config.policy.rules);
    } catch (error) {
      if (error instanceof UserRuleError) throw new BridgeError('invalid', error.message);
      throw error;
    }
    // A workspace every run would refuse at its start (/, the home folder, a missing folder …) is refused here, at its field.
    if (input.config.sandbox?.workspace !== undefined) checkAppWorkspace(input.config.sandbox.workspace);
    const undoHost = host ? await host.prepareSettings(input.config) : () => {};
    const previous: [string, string | undefined][] = [];
    try {
      for (const [name, value] of keys) {
        previous.push([name, await secrets!.get(name)]);
        if (value === '') await secrets!.delete(name);
        else await secrets!.set(name, value);
      }
      return settingsView(deps, await withConfigErrors(() => saveConfig(input.config, home)));
    } catch (error) {
      undoHost();
      for (const [name, value] of previous.reverse()) {
        if (value === undefined) await secrets!.delete(name);
        else await secrets!.set(name, value);
      }
      throw error;
    }
  };
}

/**
 * From a browser, settings may not re-route a key: a profile whose provider, base URL
 * or key variable changes may only point at its old URL, a base-URL environment
 * variable, the provider's default, or loopback.
 */
async function refuseKeyReroute(deps: SettingsDeps, input: SaveInput): Promise<void> {
  const before = await withConfigErrors(() => loadConfig(deps.home));
  for (const [name, p] of Object.entries(input.config.profiles)) {
    const old = own(before.profiles, name);
    if (old && old.provider === p.provider && old.baseUrl === p.baseUrl && old.apiKeyEnv === p.apiKeyEnv) continue;
    const decision = decideKeyDestination(p.baseUrl, { trusted: [old?.baseUrl, ...BASE_URL_ENVS.map((variable) => deps.env[variable])], allowLoopback: true });
    if (!decision.ok) throw new BridgeError('invalid', `profile ${name}: refused from a browser: ${decision.reason}. Edit config.json on this machine to use it.`);
  }
}

/**
 * Settings' workspace for the app and serve (issue 30 item 2), checked as a run would
 * check it (sandbox/workspace.ts checkWorkspace) and said as "sandbox.workspace: …" so the
 * page shows it at the field. A full path only: the service's own folder is no one's
 * idea of "here", and `~` is not expanded.
 */
function checkAppWorkspace(given: string): void {
  if (!path.isAbsolute(given)) throw new BridgeError('invalid', `sandbox.workspace: must be a full path (for example ${defaultAppWorkspace(os.homedir())})`);
  try {
    checkWorkspace(given);
  } catch (error) {
    if (error instanceof SandboxInputError) throw new BridgeError('invalid', `sandbox.workspace: ${error.message}`);
    throw error;
  }
}
