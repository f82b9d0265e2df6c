/**
 * Does a piece of text look like a secret or a credential? Used twice:
 * the risk rules hold typing such text for a person (risk:secret-text), and the
 * sessions store masks it before it is written to logs and exports.
 *
 * Deliberately generous: a false positive costs one extra approval click or one
 * masked word in a log; a false negative can leak a key. Each detector names itself
 * so a decision can say which one fired.
 */

export interface SecretSpan {
  start: number;
  end: number;
  /** Which detector matched, e.g. "openai-key", "assignment", "high-entropy". */
  kind: string;
}

interface Detector {
  kind: string;
  pattern: RegExp;
  /** Which capture group is the secret itself (0 = the whole match). */
  group?: number;
  /** Whether a match is a secret after all (a named value that reads as a label or a word is not). */
  accept?(match: RegExpMatchArray): boolean;
}

/**
 * The words that name a secret in a label or a sentence ("Password", "PIN:", "api_key",
 * "Confirm password:"): never a secret themselves. A screen's label is one, and so is the
 * next label OCR reads on the same line ("New password: Confirm password:").
 */
const SECRET_NAME = /^(?:(?:new|old|current|confirm|repeat|your)[_-]?)?(?:passw(?:or)?d|passphrase|passcode|pin|kennwort|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)[:=]?$/i;

/** Is this word a label naming a secret (exactly one of the names, maybe with its colon)? */
export function namesSecret(word: string): boolean {
  return SECRET_NAME.test(word);
}

/**
 * The words a form or a message writes after a secret's name that are not the secret: a
 * button or the next label ("Password: Show", "Token: Required") and prose about it ("the
 * password is incorrect", "is required", "has expired"). A closed list, not "any word of
 * letters": weak passwords are words ("password is sunshine", "Password: Letmein"), and
 * a label filled in an export costs a word while a password left in the clear is a leak.
 */
const NOT_A_SECRET = /^(?:show|hide|shown|hidden|visible|confirm|confirmed|repeat|change|changed|reset|forgot|forgotten|enter|edit|generate|generated|copy|copied|required|optional|mandatory|needed|missing|empty|blank|none|unknown|incorrect|correct|invalid|valid|wrong|expired|weak|strong|accepted|rejected|saved|stored|protected|encrypted|different|same|too|not|set|case-sensitive)$/i;

// Well-known credential shapes. Every pattern is global: we collect all spans.
const DETECTORS: Detector[] = [
  { kind: 'private-key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----|$)/gd },
  { kind: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{16,}/gd },
  { kind: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/gd },
  { kind: 'stripe-key', pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/gd },
  { kind: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/gd },
  { kind: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/gd },
  { kind: 'slack-token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/gd },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/gd },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}/gd },
  { kind: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}/gd },
  { kind: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{30,}/gd },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/gd },
  // user:password@ in a URL
  { kind: 'url-credentials', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:([^\s@/]+)@/gid, group: 1 },
  // password=…, "api_key": "…", export GITHUB_TOKEN=…, client_secret: … (the name may run on
  // both sides of the keyword: GITHUB_TOKEN, client_secret, db_password_prod)
  {
    kind: 'assignment',
    pattern:
      /\b[A-Za-z0-9_]*(?:passw(?:or)?d|pwd|secret|token(?!s\b)|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)[A-Za-z0-9_]*["']?\s*(:=|:|=)\s*(["']?)([^\s"',;]{4,})/gid,
    group: 3,
    // A label's next word is no value: another name ("Password: Password"), or a form's word unquoted after ":" ("Password: Show").
    accept: (m) => !namesSecret(m[3]!) && !(m[1] === ':' && !m[2] && NOT_A_SECRET.test(m[3]!)),
  },
  // A password named as such in prose: "the password is P@ssw0rd!2024", "my pin is 4821",
  // "passcode was 1234": the word after "is"/"was" (4 characters or more, a PIN's length),
  // unless it is prose an OCR'd screen says often ("the password is incorrect", "is
  // required", "was Password"): NOT_A_SECRET or a secret's name.
  {
    kind: 'named-password',
    pattern: /\b(?:passw(?:or)?d|passphrase|passcode|pin(?:\s+code)?|kennwort|mot de passe)\s+(?:is|was)\s*:?\s*["']?([^\s"']{4,}?)["'.,;]*(?=\s|$)/gid,
    group: 1,
    accept: (m) => !NOT_A_SECRET.test(m[1]!) && !namesSecret(m[1]!),
  },
  { kind: 'bearer', pattern: /\b(?:Bearer|Basic)\s+([A-Za-z0-9._~+/=-]{16,})/gd, group: 1 },
];

function shannonBitsPerChar(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * A long unbroken run of letters and digits that mixes character classes and is
 * close to random: an unlabelled key. Plain words, paths and URLs do not pass
 * because they lack digits or entropy, or contain separators we split on.
 */
function looksRandom(token: string): boolean {
  const hasDigit = /\d/.test(token);
  const hasLower = /[a-z]/.test(token);
  const hasUpper = /[A-Z]/.test(token);
  const isHex = /^[0-9a-fA-F]+$/.test(token);
  if (isHex) return token.length >= 32 && hasDigit && /[a-fA-F]/.test(token) && shannonBitsPerChar(token) > 3.0;
  if (!hasDigit || !(hasLower && hasUpper)) return false;
  // Paths and camelCase names are made of words; a random key rarely is. Share of the
  // token in word-like runs ("Projects", "home"): random base62 keys sit near 0.15
  // (p99 ≈ 0.5 for 32 chars), paths and identifiers above 0.6.
  let wordy = 0;
  for (const m of token.matchAll(/[A-Z]?[a-z]{3,}/g)) wordy += m[0].length;
  if (wordy / token.length >= 0.6) return false;
  return shannonBitsPerChar(token) > 4.0;
}

/** Every span of `text` that looks like a secret, sorted, overlaps merged. */
export function findSecrets(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const d of DETECTORS) {
    for (const m of text.matchAll(d.pattern)) {
      // The `d` flag gives each group's exact position.
      // Stryker disable next-line OptionalChaining: equivalent — every DETECTORS pattern has the d flag, so indices is always set
      const range = m.indices?.[d.group ?? 0];
      // Stryker disable next-line ConditionalExpression: equivalent — each detector's group is mandatory in its pattern, so it takes part in every match
      if (!range || (d.accept && !d.accept(m))) continue;
      spans.push({ start: range[0], end: range[1], kind: d.kind });
    }
  }
  // Candidates for the entropy test: unbroken runs of 24 characters or more, judged
  // without their base64 padding ("=" is not in the run's class: it can only be that).
  for (const m of text.matchAll(/[A-Za-z0-9+/_-]{24,}={0,2}/g)) {
    if (looksRandom(m[0].replaceAll('=', ''))) {
      spans.push({ start: m.index, end: m.index + m[0].length, kind: 'high-entropy' });
    }
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretSpan[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  return merged;
}

/** True when the text contains something that looks like a secret or credential. */
export function looksLikeSecret(text: string): boolean {
  return findSecrets(text).length > 0;
}

/** The first detector that matches, for a decision's reason; undefined when none. */
export function secretKind(text: string): string | undefined {
  return findSecrets(text)[0]?.kind;
}

/** The text with every secret replaced by `mask` (for logs and exports). */
export function maskSecrets(text: string, mask = '•••'): string {
  let out = '';
  let at = 0;
  for (const s of findSecrets(text)) {
    out += text.slice(at, s.start) + mask;
    at = s.end;
  }
  return out + text.slice(at);
}
