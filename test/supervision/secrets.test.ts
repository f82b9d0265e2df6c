import { describe, expect, it } from 'vitest';
import { findSecrets, looksLikeSecret, maskSecrets, secretKind } from '../../src/shared/secrets.js';

describe('looksLikeSecret', () => {
  const secrets: Array<[string, string]> = [
    ['sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'anthropic-key'],
    ['my key is sk-proj-abcDEF1234567890ghiJKL', 'openai-key'],
    ['ghp_0123456789abcdefghijABCDEFGHIJ012345', 'github-token'],
    ['AKIAIOSFODNN7EXAMPLE', 'aws-access-key'],
    ['xoxb-1234567890-abcdefghij', 'slack-token'],
    ['AIzaSyA1234567890abcdefghijklmnopqrstuv', 'google-api-key'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----', 'private-key'],
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'jwt'],
    ['password: hunter22', 'assignment'],
    ['export GITHUB_TOKEN=abc123def456', 'assignment'],
    ['{"api_key": "q8w7e6r5t4"}', 'assignment'],
    ['https://alice:s3cr3tpw@example.com/repo.git', 'url-credentials'],
    ['Authorization: Bearer abcdefghijklmnop1234', 'bearer'],
    ['Zm9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZg7Xq', 'high-entropy'],
  ];
  it.each(secrets)('flags %j as %s', (text, kind) => {
    expect(looksLikeSecret(text)).toBe(true);
    expect(secretKind(text)).toBe(kind);
  });

  const plain = [
    'hello world',
    'Grüße, 世界! 👋',
    'ls -la /home/user/Documents',
    'https://example.com/some/long/path/to/a/page.html',
    'max_tokens: 1000',
    'The author: Jane Doe',
    'internationalization_and_localization_settings',
    'rename the screenshots on my desktop by date',
    'Screenshot_2026-11-30_04-12-33.png',
    '/home/User/Projects/MyApp2024/src/index.ts',
    '/home/alice/Downloads/Invoice_2024_03_Final.pdf',
    'ThisIsAVeryLongCamelCaseIdentifierWith2Numbers',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  ];
  it.each(plain)('does not flag %j', (text) => {
    expect(looksLikeSecret(text)).toBe(false);
  });
});

describe('maskSecrets', () => {
  it('masks only the secret part and keeps the rest', () => {
    expect(maskSecrets('login with password=hunter22 now')).toBe('login with password=••• now');
    expect(maskSecrets('key sk-ant-api03-AbCdEfGhIjKlMnOpQrSt and more', '***')).toBe('key *** and more');
    expect(maskSecrets('nothing here')).toBe('nothing here');
  });
  it('flags nearly every random 32-character key (the word-share test spares paths, not keys)', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    // A fixed pseudo-random sequence, so the test is deterministic.
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let flagged = 0;
    for (let i = 0; i < 1000; i++) {
      let key = '';
      for (let j = 0; j < 32; j++) key += alphabet[Math.floor(rand() * alphabet.length)];
      if (looksLikeSecret(key)) flagged++;
    }
    expect(flagged).toBeGreaterThanOrEqual(980);
  });
  it('merges overlapping detections into one span', () => {
    const spans = findSecrets('token=sk-ant-api03-AbCdEfGhIjKlMnOpQrSt');
    expect(spans).toHaveLength(1);
    expect(spans[0]!.start).toBe('token='.length);
  });
});
