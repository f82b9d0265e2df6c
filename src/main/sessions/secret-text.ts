/**
 * Fallback for "does this typed text look like a secret?" until the supervision
 * engineer's `looksLikeSecret` (src/main/agent/supervision/) is wired in; the scrubber
 * takes the predicate as an option so the policy and the log share one definition.
 */
export function looksLikeSecretFallback(text: string): boolean {
  const t = text.trim();
  if (t.length < 8 || /\s/.test(t)) return false;
  // Well-known credential shapes.
  if (/^(sk|pk|rk)-[A-Za-z0-9_-]{16,}$/.test(t)) return true;
  if (/^(ghp|gho|ghu|ghs|github_pat)_[A-Za-z0-9_]{20,}$/.test(t)) return true;
  if (/^AKIA[0-9A-Z]{16}$/.test(t)) return true;
  if (/^xox[abpr]-[A-Za-z0-9-]{10,}$/.test(t)) return true;
  if (/^eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(t)) return true;
  // A password-like token: mixes at least three character classes.
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((r) => r.test(t)).length;
  return classes >= 3 && t.length <= 128 && !/^https?:\/\//.test(t) && !/@.*\./.test(t);
}
