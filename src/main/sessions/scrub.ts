import type { RunEvent } from '../../shared/events.js';
import { SECRET_TEXT_RULE } from '../../shared/rule-ids.js';
import { findSecrets } from '../../shared/secrets.js';

/** What an API key or token is replaced with, everywhere in the log. */
export const REDACTED = '[redacted]';
/** What typed text that the policy marks as a secret is stored as. */
export const MASKED_SECRET = '[masked secret]';

/** Values shorter than this are not treated as keys: replacing "1" or "yes" everywhere would wreck the log. */
const MIN_KEY_LENGTH = 8;

/**
 * Names of environment variables that hold credentials: *_KEY (API_KEY, ACCESS_KEY,
 * PRIVATE_KEY …), *_TOKEN, *_SECRET, anything with PASSWORD/PASSWD/PASSPHRASE or
 * CREDENTIAL in it. Generous on purpose: a masked harmless value costs a word in a log.
 */
export const CREDENTIAL_ENV_NAME = /(^|_)(KEY|TOKEN|SECRET)S?$|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL/i;

/** Environment values that are credentials (see CREDENTIAL_ENV_NAME). */
export function credentialValuesFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < MIN_KEY_LENGTH) continue;
    if (CREDENTIAL_ENV_NAME.test(name)) out.push(value);
  }
  return out;
}

/**
 * Object keys whose string value is a credential wherever it appears (a tool input
 * {"password": "…"}, provider state {"api_key": "…"}): masked whole, whatever it looks like.
 * The name itself, or its last part after "_" or "-" (auth_token, client-secret); the
 * words run together (clientSecret, authToken) are listed as such.
 */
const SECRET_FIELD = /^(?:.*[_-])?(?:passw(?:or)?d|passphrase|secret|clientsecret|api[_-]?key|access[_-]?key|private[_-]?key|authtoken|accesstoken|refreshtoken|token|credentials?)$/i;

/** Words that say a person is at a password: in a window title, the model's words, a prompt. */
const PASSWORD_CONTEXT = /passw(?:or)?d|passphrase|\bpin\b|kennwort|mot de passe|contraseña/i;
/** A prompt that waits for a password (sudo, ssh, su, gpg): its last line ends with "password…:". */
const PASSWORD_PROMPT = /(?:passw(?:or)?d|passphrase)[^\n]{0,60}:\s*$/i;

/** Is the person's context a password entry? (a window title or the model's own words). */
export function looksLikePasswordContext(text: string | undefined): boolean {
  return text !== undefined && PASSWORD_CONTEXT.test(text);
}

/** Does this output end at a password prompt? */
export function endsAtPasswordPrompt(output: string | undefined): boolean {
  return output !== undefined && PASSWORD_PROMPT.test(output);
}

/** The typed text as a bare password: one token, no spaces (a trailing Enter dropped); undefined otherwise. */
export function barePassword(typed: string): string | undefined {
  const t = typed.replace(/\r?\n$/, '');
  return t.length >= 1 && t.length <= 256 && !/\s/.test(t) ? t : undefined;
}

/**
 * The part of typed text that is a password, from where it goes: all of it into a
 * password field (the accessibility tree's role or state), a bare word into a window
 * whose title says password; undefined otherwise. The runner (model and replay turns)
 * and the recorder (a person's typing) mask with this one decision.
 */
export function typedPassword(typed: string, into: { passwordField: boolean; windowTitle?: string | undefined }): string | undefined {
  if (into.passwordField) return typed.length > 0 ? typed : undefined;
  return looksLikePasswordContext(into.windowTitle) ? barePassword(typed) : undefined;
}

/**
 * Fields that name things (ids, file paths, enum values): a short typed secret that
 * happens to occur inside an id must not break the references resume and exports follow.
 */
const STRUCTURAL_KEYS = new Set(['v', 'type', 'runId', 'proposalId', 'callId', 'observationId', 'questionId', 'id', 'image', 'thumb', 'modelImage', 'kind', 'rule', 'verdict', 'decision', 'state', 'status', 'format', 'policy', 'provider', 'model', 'name']);

export interface ScrubberOptions {
  /** Extra credential values to redact (a key from the keychain, a --api-key value). */
  secrets?: string[];
  /** Environment to read key values from; process.env by default. */
  env?: NodeJS.ProcessEnv;
  /** The spans of a text that are secrets; the policy's own detector (supervision's findSecrets) by default. */
  findSecretSpans?: (text: string) => Array<{ start: number; end: number }>;
}

/**
 * Applied by the run log to every event before it is written: credential values are
 * replaced wherever they occur in any string; typed text that looks like a secret (or
 * that the gate held under the secret rule, `SECRET_TEXT_RULE`) is masked in this event and in every
 * later one (the model's raw tool input, its provider replay state, its reasoning).
 * Exports are rendered from the log alone, so they inherit this.
 */
export class Scrubber {
  private readonly keys: string[];
  private readonly typed = new Set<string>();
  /** `typed`, longest first, so a secret that contains another is masked whole. */
  private typedByLength: string[] = [];
  /** Typed text per proposal, so a later secret-rule decision can mask it from then on. */
  private readonly proposalText = new Map<string, string>();
  private readonly findSecretSpans: (text: string) => Array<{ start: number; end: number }>;

  constructor(options: ScrubberOptions = {}) {
    const all = [...credentialValuesFromEnv(options.env), ...(options.secrets ?? [])].filter((s) => s.length >= MIN_KEY_LENGTH);
    // Longest first, so a key that contains another is replaced whole.
    this.keys = [...new Set(all)].sort((a, b) => b.length - a.length);
    this.findSecretSpans = options.findSecretSpans ?? findSecrets;
  }

  /** A password prompt was the last thing a tool printed: the next bare text typed is a password. */
  private promptPending = false;

  /** Marks typed text as a secret for the rest of the run. */
  markSecret(text: string): void {
    if (text.length === 0 || this.typed.has(text)) return;
    this.typed.add(text);
    this.typedByLength = [...this.typed].sort((a, b) => b.length - a.length);
  }

  scrub<E extends RunEvent>(event: E): E {
    this.learn(event);
    return this.walk(event) as E;
  }

  /** Collects typed text that must be masked from this event on. */
  private learn(event: RunEvent): void {
    const consider = (text: string) => {
      // Only the secret parts are masked: "password=[masked secret]" still reads as what happened.
      for (const span of this.findSecretSpans(text)) this.markSecret(text.slice(span.start, span.end));
    };
    /** Text typed (or set) by a proposal: kept, so a later secret-rule decision on it can mask it whole. */
    const considerProposed = (proposalId: string, text: string) => {
      this.proposalText.set(proposalId, text);
      consider(text);
    };
    const maybePassword = (typed: string, context: string | undefined) => {
      const bare = barePassword(typed);
      if (bare !== undefined && (this.promptPending || looksLikePasswordContext(context))) this.markSecret(bare);
    };
    switch (event.type) {
      case 'action_proposed':
        if (event.action.type === 'type') {
          maybePassword(event.action.text, event.reasoning);
          considerProposed(event.proposalId, event.action.text);
        }
        // A value set on an element is text put in like typing; on a password field it is a secret whatever it looks like.
        if (event.action.type === 'element' && event.action.value !== undefined) {
          if (event.action.target?.password) this.markSecret(event.action.value);
          else considerProposed(event.proposalId, event.action.value);
        }
        break;
      case 'action_executed':
        if (event.action.type === 'type') {
          considerProposed(event.proposalId, event.action.text);
          this.promptPending = false;
        }
        if (endsAtPasswordPrompt(event.output)) this.promptPending = true;
        break;
      case 'approval_answered':
        if (event.answer.decision === 'edit' && event.answer.action.type === 'type') considerProposed(event.proposalId, event.answer.action.text);
        break;
      case 'approval_requested':
      case 'action_denied': {
        const text = this.proposalText.get(event.proposalId);
        if (event.decision.rule === SECRET_TEXT_RULE && text !== undefined) this.markSecret(text);
        break;
      }
      case 'model_text': {
        // The model's words and its thinking, read as separate lines.
        const context = [event.text, event.assistant?.thinking].join('\n');
        for (const call of event.assistant?.calls ?? []) {
          for (const a of call.actions) {
            if (!a.ok || a.action.type !== 'type') continue;
            maybePassword(a.action.text, context);
            consider(a.action.text);
          }
        }
        break;
      }
    }
  }

  /** Replaces every credential and every known typed secret inside a string. */
  scrubString(s: string, structural = false): string {
    let out = s;
    // Plain-string replaceAll: the markers hold no "$" pattern.
    for (const key of this.keys) out = out.replaceAll(key, REDACTED);
    if (structural) return out;
    for (const secret of this.typedByLength) out = out.replaceAll(secret, MASKED_SECRET);
    return out;
  }

  // Stryker disable next-line StringLiteral: the top-level value is an event object, whose own key is never read
  private walk(value: unknown, key = ''): unknown {
    if (typeof value === 'string') {
      if (value.length > 0 && SECRET_FIELD.test(key) && !STRUCTURAL_KEYS.has(key)) return REDACTED;
      return this.scrubString(value, STRUCTURAL_KEYS.has(key));
    }
    if (Array.isArray(value)) return value.map((v) => this.walk(v, key));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.walk(v, k);
      return out;
    }
    return value;
  }
}

/**
 * Streamed model text (the UI's live deltas) through the same scrubber: a key split
 * over two deltas would slip past a per-delta scrub, so text is passed on only up to
 * its last whitespace (keys and tokens contain none) and the rest is held until the
 * next delta or flush().
 */
export class DeltaScrubber {
  private readonly held: Record<'text' | 'thinking', string> = { text: '', thinking: '' };

  constructor(
    private readonly scrub: (text: string) => string,
    private readonly out: (text: string, kind: 'text' | 'thinking') => void,
  ) {}

  push(text: string, kind: 'text' | 'thinking'): void {
    const all = this.held[kind] + text;
    const cut = Math.max(all.lastIndexOf(' '), all.lastIndexOf('\n'), all.lastIndexOf('\t'));
    // A run of 4 kB without whitespace is passed on anyway (scrubbed), not held forever.
    const upTo = cut >= 0 ? cut + 1 : all.length > 4096 ? all.length : 0;
    this.held[kind] = all.slice(upTo);
    if (upTo > 0) this.out(this.scrub(all.slice(0, upTo)), kind);
  }

  flush(): void {
    for (const kind of ['text', 'thinking'] as const) {
      const rest = this.held[kind];
      this.held[kind] = '';
      if (rest) this.out(this.scrub(rest), kind);
    }
  }
}
