import { describe, expect, it } from 'vitest';
import { findSecrets, maskSecrets, secretKind } from '../../src/shared/secrets.js';

/**
 * The edges of shared/secrets.ts that the detector samples (secret-detectors.test.ts)
 * leave open: every spelling of the assignment keywords, the entropy test's thresholds
 * at their exact values, and how overlapping or touching finds merge. The made-up tokens
 * are built to sit on one threshold each (counts in the comments).
 */

describe('assignment keywords', () => {
  it.each([
    ['password=abcd1234', 'password=•••'],
    ['passwd=abcd1234', 'passwd=•••'],
    ['pwd: abcd1234', 'pwd: •••'],
    ['apikey=abcd1234', 'apikey=•••'],
    ['api-key: abcd1234', 'api-key: •••'],
    ['accesskey=abcd1234', 'accesskey=•••'],
    ['access-key=abcd1234', 'access-key=•••'],
    ['access_key=abcd1234', 'access_key=•••'],
    ['privatekey=abcd1234', 'privatekey=•••'],
    ['private-key: abcd1234', 'private-key: •••'],
    ['client-secret: abcd1234', 'client-secret: •••'],
    ['clientsecret=abcd1234', 'clientsecret=•••'],
    ['credential=abcd1234', 'credential=•••'],
    ['credentials=abcd1234', 'credentials=•••'],
    ['db_password_prod=abcd1234', 'db_password_prod=•••'],
    ['AUTH_TOKEN2 := abcd1234', 'AUTH_TOKEN2 := •••'],
  ])('%j is an assignment', (text, masked) => {
    expect(secretKind(text)).toBe('assignment');
    expect(maskSecrets(text)).toBe(masked);
  });
  it('"key" alone, "access" alone and "api" alone are no keywords', () => {
    expect(findSecrets('key=abcd1234 access=abcd1234 api=abcd1234 keys: abcd1234')).toEqual([]);
  });
});

describe('bearer', () => {
  it('takes any run of whitespace after the scheme', () => {
    expect(maskSecrets('Authorization: Bearer   abcdefghijklmnop1234')).toBe('Authorization: Bearer   •••');
  });
});

describe('the entropy test', () => {
  const flagged = (token: string) => findSecrets(token).length > 0;

  it('flags a random mixed token of exactly 24 characters', () => {
    expect(findSecrets('Xk9pQ2mN7vR4tL8wZ3cF6hJ1')).toEqual([{ start: 0, end: 24, kind: 'high-entropy' }]);
  });
  it('needs upper case, lower case and a digit outside hex', () => {
    // 28 characters, no repeat among the letters: random enough, but one case only.
    expect(flagged('a1b2c3d4e5f6g7h8i9j0k1l2m3n4')).toBe(false);
    expect(flagged('A1B2C3D4E5F6G7H8I9J0K1L2M3N4')).toBe(false);
    expect(flagged('a1b2c3d4e5f6g7h8i9j0K1L2M3N4')).toBe(true);
  });
  it('hex: 32 characters is enough, with a letter and a digit, above 3 bits per character', () => {
    expect(flagged('0123456789abcdef0123456789abcdef')).toBe(true);
    // digits only: no a–f
    expect(flagged('01234567890123456789012345678901')).toBe(false);
    // 8 symbols, each 4 times: exactly 3.0 bits per character, not above
    expect(flagged('0123abcd0123abcd0123abcd0123abcd')).toBe(false);
  });
  it('mixed: exactly 4.0 bits per character is not enough', () => {
    // 16 symbols, each twice: 4.0 bits per character
    expect(flagged('A1b2C3d4E5f6G7h8A1b2C3d4E5f6G7h8')).toBe(false);
    // the same 16 symbols and a 17th: above 4.0
    expect(flagged('A1b2C3d4E5f6G7h8A1b2C3d4E5f6G7h8Z')).toBe(true);
  });
  it('a token 60% in capitalised word runs is wordy (its capitals count); just under is not', () => {
    // Qvexl Jumbt Wzykp: 15 of 25 characters in word runs, 25 distinct symbols
    expect(flagged('Qvexl3Jumbt8Wzykp19275604')).toBe(false);
    // Qvex Jumb Wzyk Fohd: 16 of 26 (0.615), counted with their capitals; 12 of 26 without
    expect(flagged('Qvex3Jumb8Wzyk1Fohd9275604')).toBe(false);
    // Qvex Jumb Wzyk: 12 of 25 (0.48)
    expect(flagged('Qvex3Jumb8Wzyk1F9o27h5d64')).toBe(true);
  });
  it('base64 padding is stripped before judging and masked with the token', () => {
    // a 32-character hex key: judged as hex only without its "=="
    expect(findSecrets('k 0123456789abcdef0123456789abcdef== x')).toEqual([{ start: 2, end: 36, kind: 'high-entropy' }]);
    // no upper case, padded: padding adds no character class
    expect(findSecrets('a1b2c3d4e5f6g7h8i9j0k1l2m3n4==')).toEqual([]);
  });
});

describe('spans', () => {
  it('are sorted by position whatever detector found them', () => {
    const text = 'password=hunter22 then sk-ant-api03-AbCdEfGh12345678';
    expect(findSecrets(text)).toEqual([
      { start: 9, end: 17, kind: 'assignment' },
      { start: 23, end: 52, kind: 'anthropic-key' },
    ]);
    expect(maskSecrets(text, '#')).toBe('password=# then #');
  });
  it('starting together, the longest one names the merged span', () => {
    // stripe-key stops at "-"; the entropy test's run goes on through it
    expect(findSecrets('sk_live_Xk9pQ2mN7vR4tL8w-Z3cF6hJ1bD5gS0aE end')).toEqual([{ start: 0, end: 41, kind: 'high-entropy' }]);
  });
  it('one inside another leaves the outer span whole', () => {
    const text = '-----BEGIN RSA PRIVATE KEY-----\nXk9pQ2mN7vR4tL8wZ3cF6hJ1bD5gS0aE\n-----END RSA PRIVATE KEY----- after';
    expect(findSecrets(text)).toEqual([{ start: 0, end: text.length - ' after'.length, kind: 'private-key' }]);
    expect(maskSecrets(text)).toBe('••• after');
  });
  it('touching ones merge into one span', () => {
    const key = 'sk_live_aaaaaaaaaaaaaaaa';
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----';
    expect(findSecrets(key + pem)).toEqual([{ start: 0, end: key.length + pem.length, kind: 'stripe-key' }]);
    expect(maskSecrets(`${key + pem}!`)).toBe('•••!');
  });
  it('text with no secret comes back as it was', () => {
    expect(maskSecrets('nothing to hide here', '#')).toBe('nothing to hide here');
    expect(maskSecrets('', '#')).toBe('');
  });
});
