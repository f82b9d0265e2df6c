import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigSchema, type Config, type ProviderProfile } from '../../shared/config.js';
import { harnessProblem } from '../../shared/harnesses.js';
import { PROVIDERS } from '../../shared/providers.js';
import { homePaths } from '../paths.js';
import { mkdirPrivate, repairPrivateHome, writePrivateFile } from '../private-files.js';
import { readCappedText } from '../read-capped.js';
import { own } from '../../shared/own.js';

/** A config file that cannot be used; the message names the file and every problem. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Profiles every install has; the user's config adds to them or overrides them by name. */
export const BUILT_IN_PROFILES: Readonly<Record<string, ProviderProfile>> = {
  claude: { provider: 'anthropic', model: PROVIDERS.anthropic.defaultModel },
  openai: { provider: 'openai', model: PROVIDERS.openai.defaultModel },
  'openai-preview': { provider: 'openai', model: 'computer-use-preview' },
  ollama: { provider: 'openai-compatible', model: PROVIDERS['openai-compatible'].defaultModel, baseUrl: 'http://127.0.0.1:11434/v1', format: 'qwen-vl' },
  'lm-studio': { provider: 'openai-compatible', model: 'ui-tars-1.5-7b', baseUrl: 'http://127.0.0.1:1234/v1', format: 'ui-tars' },
};

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `  - ${issue.path.length ? issue.path.join('.') : '(top level)'}: ${issue.message}`)
    .join('\n');
}

/**
 * Where a name the config cannot hold is used as a key: "__proto__". JSON.parse keeps it
 * as an own key, but every object copy and zod's records drop it (or make it the
 * prototype), so a profile, server or price of that name would vanish without a word.
 * It is refused, with its path, instead.
 */
function reservedKeyPath(value: unknown, at: string[] = []): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key of Object.keys(value)) {
    if (key === '__proto__') return [...at, key].join('.');
    const inner = reservedKeyPath((value as Record<string, unknown>)[key], [...at, key]);
    if (inner) return inner;
  }
  return undefined;
}

function refuseReservedKeys(raw: unknown, file: string, what: string): void {
  const where = reservedKeyPath(raw);
  if (where) throw new ConfigError(`${what}:\n  - ${where}: "__proto__" cannot be a name (every object has a key of that name); choose another`, file);
}

/** Parses config text; throws ConfigError naming the file and each bad field. */
export function parseConfig(text: string, file: string): Config {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON: ${(error as Error).message}`, file);
  }
  refuseReservedKeys(raw, file, `${file} has invalid settings`);
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(`${file} has invalid settings:\n${describeIssues(parsed.error)}\nSee docs/CONFIG.md for the schema.`, file);
  }
  // A profile whose `format` (the harness's older name) disagrees with its `harness`, or whose harness its provider cannot carry.
  for (const [name, profile] of Object.entries(parsed.data.profiles)) {
    const problem = harnessProblem(profile);
    if (problem) throw new ConfigError(`${file} has invalid settings:\n  - profiles.${name}: ${problem}\nSee docs/CONFIG.md for the schema.`, file);
  }
  const merged = withBuiltInProfiles(parsed.data);
  const grounder = grounderProfileProblem(merged);
  if (grounder) throw new ConfigError(`${file} has invalid settings:\n  - grounderProfile: ${grounder}\nSee docs/CONFIG.md for the schema.`, file);
  return merged;
}

/** `grounderProfile` names a profile this config has (built-in or its own); the problem, naming the profiles, when it does not. */
function grounderProfileProblem(config: Config): string | undefined {
  const name = config.grounderProfile;
  if (name === undefined || own(config.profiles, name)) return undefined;
  return unknownProfile(config, name);
}

function unknownProfile(config: Config, name: string): string {
  return `unknown profile "${name}"; known profiles: ${Object.keys(config.profiles).sort().join(', ')}`;
}

function withBuiltInProfiles(config: Config): Config {
  return { ...config, profiles: { ...BUILT_IN_PROFILES, ...config.profiles } };
}

/** The defaults, used when there is no config file yet. */
export function defaultConfig(): Config {
  return withBuiltInProfiles(ConfigSchema.parse({}));
}

/** Profiles, rules and settings: a few KiB. 4 MiB is no config (and is read at every command's start). */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/** Loads $DESKPILOT_HOME/config.json; a missing file means defaults, a bad or oversized one a ConfigError. */
export async function loadConfig(home?: string): Promise<Config> {
  const file = homePaths(home).config;
  // Every command starts here: a home an older version made world-readable is made private once.
  await repairPrivateHome(homePaths(home).home);
  let text: string;
  try {
    text = await readCappedText(file, { maxBytes: MAX_CONFIG_BYTES, what: 'a config file' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return defaultConfig();
    throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`, file);
  }
  return parseConfig(text, file);
}

/**
 * Validates and writes the config atomically (temp file + rename), so a crash never
 * leaves half a file. Built-in profiles the user did not change are not written.
 */
export async function saveConfig(config: Config, home?: string): Promise<Config> {
  const file = homePaths(home).config;
  refuseReservedKeys(config, file, 'refusing to save invalid settings');
  const parsed = ConfigSchema.safeParse(config);
  if (!parsed.success) throw new ConfigError(`refusing to save invalid settings:\n${describeIssues(parsed.error)}`, file);
  const grounder = grounderProfileProblem(withBuiltInProfiles(parsed.data));
  if (grounder) throw new ConfigError(`refusing to save invalid settings:\n  - grounderProfile: ${grounder}`, file);
  const profiles = Object.fromEntries(
    Object.entries(parsed.data.profiles).filter(
      ([name, profile]) => JSON.stringify(own(BUILT_IN_PROFILES, name)) !== JSON.stringify(profile),
    ),
  );
  const toWrite = { ...parsed.data, profiles };
  await mkdirPrivate(path.dirname(file));
  const tmp = `${file}.${process.pid}.tmp`;
  await writePrivateFile(tmp, `${JSON.stringify(toWrite, null, 2)}\n`);
  await fs.rename(tmp, file);
  return withBuiltInProfiles(parsed.data);
}

/** The profile a run uses: by name, else the default one; a clear error when unknown. */
export function resolveProfile(config: Config, name?: string): ProviderProfile {
  const wanted = name ?? config.defaultProfile;
  const profile = own(config.profiles, wanted);
  if (!profile) {
    throw new ConfigError(unknownProfile(config, wanted), 'config.json');
  }
  return profile;
}
