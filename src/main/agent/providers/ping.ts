import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { assertNever } from '../../../shared/assert-never.js';
import type { ProviderProfile } from '../../../shared/config.js';
import { sdkClientOptions } from './transport.js';

/**
 * "Test connection" (issue 13 item 7): ONE tiny request — a one-word prompt, at most a
 * few output tokens, no retries — to the profile's own base URL with its own key, so a
 * person learns before a run that the key and the address work. The caller passes the
 * profile from the config; nothing here takes a URL from a client.
 */
export interface PingResult {
  ok: boolean;
  /** One sentence: "claude-sonnet-4-6 answered in 420 ms" or why not, with the fix. */
  message: string;
  /** HTTP status of a refusal, when there was one. */
  status?: number;
  ms: number;
}

/** A ping that takes longer than this has failed for a person waiting on a button. */
export const PING_TIMEOUT_MS = 20_000;

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** The error in one line, with what to do about the common ones. */
function explain(error: unknown, keyEnv: string | undefined, baseUrl: string | undefined): string {
  const status = statusOf(error);
  const where = baseUrl ? ` at ${baseUrl}` : '';
  if (status === 401 || status === 403) return `the key was refused (${status})${where}: check ${keyEnv ?? 'the API key'} or the profile's base URL`;
  if (status === 404) return `not found (404)${where}: check the model name and the base URL`;
  if (status === 429) return `rate limited (429)${where}: the key works, try again later`;
  if (status !== undefined) return `the server answered ${status}${where}`;
  const message = error instanceof Error ? error.message : String(error);
  return `no answer${where}: ${message.split('\n')[0]}`;
}

export async function pingProvider(
  profile: ProviderProfile,
  options: { apiKey: string; baseUrl?: string; keyEnv?: string; timeoutMs?: number; signal?: AbortSignal },
): Promise<PingResult> {
  const started = Date.now();
  const timeout = options.timeoutMs ?? PING_TIMEOUT_MS;
  const clientOptions = sdkClientOptions({ apiKey: options.apiKey, baseUrl: options.baseUrl, timeoutMs: timeout });
  const requestOptions = options.signal ? { signal: options.signal } : {};
  try {
    switch (profile.provider) {
      case 'anthropic': {
        const sdk = new Anthropic(clientOptions);
        await sdk.messages.create({ model: profile.model, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] }, requestOptions);
        break;
      }
      case 'openai': {
        const sdk = new OpenAI(clientOptions);
        await sdk.responses.create({ model: profile.model, input: 'ping', max_output_tokens: 16 }, requestOptions);
        break;
      }
      case 'openai-compatible': {
        const sdk = new OpenAI(clientOptions);
        await sdk.chat.completions.create({ model: profile.model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1 }, requestOptions);
        break;
      }
      default:
        // A new family without a ping here must not report "answered" without asking.
        return assertNever(profile.provider, 'provider family');
    }
    const ms = Date.now() - started;
    return { ok: true, message: `${profile.model} answered in ${ms} ms`, ms };
  } catch (error) {
    const status = statusOf(error);
    return { ok: false, message: explain(error, options.keyEnv, options.baseUrl), ...(status !== undefined ? { status } : {}), ms: Date.now() - started };
  }
}
