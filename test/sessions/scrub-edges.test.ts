import { describe, expect, it } from 'vitest';
import { barePassword, DeltaScrubber, endsAtPasswordPrompt, MASKED_SECRET, REDACTED, Scrubber } from '../../src/main/sessions/scrub.js';
import type { RunEvent } from '../../src/shared/events.js';

/**
 * The scrubber's edges (scrub-unit.test.ts has its rules): secret field names written
 * as one word, the rest of the structural fields, a key of exactly the minimum length,
 * what is learnt from an approval that edits the text, a password context split over the
 * model's words and its thinking, null values, and streamed text that starts with a space.
 */
const ev = (e: Record<string, unknown>) => ({ v: 1, seq: 1, ts: 1, runId: 'r', ...e }) as unknown as RunEvent;
const none = () => [];
/** A detector that finds every word starting with "SECRET". */
const secretWords = (t: string) => [...t.matchAll(/SECRET\w*/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
const nested = (out: RunEvent) => (out as unknown as { nested: Record<string, unknown> }).nested;

describe('secret field names', () => {
  it.each(['clientsecret', 'accesskey', 'AccessKey', 'privatekey', 'authtoken', 'accesstoken', 'refreshToken', 'auth-token', 'x_access_token'])('%s, words run together or not, is redacted', (key) => {
    const s = new Scrubber({ env: {}, findSecretSpans: none });
    expect(nested(s.scrub(ev({ type: 'error', message: 'm', fatal: false, nested: { [key]: 'anything' } })))[key]).toBe(REDACTED);
  });
  it.each(['nextPageToken', 'mytoken', 'topsecret'])('%s ends in a secret word without a separator: not a secret field', (key) => {
    const s = new Scrubber({ env: {}, findSecretSpans: none });
    expect(nested(s.scrub(ev({ type: 'error', message: 'm', fatal: false, nested: { [key]: 'page-2' } })))[key]).toBe('page-2');
  });
});

describe('structural fields', () => {
  it.each(['format', 'policy', 'provider', 'model', 'name'])('%s keeps a typed secret that happens to occur in it', (key) => {
    const s = new Scrubber({ env: {}, findSecretSpans: none });
    s.markSecret('abc123');
    const out = nested(s.scrub(ev({ type: 'error', message: 'm', fatal: false, nested: { [key]: 'x-abc123-y', other: 'x-abc123-y' } })));
    expect(out[key]).toBe('x-abc123-y');
    expect(out.other).toBe(`x-${MASKED_SECRET}-y`);
  });
});

describe('values', () => {
  it('a given key of exactly 8 characters is redacted; one of 7 is not', () => {
    const s = new Scrubber({ env: {}, secrets: ['k-345678', 'k-34567'], findSecretSpans: none });
    expect(s.scrubString('a k-345678 b')).toBe(`a ${REDACTED} b`);
    expect(s.scrubString('a k-34567 b')).toBe('a k-34567 b');
  });
  it('null values and numbers pass through as they are', () => {
    const s = new Scrubber({ env: {}, findSecretSpans: none });
    expect(nested(s.scrub(ev({ type: 'error', message: 'm', fatal: false, nested: { gone: null, n: 3, list: [null, 'x'] } })))).toEqual({ gone: null, n: 3, list: [null, 'x'] });
  });
});

describe('prompts and bare passwords', () => {
  it('reads "passwd" and "password" prompts', () => {
    expect(endsAtPasswordPrompt('New passwd:')).toBe(true);
    expect(endsAtPasswordPrompt('Password for bob:')).toBe(true);
  });
  it('a single character is a bare password; a line break inside the text is not dropped', () => {
    expect(barePassword('x')).toBe('x');
    expect(barePassword('ab\ncd')).toBeUndefined();
    expect(barePassword('ab\ncd\n')).toBeUndefined();
  });
});

describe('what the scrubber learns', () => {
  it('text with spaces typed in a password context is not a bare password: nothing is masked and nothing fails', () => {
    const s = new Scrubber({ env: {}, findSecretSpans: none });
    s.scrub(ev({ type: 'action_proposed', step: 0, proposalId: 'p', action: { type: 'type', text: 'hello world' }, reasoning: 'the password field' }));
    expect(s.scrubString('hello world')).toBe('hello world');
  });

  it('an edit that types new text teaches its secrets; approvals and edits to other actions teach nothing', () => {
    const s = new Scrubber({ env: {}, findSecretSpans: secretWords });
    const answered = (id: string, answer: Record<string, unknown>) => s.scrub(ev({ type: 'approval_answered', proposalId: id, answer, by: { kind: 'person', detail: 'cli' } }));
    answered('p1', { decision: 'approve' });
    answered('p2', { decision: 'reject', feedback: 'no SECRETREJECT' });
    answered('p3', { decision: 'edit', action: { type: 'key', keys: 'SECRETKEY' } });
    expect(s.scrubString('SECRETREJECT SECRETKEY')).toBe('SECRETREJECT SECRETKEY');
    answered('p4', { decision: 'edit', action: { type: 'type', text: 'use SECRETEDIT' } });
    expect(s.scrubString('SECRETEDIT')).toBe(MASKED_SECRET);
  });

  it('a later secret-rule decision masks the edited text of that proposal whole', () => {
    const s = new Scrubber({ env: {}, findSecretSpans: none });
    s.scrub(ev({ type: 'approval_answered', proposalId: 'p5', answer: { decision: 'edit', action: { type: 'type', text: 'edited words' } }, by: { kind: 'person', detail: 'cli' } }));
    expect(s.scrubString('edited words')).toBe('edited words');
    s.scrub(ev({ type: 'action_denied', proposalId: 'p5', decision: { verdict: 'deny', rule: 'risk:secret-text', reason: 'r', humanOnly: false } }));
    expect(s.scrubString('edited words')).toBe(MASKED_SECRET);
  });

  it('the model’s words and its thinking are read as separate lines for a password context', () => {
    const typed = (text: string, thinking: string) => {
      const s = new Scrubber({ env: {}, findSecretSpans: none });
      s.scrub(ev({ type: 'model_text', step: 0, text, kind: 'text', assistant: { calls: [{ callId: 'c', name: 'computer', input: {}, actions: [{ ok: true, action: { type: 'type', text: '4711' } }] }], thinking } }));
      return s.scrubString('4711');
    };
    expect(typed('the field', 'pin needed')).toBe(MASKED_SECRET);
    expect(typed('the field for the', 'pin')).toBe(MASKED_SECRET);
  });

  it('model text with no assistant turn (nothing typed) is logged as it is, without failing', () => {
    const s = new Scrubber({ env: {}, findSecretSpans: none });
    const out = s.scrub(ev({ type: 'model_text', step: 0, text: 'I will look at the password dialog', kind: 'text' }));
    expect((out as unknown as { text: string }).text).toBe('I will look at the password dialog');
  });
});

describe('streamed text', () => {
  it('a leading space is passed on at once', () => {
    const sent: string[] = [];
    const d = new DeltaScrubber((t) => t, (t) => sent.push(t));
    d.push(' rest', 'text');
    expect(sent).toEqual([' ']);
  });
});
