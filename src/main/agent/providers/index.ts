import type { ProviderProfile } from '../../../shared/config.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, PROVIDERS, type ProviderFamily } from '../../../shared/providers.js';
import { createAnthropicProvider } from './anthropic/provider.js';
import { createOpenAICompatibleProvider } from './openai-compatible/provider.js';
import { createOpenAIProvider } from './openai/provider.js';
import { applyScreenshotSize } from './screenshot-size.js';
import type { RetryOptions } from './retry.js';
import type { TransportOptions } from './transport.js';
import { ProviderRequestError, type Provider } from './types.js';

export type { RetryOptions } from './retry.js';
export { ProviderRequestError, ProviderTimeoutError, ProviderUnavailableError } from './types.js';
export { BUILTIN_TOOLS, BUILTIN_TOOL_SPECS, toolNameProblem } from './builtin-tools.js';
export { toolSpec, type ToolDeclaration, type ToolSpec } from './tool-spec.js';

export interface CreateProviderOptions {
  /** Resolved by the caller (resolveApiKey); when absent it is read from the environment here. */
  apiKey?: string;
  baseUrl?: string;
  /**
   * The request timeout: one model request, every attempt and backoff included, ends
   * with ProviderTimeoutError after this long (default DEFAULT_REQUEST_TIMEOUT_MS).
   */
  requestTimeoutMs?: number;
  /** One attempt's timeout (default: the whole request timeout); a timed-out attempt is retried while time is left. */
  timeoutMs?: number;
  retry?: RetryOptions;
}

export { DEFAULT_REQUEST_TIMEOUT_MS } from '../../../shared/providers.js';

/**
 * The environment variable that holds the key for a profile: its own, else its
 * provider's when that provider needs a key (shared/providers.ts); undefined for a
 * keyless local server without one named.
 */
export function apiKeyEnvName(profile: Pick<ProviderProfile, 'provider' | 'apiKeyEnv'>): string | undefined {
  if (profile.apiKeyEnv) return profile.apiKeyEnv;
  const { key } = PROVIDERS[profile.provider];
  return key.required ? key.env : undefined;
}

/**
 * The API key and base URL for a profile from the environment: profile.apiKeyEnv,
 * else the provider's key variable; base URL from the profile, else the provider's
 * base-URL variable (shared/providers.ts). A provider whose key is optional (local
 * OpenAI-compatible servers) reads its variable when set, else gets the placeholder
 * "not-needed".
 */
export function resolveApiKey(
  profile: Pick<ProviderProfile, 'provider' | 'apiKeyEnv' | 'baseUrl'>,
  env: Record<string, string | undefined> = process.env,
): { apiKey: string | undefined; baseUrl: string | undefined; envName: string | undefined } {
  const envName = apiKeyEnvName(profile);
  let apiKey = envName ? env[envName] : undefined;
  const descriptor = PROVIDERS[profile.provider];
  if (!apiKey && !descriptor.key.required) apiKey = env[descriptor.key.env] || 'not-needed';
  const baseUrl = profile.baseUrl ?? (env[descriptor.baseUrlEnv] || undefined);
  return { apiKey: apiKey || undefined, baseUrl, envName };
}

/** The provider for a profile. Throws ProviderRequestError when no key can be found. */
export function createProvider(profile: ProviderProfile, options: CreateProviderOptions = {}): Provider {
  return applyScreenshotSize(createFamilyProvider(profile, options), profile.screenshot);
}

function createFamilyProvider(profile: ProviderProfile, options: CreateProviderOptions): Provider {
  const resolved = resolveApiKey(profile);
  const apiKey = options.apiKey ?? resolved.apiKey;
  if (!apiKey) {
    throw new ProviderRequestError(`no API key for ${profile.provider}: set ${resolved.envName ?? 'the API key environment variable'}`);
  }
  const requestTimeoutMs = options.requestTimeoutMs ?? options.retry?.totalMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const common = {
    apiKey,
    timeoutMs: Math.min(options.timeoutMs ?? requestTimeoutMs, requestTimeoutMs),
    ...(options.baseUrl ?? resolved.baseUrl ? { baseUrl: options.baseUrl ?? resolved.baseUrl } : {}),
    retry: { ...options.retry, totalMs: requestTimeoutMs },
  };
  const descriptor = PROVIDERS[profile.provider];
  if (descriptor.baseUrlRequired && !common.baseUrl) {
    throw new ProviderRequestError(`an ${profile.provider} profile needs a base URL (baseUrl or ${descriptor.baseUrlEnv})`);
  }
  return FACTORIES[profile.provider](profile, common);
}

type ProviderFactory = (profile: ProviderProfile, options: TransportOptions & { retry: RetryOptions }) => Provider;

/** One factory per family (shared/providers.ts describes each); a new family fails tsc until it has one. */
const FACTORIES: Record<ProviderFamily, ProviderFactory> = {
  anthropic: createAnthropicProvider,
  openai: createOpenAIProvider,
  // baseUrlRequired: createProvider refused a profile without one above.
  'openai-compatible': (profile, options) => createOpenAICompatibleProvider(profile, { ...options, baseUrl: options.baseUrl ?? '' }),
};
