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

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** Host names (without port) a request may name in its Host header. */
export function allowedHostNames(bindHost: string): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '::1']);
  if (!isWildcardHost(bindHost)) names.add(bindHost.replace(/^\[|\]$/g, '').toLowerCase());
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
  return { name: m[1]!.replace(/^\[|\]$/g, '').toLowerCase(), port: m[2] ? Number(m[2]) : null };
}

export interface AccessPolicy {
  token: string;
  port: number;
  hostNames: Set<string>;
}

export type AccessVerdict = { ok: true } | { ok: false; status: number; reason: string };

export function checkHost(req: IncomingMessage, policy: AccessPolicy): AccessVerdict {
  const raw = req.headers.host;
  const host = raw ? parseHostHeader(raw) : null;
  if (!host || !policy.hostNames.has(host.name) || (host.port !== null && host.port !== policy.port)) {
    return { ok: false, status: 421, reason: `host not allowed: ${raw ?? '(none)'}` };
  }
  return { ok: true };
}

/**
 * A browser always sends Origin on WebSocket upgrades and cross-origin requests; it
 * must be http://<one of our hosts>:<our port>. Non-browser clients (tests, scripts)
 * may send none and rely on the token alone.
 */
export function checkOrigin(req: IncomingMessage, policy: AccessPolicy): AccessVerdict {
  const origin = req.headers.origin;
  if (origin === undefined) return { ok: true };
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return { ok: false, status: 403, reason: 'origin not allowed' };
  }
  const port = url.port ? Number(url.port) : url.protocol === 'http:' ? 80 : 443;
  const name = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (url.protocol !== 'http:' || port !== policy.port || !policy.hostNames.has(name)) {
    return { ok: false, status: 403, reason: `origin not allowed: ${origin}` };
  }
  return { ok: true };
}

/** Token from ?token= or from the cookie set when the page was opened with it. */
export function presentedToken(req: IncomingMessage, url: URL, port: number): string | undefined {
  const q = url.searchParams.get('token');
  if (q) return q;
  const cookies = req.headers.cookie ?? '';
  const name = cookieName(port);
  for (const part of cookies.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

export function checkToken(req: IncomingMessage, url: URL, policy: AccessPolicy): AccessVerdict {
  const t = presentedToken(req, url, policy.port);
  if (!t || !tokensEqual(t, policy.token)) return { ok: false, status: 401, reason: 'missing or wrong token' };
  return { ok: true };
}

export function checkAll(req: IncomingMessage, url: URL, policy: AccessPolicy): AccessVerdict {
  for (const check of [checkHost(req, policy), checkOrigin(req, policy), checkToken(req, url, policy)]) {
    if (!check.ok) return check;
  }
  return { ok: true };
}
