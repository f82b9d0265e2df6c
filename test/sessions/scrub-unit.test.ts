import { describe, expect, it } from 'vitest';
import {
  barePassword,
  credentialValuesFromEnv,
  DeltaScrubber,
  endsAtPasswordPrompt,
  looksLikePasswordContext,
  MASKED_SECRET,
  REDACTED,
  Scrubber,
} from '../../src/main/sessions/scrub.js';
import type { RunEvent } from '../../src/shared/events.js';

// The scrubber's rules one by one (the mutation bench, stryker.config.mjs, runs this file
// against src/main/sessions/scrub.ts): which variables are credentials, which fields are
// secrets at any depth, when typed text is a password, how streamed text is held.

const ev = (e: Record<string, unknown>) => ({ v: 1, seq: 1, ts: 1, runId: 'r', ...e }) as unknown as RunEvent;
const none = () => [];

describe('credentialValuesFromEnv', () => {
  it('takes *_KEY, *_TOKEN, *_SECRET (plural too), PASSWORD/PASSWD/PASSPHRASE/CREDENTIAL anywhere, 8+ characters', () => {
    const v = (s: string) => `${s}-0123456789`;
    const env = {
      OPENAI_API_KEY: v('a'),
      GITHUB_TOKEN: v('b'),
      CLIENT_SECRET: v('c'),
      DEPLOY_KEYS: v('d'),
      KEY: v('e'),
      DB_PASSWORD_FILE: v('f'),
      MY_PASSWD: v('g'),
      GPG_PASSPHRASE_X: v('h'),
      AWS_CREDENTIALS: v('i'),
      app_token: v('j'),
      KEYBOARD: v('no1'),
      TOKENIZER_PATH: v('no2'),
      MONKEY: v('no3'),
      PATH: v('no4'),
      SHORT_TOKEN: '1234567',
      EXACT_TOKEN: '12345678',
      EMPTY_TOKEN: '',
    };
    const got = credentialValuesFromEnv(env);
    expect(got.sort()).toEqual([v('a'), v('b'), v('c'), v('d'), v('e'), v('f'), v('g'), v('h'), v('i'), v('j'), '12345678'].sort());
  });
});

describe('password context and prompts', () => {
  it('reads a password context in several languages, whole-word pin only', () => {
    for (const t of ['Enter Password', 'passwd', 'Passphrase', 'your PIN', 'Kennwort', 'mot de passe', 'contraseña']) expect(looksLikePasswordContext(t), t).toBe(true);
    for (const t of ['pinned tabs', 'spinner', 'pass the salt', '']) expect(looksLikePasswordContext(t), t).toBe(false);
    expect(looksLikePasswordContext(undefined)).toBe(false);
  });

  it('a prompt is a password prompt only when the output ends at it', () => {
    expect(endsAtPasswordPrompt('[sudo] password for bob: ')).toBe(true);
    expect(endsAtPasswordPrompt('Enter passphrase for key /home/bob/.ssh/id_ed25519:')).toBe(true);
    expect(endsAtPasswordPrompt('Password:\n')).toBe(true);
    expect(endsAtPasswordPrompt('Password: ok\nlogged in')).toBe(false);
    expect(endsAtPasswordPrompt(`password ${'x'.repeat(61)}:`)).toBe(false);
    expect(endsAtPasswordPrompt(`password ${'x'.repeat(50)}:`)).toBe(true);
    expect(endsAtPasswordPrompt('password\nfor you:')).toBe(false);
    expect(endsAtPasswordPrompt(undefined)).toBe(false);
  });

  it('a bare password is one token of 1–256 characters; a trailing line break is dropped', () => {
    expect(barePassword('hunter2\n')).toBe('hunter2');
    expect(barePassword('hunter2\r\n')).toBe('hunter2');
    expect(barePassword('hunter2\n\n')).toBeUndefined();
    expect(barePassword('two words')).toBeUndefined();
    expect(barePassword('tab\there')).toBeUndefined();
    expect(barePassword('')).toBeUndefined();
    expect(barePassword('\n')).toBeUndefined();
    expect(barePassword('x'.repeat(256))).toBe('x'.repeat(256));
    expect(barePassword('x'.repeat(257))).toBeUndefined();
  });
});

describe('Scrubber', () => {
  it('redacts given keys of 8+ characters, the longest first, in every string at any depth', () => {
    const s = new Scrubber({ env: {}, secrets: ['sk-abcdefgh', 'sk-abcdefgh-longer', 'short7x'], findSecretSpans: none });
    const out = s.scrub(ev({ type: 'error', message: 'a sk-abcdefgh-longer b sk-abcdefgh c short7x', fatal: false, nested: { list: ['x sk-abcdefgh y'] } }));
    expect(out).toMatchObject({ message: `a ${REDACTED} b ${REDACTED} c short7x`, nested: { list: [`x ${REDACTED} y`] } });
    expect(new Scrubber({ env: { MY_TOKEN: 'tok-12345678' }, findSecretSpans: none }).scrubString('see tok-12345678')).toBe(`see ${REDACTED}`);
  });

  it('masks fields named like secrets whatever their value, at any depth, but never structural fields or empty values', () => {
    const s = new Scrubber({ env: {}, findSecretSpans: none });
    const out = s.scrub(
      ev({
        type: 'error',
        fatal: false,
        message: 'm',
        input: {
          password: 'p1',
          db_passwd: 'p2',
          'user-passphrase': 'p3',
          client_secret: 'p4',
          clientSecret: 'p4b',
          api_key: 'p5',
          'x-apikey': 'p6',
          private_key: 'p7',
          refresh_token: 'p8',
          token: 'p9',
          credentials: 'p10',
          deep: [{ secret: 'p11' }],
          empty: { password: '' },
          tokenizer: 'keep1',
          secretary: 'keep2',
          name: 'keep3',
        },
      }),
    ) as unknown as { input: Record<string, unknown> };
    const i = out.input;
    for (const k of ['password', 'db_passwd', 'user-passphrase', 'client_secret', 'api_key', 'x-apikey', 'private_key', 'refresh_token', 'token', 'credentials']) expect(i[k], k).toBe(REDACTED);
    expect(i.clientSecret).toBe(REDACTED);
    expect(i.deep).toEqual([{ secret: REDACTED }]);
    expect(i.empty).toEqual({ password: '' });
    expect(i.tokenizer).toBe('keep1');
    expect(i.secretary).toBe('keep2');
    expect(i.name).toBe('keep3');
  });

  it('typed secrets are masked from then on, longest first, but never inside structural fields (ids)', () => {
    const s = new Scrubber({ env: {}, findSecretSpans: none });
    s.markSecret('');
    s.markSecret('abc');
    s.markSecret('abcdef');
    expect(s.scrubString('x abcdef y abc z')).toBe(`x ${MASKED_SECRET} y ${MASKED_SECRET} z`);
    expect(s.scrubString('plain')).toBe('plain');
    const out = s.scrub(ev({ type: 'question_answered', questionId: 'q-abc', answer: 'abc', by: 'cli' })) as unknown as Record<string, string>;
    expect(out.questionId).toBe('q-abc');
    expect(out.answer).toBe(MASKED_SECRET);
  });

  it('keys are redacted even inside structural fields', () => {
    const s = new Scrubber({ env: {}, secrets: ['key-12345678'], findSecretSpans: none });
    expect((s.scrub(ev({ type: 'error', message: 'm', fatal: false, id: 'id-key-12345678' })) as unknown as { id: string }).id).toBe(`id-${REDACTED}`);
  });

  it('learns secrets from the detector, an edit, a denial under the secret rule, and the model’s own calls', () => {
    const spans = (t: string) => (t.includes('SECRETX') ? [{ start: t.indexOf('SECRETX'), end: t.indexOf('SECRETX') + 7 }] : []);
    const s = new Scrubber({ env: {}, findSecretSpans: spans });
    s.scrub(ev({ type: 'action_proposed', step: 0, proposalId: 'p0', action: { type: 'type', text: 'a SECRETX b' }, reasoning: '' }));
    expect(s.scrubString('SECRETX')).toBe(MASKED_SECRET);

    s.scrub(ev({ type: 'approval_answered', proposalId: 'p1', answer: { decision: 'edit', action: { type: 'type', text: 'x SECRETX2' } }, by: 'cli' }));
    s.scrub(ev({ type: 'approval_answered', proposalId: 'p1b', answer: { decision: 'edit', action: { type: 'key', keys: 'SECRETXKEY' } }, by: 'cli' }));

    s.scrub(ev({ type: 'action_proposed', step: 1, proposalId: 'p2', action: { type: 'type', text: 'denied words' }, reasoning: '' }));
    s.scrub(ev({ type: 'action_denied', proposalId: 'p2', decision: { verdict: 'deny', rule: 'risk:secret-text', reason: 'r', humanOnly: false } }));
    expect(s.scrubString('denied words')).toBe(MASKED_SECRET);
    s.scrub(ev({ type: 'action_proposed', step: 1, proposalId: 'p3', action: { type: 'type', text: 'other words' }, reasoning: '' }));
    s.scrub(ev({ type: 'action_denied', proposalId: 'p3', decision: { verdict: 'deny', rule: 'risk:terminal-type', reason: 'r', humanOnly: false } }));
    expect(s.scrubString('other words')).toBe('other words');
    s.scrub(ev({ type: 'action_denied', proposalId: 'unknown', decision: { verdict: 'deny', rule: 'risk:secret-text', reason: 'r', humanOnly: false } }));

    s.scrub(ev({ type: 'model_text', step: 2, text: 'I will type the password now', kind: 'text', assistant: { calls: [{ callId: 'c', name: 'computer', input: {}, actions: [{ ok: false, error: 'x' }, { ok: true, action: { type: 'key', keys: 'Return' } }, { ok: true, action: { type: 'type', text: 'Tr0ub4dor\n' } }] }] } }));
    expect(s.scrubString('Tr0ub4dor')).toBe(MASKED_SECRET);
    expect(s.scrubString('Return')).toBe('Return');
    s.scrub(ev({ type: 'model_text', step: 3, text: 'next field', kind: 'text', assistant: { calls: [{ callId: 'd', name: 'computer', input: {}, actions: [{ ok: true, action: { type: 'type', text: 'bobsmith' } }] }], thinking: 'the passphrase box' } }));
    expect(s.scrubString('bobsmith')).toBe(MASKED_SECRET);
    s.scrub(ev({ type: 'model_text', step: 4, text: 'search box', kind: 'text', assistant: { calls: [{ callId: 'e', name: 'computer', input: {}, actions: [{ ok: true, action: { type: 'type', text: 'kittens' } }] }] } }));
    expect(s.scrubString('kittens')).toBe('kittens');
  });

  it('a bare text typed right after a password prompt is a password; the prompt is answered once', () => {
    const s = new Scrubber({ env: {}, findSecretSpans: none });
    const typed = (id: string, text: string, reasoning = '') => s.scrub(ev({ type: 'action_proposed', step: 0, proposalId: id, action: { type: 'type', text }, reasoning }));
    const executed = (id: string, action: Record<string, unknown>, output?: string) =>
      s.scrub(ev({ type: 'action_executed', step: 0, proposalId: id, action, by: { kind: 'mode', detail: 'auto' }, ok: true, durationMs: 1, ...(output !== undefined ? { output } : {}) }));
    typed('a', 'before1');
    expect(s.scrubString('before1')).toBe('before1');
    executed('s', { type: 'shell', command: 'sudo ls' }, '[sudo] password for bob: ');
    typed('b', 'pw-one\n');
    expect(s.scrubString('pw-one')).toBe(MASKED_SECRET);
    executed('b', { type: 'type', text: 'pw-one\n' });
    typed('c', 'after1');
    expect(s.scrubString('after1')).toBe('after1');
    typed('d', 'pw-two', 'the password field has focus');
    expect(s.scrubString('pw-two')).toBe(MASKED_SECRET);
    executed('k', { type: 'key', keys: 'Return' }, 'Password:');
    executed('k2', { type: 'key', keys: 'Return' });
    typed('e', 'pw-three');
    expect(s.scrubString('pw-three')).toBe(MASKED_SECRET);
  });
});

describe('Scrubber: values set on elements (set_value)', () => {
  const proposed = (id: string, value: string, password?: boolean) =>
    ev({ type: 'action_proposed', step: 0, proposalId: id, action: { type: 'element', op: 'set_value', id: 1, value, ...(password !== undefined ? { target: { path: 'p', role: 'password text', name: 'Password', x: 1, y: 1, password } } : {}) }, reasoning: '' });
  it('a value set on a password field is a secret whatever it looks like, from that event on', () => {
    const s = new Scrubber({ env: {}, findSecretSpans: none });
    const logged = s.scrub(proposed('p1', 'plainword', true));
    expect(JSON.stringify(logged)).not.toContain('plainword');
    expect(s.scrubString('the field now holds plainword')).toBe(`the field now holds ${MASKED_SECRET}`);
  });
  it('a value set on another field is judged like typed text: only its secret parts are masked', () => {
    const spans = (t: string) => (t.includes('SECRETX') ? [{ start: t.indexOf('SECRETX'), end: t.indexOf('SECRETX') + 7 }] : []);
    const s = new Scrubber({ env: {}, findSecretSpans: spans });
    s.scrub(proposed('p2', 'hello world', false));
    s.scrub(proposed('p3', 'token SECRETX here'));
    expect(s.scrubString('hello world')).toBe('hello world');
    expect(s.scrubString('a SECRETX b')).toBe(`a ${MASKED_SECRET} b`);
    // …and a later decision under the secret rule masks the whole value of that proposal.
    s.scrub(ev({ type: 'approval_requested', proposalId: 'p2', decision: { verdict: 'ask', rule: 'risk:secret-text', reason: 'r', humanOnly: false } }));
    expect(s.scrubString('hello world')).toBe(MASKED_SECRET);
  });
  it('an invoke or focus carries no value and teaches nothing', () => {
    const s = new Scrubber({ env: {}, findSecretSpans: () => [{ start: 0, end: 3 }] });
    s.scrub(ev({ type: 'action_proposed', step: 0, proposalId: 'p4', action: { type: 'element', op: 'invoke', id: 1 }, reasoning: '' }));
    expect(s.scrubString('abc')).toBe('abc');
  });
});

describe('Scrubber: structural fields keep their text, secret-named fields lose it', () => {
  it.each(['v', 'type', 'runId', 'proposalId', 'callId', 'observationId', 'questionId', 'id', 'image', 'thumb', 'kind', 'rule', 'verdict', 'decision', 'state', 'status'])(
    '%s keeps a typed secret that happens to occur in it',
    (key) => {
      const s = new Scrubber({ env: {}, findSecretSpans: none });
      s.markSecret('abc123');
      const out = s.scrub(ev({ type: 'error', message: 'abc123', fatal: false, nested: { [key]: 'x-abc123-y' } })) as unknown as { message: string; nested: Record<string, string> };
      expect(out.nested[key]).toBe('x-abc123-y');
      expect(out.message).toBe(MASKED_SECRET);
    },
  );
  it.each(['password', 'db_password', 'passwd', 'passphrase', 'secret', 'client_secret', 'api_key', 'apiKey', 'access-key', 'private_key', 'auth_token', 'access_token', 'refresh_token', 'token', 'credentials', 'credential'])(
    'a field named %s is redacted whatever its value',
    (key) => {
      const s = new Scrubber({ env: {}, findSecretSpans: none });
      const out = s.scrub(ev({ type: 'error', message: 'm', fatal: false, nested: { [key]: 'anything' } })) as unknown as { nested: Record<string, string> };
      expect(out.nested[key]).toBe(REDACTED);
    },
  );
  it.each(['tokens', 'keyboard', 'secretary_name', 'passage'])('a field named %s is not a secret field', (key) => {
    const s = new Scrubber({ env: {}, findSecretSpans: none });
    const out = s.scrub(ev({ type: 'error', message: 'm', fatal: false, nested: { [key]: 'anything' } })) as unknown as { nested: Record<string, string> };
    expect(out.nested[key]).toBe('anything');
  });
  it('the markers say what happened', () => {
    expect(REDACTED).toBe('[redacted]');
    expect(MASKED_SECRET).toBe('[masked secret]');
  });
});

describe('DeltaScrubber', () => {
  it('holds text after the last whitespace so a key split over deltas is still redacted', () => {
    const sent: Array<[string, string]> = [];
    const s = new Scrubber({ env: {}, secrets: ['sk-0123456789'], findSecretSpans: none });
    const d = new DeltaScrubber((t) => s.scrubString(t), (t, k) => sent.push([k, t]));
    d.push('my key is sk-0123', 'text');
    d.push('456789 ok', 'text');
    d.push('thinking\tpart', 'thinking');
    d.push('line\nrest', 'text');
    expect(sent).toEqual([
      ['text', 'my key is '],
      ['text', `${REDACTED} `],
      ['thinking', 'thinking\t'],
      ['text', 'okline\n'],
    ]);
    d.flush();
    expect(sent.slice(4)).toEqual([
      ['text', 'rest'],
      ['thinking', 'part'],
    ]);
    d.flush();
    expect(sent).toHaveLength(6);
  });

  it('passes on a run over 4 kB without whitespace instead of holding it forever', () => {
    const sent: string[] = [];
    const d = new DeltaScrubber((t) => t, (t) => sent.push(t));
    d.push('x'.repeat(4096), 'text');
    expect(sent).toEqual([]);
    d.push('y', 'text');
    expect(sent).toEqual(['x'.repeat(4096) + 'y']);
  });
});
