import type { ProviderProfile } from '../../../shared/config.js';
import { createAnthropicProvider } from './anthropic/provider.js';
import { createOpenAICompatibleProvider } from './openai-compatible/provider.js';
import { createOpenAIProvider } from './openai/provider.js';
import type { RetryOptions } from './retry.js';
import { ProviderRequestError, type Provider } from './types.js';

export type { RetryOptions } from './retry.js';
export { AGENT_TOOLS } from './agent-tools.js';

export interface CreateProviderOptions {
  /** Resolved by the caller (resolveApiKey); when absent it is read from the environment here. */
  apiKey?: string;
  baseUrl?: string;
  /** One request's timeout; a timeout is retried like a network error. */
  timeoutMs?: number;
  retry?: RetryOptions;
}

const DEFAULT_TIMEOUT_MS = 120_000;

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
  const resolved = resolveApiKey(profile);
  const apiKey = options.apiKey ?? resolved.apiKey;
  if (!apiKey) {
    throw new ProviderRequestError(`no API key for ${profile.provider}: set ${resolved.envName ?? 'the API key environment variable'}`);
  }
  const common = {
    apiKey,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(options.baseUrl ?? resolved.baseUrl ? { baseUrl: options.baseUrl ?? resolved.baseUrl } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
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
