import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';

/**
 * Who may talk to `deskpilot serve`: the bearer of the token printed at start, from a
 * page whose Host is one of ours (DNS-rebinding safe) and whose Origin, when a browser
 * sends one, is that same host (no cross-site WebSocket).
 */

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function cookieName(port: number): string {
  // Cookies ignore ports: two servers on one machine must not overwrite each other's.
  return `deskpilot_token_${port}`;
}

export function tokensEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** "[::1]" → "::1": the brackets around an IPv6 literal, only at its two ends. */
function unbracket(host: string): string {
  return host.replace(/^\[|\]$/g, '');
}

export function isLoopbackHost(host: string): boolean {
  const h = unbracket(host).toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** Host names (without port) a request may name in its Host header. */
export function allowedHostNames(bindHost: string): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '::1']);
  if (!isWildcardHost(bindHost)) names.add(unbracket(bindHost).toLowerCase());
  else {
    names.add(os.hostname().toLowerCase());
    for (const list of Object.values(os.networkInterfaces())) {
      for (const addr of list ?? []) names.add(addr.address.toLowerCase());
    }
  }
  return names;
}

/** Splits "host:port" / "[v6]:port"; null when it does not parse. */
export function parseHostHeader(value: string): { name: string; port: number | null } | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!m) return null;
  return { name: unbracket(m[1]!).toLowerCase(), port: m[2] ? Number(m[2]) : null };
}

export interface AccessPolicy {
  token: string;
  port: number;
  hostNames: Set<string>;
  /** The scheme pages are served with: an Origin must carry the same one. */
  scheme: 'http:' | 'https:';
}

export type AccessVerdict = { ok: true } | { ok: false; status: number; reason: string };

export function checkHost(req: IncomingMessage, policy: AccessPolicy): AccessVerdict {
  const raw = req.headers.host;
  const host = typeof raw === 'string' ? parseHostHeader(raw) : null;
  if (!host || !policy.hostNames.has(host.name) || (host.port !== null && host.port !== policy.port)) {
    return { ok: false, status: 421, reason: `host not allowed: ${printable(raw === undefined ? '(none)' : String(raw))}` };
  }
  return { ok: true };
}

/**
 * A browser always sends Origin on WebSocket upgrades and cross-origin requests; it
 * must be <our scheme>//<one of our hosts>:<our port>. Non-browser clients (tests,
 * scripts) may send none and rely on the token alone. `Origin: null` (sandboxed
 * frames, file:// pages) does not parse as a URL and is refused.
 */
export function checkOrigin(req: IncomingMessage, policy: AccessPolicy): AccessVerdict {
  const origin = req.headers.origin;
  if (origin === undefined) return { ok: true };
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return { ok: false, status: 403, reason: `origin not allowed: ${printable(origin)}` };
  }
  const port = url.port ? Number(url.port) : url.protocol === 'http:' ? 80 : 443;
  const name = unbracket(url.hostname).toLowerCase();
  if (url.protocol !== policy.scheme || port !== policy.port || !policy.hostNames.has(name)) {
    return { ok: false, status: 403, reason: `origin not allowed: ${printable(origin)}` };
  }
  return { ok: true };
}

/**
 * The request target as a URL, or null. Only origin-form targets ("/path?query") are
 * ours: an absolute-form target ("http://[") is proxy syntax, and `new URL` throws
 * ERR_INVALID_URL on many of them.
 */
export function parseRequestTarget(raw: string | undefined): URL | null {
  if (raw === undefined || !raw.startsWith('/') || raw.startsWith('//')) return null;
  try {
    return new URL(raw, 'http://localhost');
  } catch {
    return null;
  }
}

/**
 * Token from ?token= or from the cookie set when the page was opened with it. A
 * cookie value that does not percent-decode (`%E0%A4%A`) is no token: decodeURIComponent
 * would throw URIError.
 */
export function presentedToken(req: IncomingMessage, url: URL, port: number): string | undefined {
  const q = url.searchParams.get('token');
  if (q) return q;
  const cookies = req.headers.cookie;
  if (cookies === undefined) return undefined;
  const name = cookieName(port);
  for (const part of cookies.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k !== name) continue;
    try {
      return decodeURIComponent(v.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const WRONG_TOKEN = 'missing or wrong token';

export function checkToken(req: IncomingMessage, url: URL, policy: AccessPolicy): AccessVerdict {
  const t = presentedToken(req, url, policy.port);
  if (!t || !tokensEqual(t, policy.token)) return { ok: false, status: 401, reason: WRONG_TOKEN };
  return { ok: true };
}

/** Where wrong tokens are counted: the peer address, per the limits in ws-transport.ts (rate-limit.ts `TokenFailureLimiter`). */
export interface FailureCounter {
  /** Counts one wrong token from this address and says how its answer goes: after `holdMs`, or refused at once. */
  fail(address: string): { holdMs: number } | 'refuse';
}

/** A refusal; a wrong token's carries `holdMs`, how long the transport waits before it answers. */
export type Refusal = { ok: false; status: number; reason: string; holdMs?: number };
export type Admission = { ok: true; url: URL } | Refusal;

/**
 * The one gate of every HTTP request and WebSocket upgrade, in a fixed order; each
 * step runs only when the one before passed, and nothing in here can throw:
 *   1. Host names one of ours (DNS rebinding)            → 421
 *   2. Origin, when sent, is our own page                 → 403
 *   3. the request target parses (origin-form only)       → 400
 *   4. the token (query or cookie) is right               → admitted, always: no count of
 *      earlier failures ever refuses it (a local process must not be able to lock the
 *      person out of their own page)
 *   5. a wrong token is counted against the address       → 401, held `holdMs` past the
 *      address's burst; 429 at once when a minute of its answers is already held
 */
export function admit(req: IncomingMessage, policy: AccessPolicy, failures?: FailureCounter): Admission {
  try {
    const host = checkHost(req, policy);
    if (!host.ok) return host;
    const origin = checkOrigin(req, policy);
    if (!origin.ok) return origin;
    const url = parseRequestTarget(req.url);
    if (!url) return { ok: false, status: 400, reason: 'bad request target' };
    const token = checkToken(req, url, policy);
    if (token.ok) return { ok: true, url };
    if (!failures) return token;
    const answer = failures.fail(req.socket.remoteAddress ?? 'unknown');
    if (answer === 'refuse') return { ok: false, status: 429, reason: 'too many wrong tokens from this address; wait a minute' };
    return { ok: false, status: 401, reason: WRONG_TOKEN, holdMs: answer.holdMs };
  } catch (err) {
    // Defence in depth: a parser we did not foresee must refuse, never take the server down.
    return { ok: false, status: 400, reason: `bad request (${err instanceof Error ? err.name : 'error'})` };
  }
}

/** A header value made safe to echo in a reason or a log line: control characters shown as \xNN, at most 120 chars. */
export function printable(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this shows
  const shown = value.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return shown.length > 120 ? `${shown.slice(0, 120)}…` : shown;
}
