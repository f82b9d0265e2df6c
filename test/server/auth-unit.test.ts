/**
 * The serve gate (auth.ts) on hand-made requests, without a server: each refusal
 * and its status, and the order the steps run in.
 */
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  admit,
  allowedHostNames,
  checkHost,
  checkOrigin,
  checkToken,
  cookieName,
  isLoopbackHost,
  isWildcardHost,
  newToken,
  parseHostHeader,
  parseRequestTarget,
  presentedToken,
  printable,
  tokensEqual,
  type AccessPolicy,
  type FailureCounter,
} from '../../src/main/server/auth.js';
import { TokenBucket, TokenFailureLimiter } from '../../src/main/server/rate-limit.js';

const TOKEN = 'right-token-0123456789';
const policy = (over: Partial<AccessPolicy> = {}): AccessPolicy => ({ token: TOKEN, port: 8080, hostNames: new Set(['localhost', '127.0.0.1', '::1']), scheme: 'http:', ...over });

/** A request as node's http server gives it; `url` and `remoteAddress` may be passed as undefined. */
function request(headers: Record<string, string | undefined>, ...rest: [url?: string | undefined, remoteAddress?: string | undefined]): IncomingMessage {
  const url = rest.length > 0 ? rest[0] : `/?token=${TOKEN}`;
  const remoteAddress = rest.length > 1 ? rest[1] : '10.0.0.7';
  return { headers: { host: 'localhost:8080', ...headers }, url, socket: { remoteAddress } } as unknown as IncomingMessage;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('tokens', () => {
  it('newToken is 24 random bytes in base64url, different each time', () => {
    const a = newToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(24);
    expect(newToken()).not.toBe(a);
  });
  it('cookieName carries the port', () => {
    expect(cookieName(8080)).toBe('deskpilot_token_8080');
  });
  it('tokensEqual: only the same token; a wrong one of the right length or another length is refused', () => {
    expect(tokensEqual(TOKEN, TOKEN)).toBe(true);
    expect(tokensEqual(TOKEN, `${TOKEN.slice(0, -1)}X`)).toBe(false);
    expect(tokensEqual(TOKEN, `${TOKEN}0`)).toBe(false);
    expect(tokensEqual('', TOKEN)).toBe(false);
  });
});

describe('host names', () => {
  it.each(['localhost', 'LOCALHOST', '::1', '[::1]', '127.0.0.1', '127.10.200.3', '127.0.0.255'])('%s is loopback', (h) => {
    expect(isLoopbackHost(h)).toBe(true);
  });
  it.each(['localhost.evil.com', 'evil-localhost', '127.0.0.1.evil.com', 'x127.0.0.1', '127.0.0', '128.0.0.1', '::2', '0.0.0.0', '[::1]x', '::[1]', '[::1]]', '[[::1]', 'local]host', 'local[host'])('%s is not loopback', (h) => {
    expect(isLoopbackHost(h)).toBe(false);
  });
  it('wildcards are 0.0.0.0, :: and [::] only', () => {
    expect(['0.0.0.0', '::', '[::]', '127.0.0.1', '::1', 'localhost'].map(isWildcardHost)).toEqual([true, true, true, false, false, false]);
  });
  it('a specific bind host adds itself (unbracketed, lower case) to the loopback names, and nothing else', () => {
    vi.spyOn(os, 'hostname').mockReturnValue('Box');
    expect([...allowedHostNames('127.0.0.1')].sort()).toEqual(['127.0.0.1', '::1', 'localhost']);
    expect([...allowedHostNames('[FE80::2]')].sort()).toEqual(['127.0.0.1', '::1', 'fe80::2', 'localhost']);
    expect([...allowedHostNames('My.Lan')].sort()).toEqual(['127.0.0.1', '::1', 'localhost', 'my.lan']);
  });
  it('a wildcard bind host adds the machine name and every interface address, lower case', () => {
    vi.spyOn(os, 'hostname').mockReturnValue('Box');
    vi.spyOn(os, 'networkInterfaces').mockReturnValue({
      lo: [{ address: '127.0.0.1' }],
      eth0: [{ address: '192.168.1.5' }, { address: 'FE80::1' }],
      none: undefined,
    } as unknown as ReturnType<typeof os.networkInterfaces>);
    expect([...allowedHostNames('0.0.0.0')].sort()).toEqual(['127.0.0.1', '192.168.1.5', '::1', 'box', 'fe80::1', 'localhost']);
  });
});

describe('parseHostHeader', () => {
  it.each([
    ['localhost:8080', { name: 'localhost', port: 8080 }],
    ['LocalHost', { name: 'localhost', port: null }],
    [' 127.0.0.1:80 ', { name: '127.0.0.1', port: 80 }],
    ['[::1]:8080', { name: '::1', port: 8080 }],
    ['[::1]', { name: '::1', port: null }],
    ['my-box.lan:0', { name: 'my-box.lan', port: 0 }],
  ])('%j → %j', (value, parsed) => {
    expect(parseHostHeader(value)).toEqual(parsed);
  });
  it.each(['', 'localhost:', 'localhost:123456', 'localhost:80x', 'evil.com@localhost', 'user:pw@localhost:8080', '[::1', 'local host', 'localhost:80:80', 'x.com/localhost', 'a\nb'])('%j does not parse', (value) => {
    expect(parseHostHeader(value)).toBeNull();
  });
});

describe('checkHost', () => {
  it('accepts one of our names, with our port or none', () => {
    expect(checkHost(request({ host: 'localhost:8080' }), policy())).toEqual({ ok: true });
    expect(checkHost(request({ host: '[::1]:8080' }), policy())).toEqual({ ok: true });
    expect(checkHost(request({ host: '127.0.0.1' }), policy())).toEqual({ ok: true });
  });
  it('refuses another port, another name, no Host and one that does not parse, with 421', () => {
    expect(checkHost(request({ host: 'localhost:8081' }), policy())).toEqual({ ok: false, status: 421, reason: 'host not allowed: localhost:8081' });
    expect(checkHost(request({ host: 'localhost:80' }), policy())).toEqual({ ok: false, status: 421, reason: 'host not allowed: localhost:80' });
    expect(checkHost(request({ host: 'evil.com:8080' }), policy())).toEqual({ ok: false, status: 421, reason: 'host not allowed: evil.com:8080' });
    expect(checkHost(request({ host: undefined }), policy())).toEqual({ ok: false, status: 421, reason: 'host not allowed: (none)' });
    expect(checkHost(request({ host: 'a\u0001b' }), policy())).toEqual({ ok: false, status: 421, reason: 'host not allowed: a\\x01b' });
  });
  it('refuses a Host that is not a string with 421, without throwing', () => {
    const req = { headers: { host: ['localhost:8080'] } } as unknown as IncomingMessage;
    expect(checkHost(req, policy())).toEqual({ ok: false, status: 421, reason: 'host not allowed: localhost:8080' });
  });
});

describe('checkOrigin', () => {
  const refused = (origin: string) => ({ ok: false, status: 403, reason: `origin not allowed: ${origin}` });
  it('no Origin (a script, not a browser) passes to the token check', () => {
    expect(checkOrigin(request({}), policy())).toEqual({ ok: true });
  });
  it('our own page passes', () => {
    expect(checkOrigin(request({ origin: 'http://localhost:8080' }), policy())).toEqual({ ok: true });
    expect(checkOrigin(request({ origin: 'http://[::1]:8080' }), policy())).toEqual({ ok: true });
    expect(checkOrigin(request({ origin: 'http://127.0.0.1:8080' }), policy())).toEqual({ ok: true });
  });
  it('Origin: null is refused', () => {
    expect(checkOrigin(request({ origin: 'null' }), policy())).toEqual(refused('null'));
  });
  it('an https Origin is refused when pages are served over http, and the reverse', () => {
    expect(checkOrigin(request({ origin: 'https://localhost:8080' }), policy())).toEqual(refused('https://localhost:8080'));
    expect(checkOrigin(request({ origin: 'http://localhost:8080' }), policy({ scheme: 'https:' }))).toEqual(refused('http://localhost:8080'));
    expect(checkOrigin(request({ origin: 'https://localhost:8080' }), policy({ scheme: 'https:' }))).toEqual({ ok: true });
  });
  it('another port, or another host, is refused', () => {
    expect(checkOrigin(request({ origin: 'http://localhost:8081' }), policy())).toEqual(refused('http://localhost:8081'));
    expect(checkOrigin(request({ origin: 'http://evil.com:8080' }), policy())).toEqual(refused('http://evil.com:8080'));
    expect(checkOrigin(request({ origin: 'http://localhost.evil.com:8080' }), policy())).toEqual(refused('http://localhost.evil.com:8080'));
  });
  it('an Origin without a port has its scheme\'s default port: 80 for http, 443 for https', () => {
    expect(checkOrigin(request({ origin: 'http://localhost' }), policy({ port: 80 }))).toEqual({ ok: true });
    expect(checkOrigin(request({ origin: 'http://localhost' }), policy({ port: 443 }))).toEqual(refused('http://localhost'));
    expect(checkOrigin(request({ origin: 'https://localhost' }), policy({ port: 443, scheme: 'https:' }))).toEqual({ ok: true });
    expect(checkOrigin(request({ origin: 'https://localhost' }), policy({ port: 80, scheme: 'https:' }))).toEqual(refused('https://localhost'));
  });
  it('a non-http Origin is refused', () => {
    expect(checkOrigin(request({ origin: 'file://' }), policy())).toEqual(refused('file://'));
  });
});

describe('parseRequestTarget', () => {
  it('parses an origin-form target', () => {
    const url = parseRequestTarget('/events?token=a%20b&x=1');
    expect(url?.pathname).toBe('/events');
    expect(url?.searchParams.get('token')).toBe('a b');
    expect(parseRequestTarget('/')?.pathname).toBe('/');
  });
  it.each([undefined, '', 'http://localhost/x', 'events', '//evil.com/x', '*'])('%j is refused', (raw) => {
    expect(parseRequestTarget(raw)).toBeNull();
  });
  it('a target the URL parser throws on is refused, not thrown', () => {
    expect(parseRequestTarget('/\\[')).toBeNull();
  });
});

describe('presentedToken', () => {
  const url = (s: string) => new URL(s, 'http://localhost');
  it('takes ?token= first', () => {
    expect(presentedToken(request({ cookie: 'deskpilot_token_8080=fromcookie' }), url('/?token=fromquery'), 8080)).toBe('fromquery');
  });
  it('an empty ?token= falls back to the cookie', () => {
    expect(presentedToken(request({ cookie: 'deskpilot_token_8080=fromcookie' }), url('/?token='), 8080)).toBe('fromcookie');
  });
  it('takes this port\'s cookie only, among others, percent-decoded, with "=" inside kept', () => {
    const cookie = 'a=1; deskpilot_token_80800=long;deskpilot_token_9090=other ;  deskpilot_token_8080=ab%3Dc=d ; z=2';
    expect(presentedToken(request({ cookie }), url('/'), 8080)).toBe('ab=c=d');
    expect(presentedToken(request({ cookie }), url('/'), 9090)).toBe('other');
    expect(presentedToken(request({ cookie }), url('/'), 7070)).toBeUndefined();
  });
  it('no cookie header, no token', () => {
    expect(presentedToken(request({}), url('/'), 8080)).toBeUndefined();
  });
  it('a cookie value that does not percent-decode is no token, even with a good one after it', () => {
    expect(presentedToken(request({ cookie: `deskpilot_token_8080=%E0%A4%A; deskpilot_token_8080=${TOKEN}` }), url('/'), 8080)).toBeUndefined();
  });
});

describe('checkToken', () => {
  const url = (s: string) => new URL(s, 'http://localhost');
  it('the right token passes, from the query or the cookie', () => {
    expect(checkToken(request({}), url(`/?token=${TOKEN}`), policy())).toEqual({ ok: true });
    expect(checkToken(request({ cookie: `deskpilot_token_8080=${TOKEN}` }), url('/'), policy())).toEqual({ ok: true });
  });
  it('a missing token, or a wrong one of the same length, is 401', () => {
    const refused = { ok: false, status: 401, reason: 'missing or wrong token' };
    expect(checkToken(request({}), url('/'), policy())).toEqual(refused);
    expect(checkToken(request({}), url(`/?token=${TOKEN.replace(/.$/, 'x')}`), policy())).toEqual(refused);
    expect(checkToken(request({ cookie: `deskpilot_token_9090=${TOKEN}` }), url('/'), policy())).toEqual(refused);
  });
});

describe('admit', () => {
  function counter(answer: { holdMs: number } | 'refuse' = { holdMs: 0 }): FailureCounter & { failed: string[] } {
    const failed: string[] = [];
    return { failed, fail: (a) => (failed.push(a), answer) };
  }

  it('admits a good request, giving its URL; nothing is counted', () => {
    const c = counter();
    const verdict = admit(request({ origin: 'http://localhost:8080' }, `/ws?token=${TOKEN}`), policy(), c);
    expect(verdict.ok).toBe(true);
    expect(verdict.ok && verdict.url.pathname).toBe('/ws');
    expect(c.failed).toEqual([]);
  });
  it('works without a failure counter', () => {
    expect(admit(request({}), policy()).ok).toBe(true);
    expect(admit(request({}, '/'), policy())).toEqual({ ok: false, status: 401, reason: 'missing or wrong token' });
  });
  it('checks Host first: a bad Host is 421 whatever else is wrong, and nothing is counted', () => {
    const c = counter();
    expect(admit(request({ host: 'evil.com', origin: 'null' }, 'http://x/'), policy(), c)).toEqual({ ok: false, status: 421, reason: 'host not allowed: evil.com' });
    expect(c.failed).toEqual([]);
  });
  it('then Origin: 403 before the target or the token is looked at', () => {
    const c = counter();
    expect(admit(request({ origin: 'null' }, 'http://x/'), policy(), c)).toEqual({ ok: false, status: 403, reason: 'origin not allowed: null' });
    expect(c.failed).toEqual([]);
  });
  it('then the request target: 400', () => {
    const c = counter();
    expect(admit(request({}, '//evil.com/'), policy(), c)).toEqual({ ok: false, status: 400, reason: 'bad request target' });
    expect(admit(request({}, undefined), policy(), c)).toEqual({ ok: false, status: 400, reason: 'bad request target' });
    expect(c.failed).toEqual([]);
  });
  it('the right token is admitted even from an address whose wrong tokens are refused, and is not counted', () => {
    const c = counter('refuse');
    expect(admit(request({}), policy(), c).ok).toBe(true);
    expect(c.failed).toEqual([]);
  });
  it('a wrong token is 401, counted against the address, and carries the hold the counter gives', () => {
    const c = counter({ holdMs: 6000 });
    expect(admit(request({}, '/?token=wrong'), policy(), c)).toEqual({ ok: false, status: 401, reason: 'missing or wrong token', holdMs: 6000 });
    expect(c.failed).toEqual(['10.0.0.7']);
  });
  it('a wrong token the counter refuses is 429', () => {
    expect(admit(request({}, '/?token=wrong'), policy(), counter('refuse'))).toEqual({ ok: false, status: 429, reason: 'too many wrong tokens from this address; wait a minute' });
  });
  it('an address the socket does not know is counted as "unknown"', () => {
    const c = counter();
    expect(admit(request({}, '/', undefined), policy(), c)).toMatchObject({ ok: false, status: 401 });
    expect(c.failed).toEqual(['unknown']);
  });
  it('refuses, never throws, when something it calls throws', () => {
    const throwing: FailureCounter = {
      fail: () => {
        throw new RangeError('boom');
      },
    };
    expect(admit(request({}, '/'), policy(), throwing)).toEqual({ ok: false, status: 400, reason: 'bad request (RangeError)' });
    const odd: FailureCounter = {
      fail: () => {
        throw 'not an error';
      },
    };
    expect(admit(request({}, '/'), policy(), odd)).toEqual({ ok: false, status: 400, reason: 'bad request (error)' });
  });
});

describe('TokenFailureLimiter: wrong answers slowed, one address at a time', () => {
  // 10 a minute: one held answer each 6 s; a burst of 3; less than a minute of held answers.
  function limiter(maxAddresses = 4) {
    const clock = { t: 1000 };
    return { clock, limit: new TokenFailureLimiter(10, 3, maxAddresses, () => clock.t) };
  }
  const fails = (limit: TokenFailureLimiter, address: string, n: number) => Array.from({ length: n }, () => limit.fail(address));

  it('answers the burst at once, then holds answers 6 s apart, in turn', () => {
    const { limit } = limiter();
    expect(fails(limit, 'a', 6)).toEqual([{ holdMs: 0 }, { holdMs: 0 }, { holdMs: 0 }, { holdMs: 6000 }, { holdMs: 12000 }, { holdMs: 18000 }]);
  });
  it('refuses at once when a minute of answers is held, without pushing the schedule further', () => {
    const { clock, limit } = limiter();
    expect(fails(limit, 'a', 12).at(-1)).toEqual({ holdMs: 54000 });
    expect(fails(limit, 'a', 2)).toEqual(['refuse', 'refuse']);
    clock.t += 6000;
    expect(limit.fail('a')).toEqual({ holdMs: 54000 });
    expect(limit.fail('a')).toBe('refuse');
  });
  it('a hold shortens as time passes, and an address that waited has its whole burst again', () => {
    const { clock, limit } = limiter();
    fails(limit, 'a', 3);
    clock.t += 2000;
    expect(limit.fail('a')).toEqual({ holdMs: 4000 });
    clock.t += 60_000;
    expect(fails(limit, 'a', 4)).toEqual([{ holdMs: 0 }, { holdMs: 0 }, { holdMs: 0 }, { holdMs: 6000 }]);
  });
  it('keeps addresses apart', () => {
    const { limit } = limiter();
    fails(limit, 'a', 5);
    expect(limit.fail('b')).toEqual({ holdMs: 0 });
    expect(limit.fail('a')).toEqual({ holdMs: 18000 });
  });
  it('forgets the least recently failing address beyond its limit, so that one starts afresh', () => {
    const { limit } = limiter(2);
    fails(limit, 'a', 5);
    fails(limit, 'b', 5);
    limit.fail('a');
    limit.fail('c');
    // 'b' failed least recently: forgotten, its burst is whole again; 'a' is remembered.
    expect(limit.fail('a')).toEqual({ holdMs: 24000 });
    expect(limit.fail('b')).toEqual({ holdMs: 0 });
  });
});

describe('TokenBucket: a burst at once, then perSecond', () => {
  it('takes the burst, refuses after, refills with time up to the burst; has() takes nothing', () => {
    const clock = { t: 0 };
    const bucket = new TokenBucket(2, 3, () => clock.t);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    expect(bucket.has()).toBe(false);
    clock.t += 499;
    expect(bucket.take()).toBe(false);
    clock.t += 1;
    expect(bucket.has()).toBe(true);
    expect(bucket.has()).toBe(true);
    expect([bucket.take(), bucket.take()]).toEqual([true, false]);
    clock.t += 60_000;
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
  });
  it('exactly one token is enough; a fraction is not', () => {
    const clock = { t: 0 };
    const bucket = new TokenBucket(1, 1, () => clock.t);
    expect(bucket.take()).toBe(true);
    clock.t += 999;
    expect(bucket.has()).toBe(false);
    clock.t += 1;
    expect(bucket.take()).toBe(true);
  });
  it('runs on the real clock by default', () => {
    const bucket = new TokenBucket(1, 2);
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, false]);
    const limiter = new TokenFailureLimiter(10, 1, 4);
    expect(limiter.fail('a')).toEqual({ holdMs: 0 });
    const held = limiter.fail('a');
    expect(held !== 'refuse' && held.holdMs > 0 && held.holdMs <= 6000).toBe(true);
  });
});

describe('printable', () => {
  it('shows C0, DEL and C1 control characters as \\xNN and leaves the rest', () => {
    expect(printable('a\u0000b\u001fc\u007fd\u009fe\u00a0f g~')).toBe('a\\x00b\\x1fc\\x7fd\\x9fe\u00a0f g~');
    expect(printable('\n\t')).toBe('\\x0a\\x09');
  });
  it('cuts at 120 characters, marking the cut', () => {
    expect(printable('x'.repeat(120))).toBe('x'.repeat(120));
    expect(printable('x'.repeat(121))).toBe(`${'x'.repeat(120)}…`);
    expect(printable('\u0001'.repeat(40))).toBe(`${'\\x01'.repeat(30)}…`);
  });
});
