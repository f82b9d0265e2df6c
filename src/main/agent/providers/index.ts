import type { ProviderProfile } from '../../../shared/config.js';
import { createAnthropicProvider } from './anthropic/provider.js';
import { createOpenAICompatibleProvider } from './openai-compatible/provider.js';
import { createOpenAIProvider } from './openai/provider.js';
import { applyScreenshotSize } from './screenshot-size.js';
import type { RetryOptions } from './retry.js';
import { ProviderRequestError, type Provider } from './types.js';

export type { RetryOptions } from './retry.js';
export { ProviderRequestError, ProviderTimeoutError, ProviderUnavailableError } from './types.js';
export { AGENT_TOOLS } from './agent-tools.js';

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

/**
 * The default request timeout, declared once (config.json `requestTimeoutSeconds`
 * overrides it). Five minutes: a computer-use turn usually answers in 2–30 s, a long
 * thinking turn in well under 3 min; a server that never answers ends the run after
 * this, instead of 6 attempts × 120 s (over 12 min) as before.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 300_000;

/** The environment variable that holds the key for a profile. */
export function apiKeyEnvName(profile: Pick<ProviderProfile, 'provider' | 'apiKeyEnv'>): string | undefined {
  if (profile.apiKeyEnv) return profile.apiKeyEnv;
  if (profile.provider === 'anthropic') return 'ANTHROPIC_API_KEY';
  if (profile.provider === 'openai') return 'OPENAI_API_KEY';
  return undefined;
}

/**
 * The API key and base URL for a profile from the environment: profile.apiKeyEnv,
 * else ANTHROPIC_API_KEY / OPENAI_API_KEY; base URL from the profile, else
 * ANTHROPIC_BASE_URL / OPENAI_BASE_URL. Local OpenAI-compatible servers often need no
 * key: they get the placeholder "not-needed" (also OPENAI_API_KEY when set).
 */
export function resolveApiKey(
  profile: Pick<ProviderProfile, 'provider' | 'apiKeyEnv' | 'baseUrl'>,
  env: Record<string, string | undefined> = process.env,
): { apiKey: string | undefined; baseUrl: string | undefined; envName: string | undefined } {
  const envName = apiKeyEnvName(profile);
  let apiKey = envName ? env[envName] : undefined;
  if (!apiKey && profile.provider === 'openai-compatible') apiKey = env.OPENAI_API_KEY || 'not-needed';
  const baseEnv = profile.provider === 'anthropic' ? env.ANTHROPIC_BASE_URL : env.OPENAI_BASE_URL;
  const baseUrl = profile.baseUrl ?? (baseEnv || undefined);
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
  switch (profile.provider) {
    case 'anthropic':
      return createAnthropicProvider(profile, common);
    case 'openai':
      return createOpenAIProvider(profile, common);
    case 'openai-compatible':
      if (!common.baseUrl) throw new ProviderRequestError('an openai-compatible profile needs a base URL (baseUrl or OPENAI_BASE_URL)');
      return createOpenAICompatibleProvider(profile, { ...common, baseUrl: common.baseUrl });
  }
}
