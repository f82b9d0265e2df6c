import type { Config } from '../../../shared/config.js';
import { BASE_URL_ENVS } from '../../../shared/providers.js';

/**
 * Which base URL may receive an API key. A key is a credential for one service: sent
 * to another URL it is simply handed over. So the URL a request goes to with a stored
 * or environment key must come from somewhere only the person controls:
 *   1. no base URL: the provider's own endpoint (the SDK default)      → allowed
 *   2. a URL the person configured: a profile's baseUrl in config.json,
 *      ANTHROPIC_BASE_URL / OPENAI_BASE_URL, or a --base-url flag     → allowed
 *   3. a loopback URL (localhost, 127.x, ::1): a local model server    → allowed where the caller permits it
 *   4. anything else (a URL from a browser client, from events.jsonl)  → refused
 * Pure; the bridge's run.start, settings.save and the CLI's resume all call it.
 */

export type KeyDestinationDecision =
  | { ok: true; rule: 'default-endpoint' | 'trusted-url' | 'loopback' }
  | { ok: false; rule: 'untrusted-url' | 'not-a-url'; reason: string };

export interface KeyDestinationSources {
  /** URLs the person set up: config profiles, the base-URL environment variables, command-line flags. */
  trusted: Array<string | undefined>;
  /** Whether a loopback URL is enough (resume: yes; a browser's run.start: no, only the profile's own). */
  allowLoopback: boolean;
}

/** The comparable form of a base URL (scheme, host, port, path without trailing slash); null when it does not parse. */
export function normalizeBaseUrl(url: string): string | null {
  try {
    const u = new URL(url.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    if (u.username || u.password) return null;
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    return `${u.protocol}//${u.hostname.toLowerCase()}:${port}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

export function isLoopbackUrl(url: string): boolean {
  try {
    const h = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
  } catch {
    return false;
  }
}

export function decideKeyDestination(baseUrl: string | undefined, sources: KeyDestinationSources): KeyDestinationDecision {
  // 1.
  if (baseUrl === undefined || baseUrl.trim() === '') return { ok: true, rule: 'default-endpoint' };
  const wanted = normalizeBaseUrl(baseUrl);
  if (wanted === null) return { ok: false, rule: 'not-a-url', reason: `not an http(s) base URL: ${JSON.stringify(baseUrl.slice(0, 200))}` };
  // 2.
  for (const t of sources.trusted) if (t !== undefined && normalizeBaseUrl(t) === wanted) return { ok: true, rule: 'trusted-url' };
  // 3.
  if (sources.allowLoopback && isLoopbackUrl(baseUrl)) return { ok: true, rule: 'loopback' };
  // 4.
  return {
    ok: false,
    rule: 'untrusted-url',
    reason: `the API key is only sent to a base URL you configured (config.json, ${BASE_URL_ENVS.join('/')} or --base-url); ${baseUrl.slice(0, 200)} is not one`,
  };
}

/** Every base URL the person configured: each profile's, and the provider environment variables. */
export function configuredBaseUrls(config: Config, env: NodeJS.ProcessEnv = process.env): string[] {
  const out: string[] = [];
  for (const p of Object.values(config.profiles)) if (p.baseUrl) out.push(p.baseUrl);
  for (const name of BASE_URL_ENVS) {
    const v = env[name]?.trim();
    if (v) out.push(v);
  }
  return out;
}
