import { describe, expect, it } from 'vitest';
import { findSecrets, looksLikeSecret, maskSecrets, namesSecret, secretKind } from '../../src/shared/secrets.js';

/**
 * Each detector of shared/secrets.ts on a sample of its shape (made up, never a real
 * credential), with the exact span it masks, and on the nearest thing that is not one
 * (one character too short, a plain word). Both uses depend on it: risk:secret-text holds
 * the typing for a person, and the sessions store masks the span before writing. A
 * detector that matched too little would leave part of a key in a log.
 */
describe.each([
  ['private-key', 'key: -----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY----- done', 'key: ••• done'],
  ['private-key', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA', '•••'],
  ['anthropic-key', 'use sk-ant-api03-AbCdEfGh12345678 now', 'use ••• now'],
  ['openai-key', 'sk-proj-abcdefghij0123456789XYZ end', '••• end'],
  ['openai-key', 'sk-abcdefghij0123456789abcd end', '••• end'],
  ['stripe-key', 'stripe sk_live_abcdefghij012345 x', 'stripe ••• x'],
  ['stripe-key', 'rk_test_0123456789abcdef', '•••'],
  ['github-token', 'ghp_abcdefghijklmnopqrstuvwxyz0123 x', '••• x'],
  ['github-token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', '•••'],
  ['gitlab-token', 'glpat-abcdefghij0123456789', '•••'],
  ['slack-token', 'xoxb-1234567890-abc', '•••'],
  ['aws-access-key', 'id AKIAIOSFODNN7EXAMPLE', 'id •••'],
  ['google-api-key', 'AIzaSyA1234567890abcdefghijklmnopqrstuv', '•••'],
  ['npm-token', 'npm_abcdefghijklmnopqrstuvwxyz0123456789', '•••'],
  ['huggingface-token', 'hf_abcdefghijklmnopqrstuvwxyz0123', '•••'],
  ['jwt', 'eyJhbGciOiJI.eyJzdWIiOiIx.SflKxwRJSMeKKF2QT4', '•••'],
  ['url-credentials', 'https://user:s3cretpass@example.com/x', 'https://user:•••@example.com/x'],
  ['assignment', 'password=hunter22', 'password=•••'],
  ['assignment', 'export GITHUB_TOKEN=abcd1234', 'export GITHUB_TOKEN=•••'],
  ['assignment', '"api_key": "abcd1234"', '"api_key": "•••"'],
  ['assignment', 'client_secret := w1x2y3z4', 'client_secret := •••'],
  ['named-password', 'the password is P@ssw0rd!2024', 'the password is •••'],
  ['named-password', 'my pin is 4821.', 'my pin is •••.'],
  ['named-password', 'Passcode was "hunter2x" yesterday', 'Passcode was "•••" yesterday'],
  ['named-password', 'le mot de passe is s3cr3t!', 'le mot de passe is •••'],
  // A value after a label is one unless it reads as the next label (issue 28 item 3): lower case, quoted, after "=", or with a digit.
  ['assignment', 'password: letmein', 'password: •••'],
  ['assignment', '"password": "Letmein"', '"password": "•••"'],
  ['assignment', 'password=Letmein', 'password=•••'],
  ['assignment', 'Password: Hunter2x', 'Password: •••'],
  ['assignment', 'Password: Show password=hunter22', 'Password: Show password=•••'],
  // A word is a weak password, not prose: only a closed list of a form's words is let through.
  ['assignment', 'Password: Letmein', 'Password: •••'],
  ['named-password', 'my password is sunshine', 'my password is •••'],
  ['named-password', 'The password is Dragon.', 'The password is •••.'],
  ['bearer', 'Authorization: Bearer abcdefghijklmnop1234', 'Authorization: Bearer •••'],
  ['bearer', 'Basic dXNlcjpwYXNzd29yZDEyMzQ=', 'Basic •••'],
  ['high-entropy', 'deadbeef0123456789abcdef0123456789abcdef', '•••'],
  ['high-entropy', 'Xk9pQ2mN7vR4tL8wZ3cF6hJ1bD5gS0aE', '•••'],
])('%s', (kind, text, masked) => {
  it('is found, named and masked exactly', () => {
    expect(secretKind(text)).toBe(kind);
    expect(looksLikeSecret(text)).toBe(true);
    expect(maskSecrets(text)).toBe(masked);
  });
});

describe('near misses are not secrets', () => {
  it.each([
    ['a Stripe-shaped key one character short', 'pk_live_abcdefghijklmno'],
    ['a GitLab-shaped token too short', 'glpat-abcdefghij012345678'],
    ['a Slack-shaped token too short', 'xoxb-123456789'],
    ['an npm-shaped token too short', 'npm_abcdefghijklmnopqrstuvwxyz012345678'],
    ['a Hugging Face-shaped token too short', 'hf_abcdefghijklmnopqrstuvwxyz012'],
    ['a GitHub-shaped token too short', 'ghp_abcdefghijklmnopqrstuvwxyz012'],
    ['a JWT whose signature is too short', 'eyJhbGciOiJI.eyJzdWIiOiIx.SflKxwR'],
    ['"tokens" is not "token"', 'tokens = 5'],
    ['a value under 4 characters', 'password=abc'],
    ['"Bearer" with a short word', 'Bearer short'],
    ['repeated hex without digits', 'deadbeefdeadbeefdeadbeefdeadbeef'],
    ['hex under 32 characters', '0123456789abcdef0123456789abcd'],
    ['a long hex of one digit and a letter, low entropy', '0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a'],
    ['a camel-case path of words', 'HomeUserProjectsDeskpilotSource1'],
    ['lower case and digits only', 'abcdefghijklmnopqrstuvwxyz012345'],
    ['a mixed token under 24 characters', 'Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op'],
    ['letters of both cases without a digit', 'XkpQmNvRtLwZcFhJbDgSaEqWeRtYuIoP'],
    ['plain prose', 'Please open the calculator and compute 2+3.'],
    ['a PIN named but shorter than 4', 'my pin is 482'],
    ['"pin" inside a word', 'the spin is fast'],
    // Labels and prose about a password are not one (issue 28 item 3: `--redact` filled the word "password").
    ['a label and the button after it', 'Password: Show'],
    ['two labels on one line', 'New password: Confirm password:'],
    ['a label and its own name again', 'Password: Password'],
    ['a label and the next, quoted names', 'api_key: "token"'],
    ['prose: a word of letters after "is"', 'the password is incorrect.'],
    ['prose: required', 'Password is required'],
    ['prose: a name after "was"', 'my pin was Passcode'],
    ['prose: has the form\'s words', 'Password is Incorrect'],
    ['a label, then a form word', 'Token: Required'],
    ['the word alone', 'Password'],
  ])('%s', (_what, text) => {
    expect(findSecrets(text)).toEqual([]);
    expect(secretKind(text)).toBeUndefined();
    expect(maskSecrets(text)).toBe(text);
  });
});

describe('namesSecret: a word that names a secret is a label, never the secret', () => {
  it.each(['Password', 'password:', 'PIN', 'passcode', 'Passphrase', 'api_key', 'API-KEY=', 'Token', 'secret', 'credentials', 'NewPassword', 'confirm_password:', 'pwd', 'Kennwort', 'access-key', 'private_key'])('%s is a name', (word) => {
    expect(namesSecret(word)).toBe(true);
  });
  it.each(['hunter2', 'Passw0rd', 'passwords', 'spin', 'Show', 'Confirm', 'mypassword', 'password is', 'P@ssw0rd!2024', 'tokens', ''])('%s is not', (word) => {
    expect(namesSecret(word)).toBe(false);
  });
});

describe('several secrets', () => {
  it('are masked each, in order, with a custom mask; overlapping finds merge into one span', () => {
    const text = 'a=sk-ant-api03-AbCdEfGh12345678 b=ghp_abcdefghijklmnopqrstuvwxyz0123 c';
    expect(maskSecrets(text, '[x]')).toBe('a=[x] b=[x] c');
    // "password=sk-ant-…" is found by the key detector and the assignment over the same characters: one span, named by the more specific (the key's, listed first).
    expect(findSecrets('password=sk-ant-api03-AbCdEfGh12345678')).toEqual([{ start: 9, end: 38, kind: 'anthropic-key' }]);
  });
});
