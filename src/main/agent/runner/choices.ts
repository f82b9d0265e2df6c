import type { PolicyMode } from '../../../shared/approvals.js';
import type { Config, Grounding, ProviderProfile } from '../../../shared/config.js';
import { harnessProblem, MODEL_INDEPENDENT_HARNESSES, type HarnessName } from '../../../shared/harnesses.js';
import { PROVIDERS } from '../../../shared/providers.js';
import { LimitsSchema, type Limits } from '../../../shared/events.js';
import { ConfigError, resolveProfile } from '../../config/index.js';
import { stricterPolicy } from '../supervision/stricter-policy.js';
import { configuredBaseUrls, decideKeyDestination } from './key-destination.js';
import { own } from '../../../shared/own.js';

/** What a person picks for one run (CLI flags, the UI's task composer); everything optional. */
export interface RunChoices {
  profile?: string;
  provider?: ProviderProfile['provider'];
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  /** The profile's `grounding` for this run (--grounding). */
  grounding?: Grounding;
  /** The profile's `harness` for this run (--harness; shared/harnesses.ts). */
  harness?: HarnessName;
  policy?: PolicyMode;
  limits?: Partial<Limits>;
  /**
   * Resume: the policy the run's log names. The log is a file, so it can only make the
   * run stricter: the run gets stricterPolicy(this, policy ?? config's mode).
   */
  loggedPolicy?: PolicyMode;
  /**
   * Resume: the base URL the run's log says it used (not trusted: a file). Used when no
   * baseUrl is given and decideKeyDestination allows it (loopback or configured);
   * otherwise a ConfigError says to pass --base-url.
   */
  loggedBaseUrl?: string;
}

export interface ResolvedChoices {
  profile: ProviderProfile;
  policy: PolicyMode;
  limits: Limits;
}

/**
 * The profile, policy and limits of a run: the named (or default) profile from the
 * config, with the person's overrides on top; a provider given without a profile
 * picks the first profile of that provider. A model given on top of a profile drops the
 * profile's format and tool version, which belong to the profile's own model. Base URLs fall back to the provider's
 * usual environment variable. Throws ConfigError with a clear message.
 */
export function resolveRunChoices(config: Config, choices: RunChoices, env: NodeJS.ProcessEnv = process.env): ResolvedChoices {
  let base: ProviderProfile;
  if (choices.profile !== undefined) {
    base = resolveProfile(config, choices.profile);
  } else if (choices.provider !== undefined) {
    const preferred = own(config.profiles, config.defaultProfile);
    base =
      preferred?.provider === choices.provider
        ? preferred
        : (Object.values(config.profiles).find((p) => p.provider === choices.provider) ?? {
            provider: choices.provider,
            model: choices.model ?? '',
          });
  } else {
    base = resolveProfile(config);
  }
  const profile: ProviderProfile = { ...base };
  if (choices.provider !== undefined && choices.provider !== profile.provider) {
    // A different family than the profile's: its model/tool settings do not carry over.
    profile.provider = choices.provider;
    delete profile.toolVersion;
    delete profile.format;
    delete profile.harness;
    delete profile.baseUrl;
  }
  if (choices.model !== undefined && choices.model !== profile.model) {
    // The output format and tool version were set for the profile's model; another model
    // speaks its own (an `ollama` profile's qwen-vl must not reach ui-tars-1.5-7b), so
    // they are derived from the model actually used (providers/openai-compatible/formats.ts).
    profile.model = choices.model;
    delete profile.format;
    delete profile.toolVersion;
    // A harness named by the old format key is the model's too; `code` and `hybrid` (any model) stay.
    if (profile.harness !== undefined && !MODEL_INDEPENDENT_HARNESSES.includes(profile.harness)) delete profile.harness;
  }
  if (choices.harness !== undefined) {
    profile.harness = choices.harness;
    // The flag names the harness: the profile's older key for it gives way.
    delete profile.format;
  }
  if (choices.apiKeyEnv !== undefined) profile.apiKeyEnv = choices.apiKeyEnv;
  if (choices.grounding !== undefined) profile.grounding = choices.grounding;
  if (choices.baseUrl !== undefined) profile.baseUrl = choices.baseUrl;
  else if (choices.loggedBaseUrl !== undefined) {
    const decision = decideKeyDestination(choices.loggedBaseUrl, { trusted: configuredBaseUrls(config, env), allowLoopback: true });
    if (!decision.ok) throw new ConfigError(`${decision.reason}; pass --base-url to resume with it`, 'events.jsonl');
    profile.baseUrl = choices.loggedBaseUrl;
  } else if (!profile.baseUrl) {
    const fromEnv = env[PROVIDERS[profile.provider].baseUrlEnv]?.trim();
    if (fromEnv) profile.baseUrl = fromEnv;
  }
  const harness = harnessProblem(profile);
  if (harness) throw new ConfigError(harness, 'config.json');
  if (!profile.model) throw new ConfigError(`no model given for provider ${profile.provider}; pass --model`, 'config.json');
  if (PROVIDERS[profile.provider].baseUrlRequired && !profile.baseUrl) {
    throw new ConfigError(`an ${profile.provider} provider needs a base URL (--base-url or ${PROVIDERS[profile.provider].baseUrlEnv})`, 'config.json');
  }
  const limits = LimitsSchema.parse({ ...config.limits, ...stripUndefined(choices.limits ?? {}) });
  const chosen = choices.policy ?? config.policy.mode;
  return { profile, policy: choices.loggedPolicy ? stricterPolicy(choices.loggedPolicy, chosen) : chosen, limits };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
