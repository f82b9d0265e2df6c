import type { z } from 'zod';

/**
 * Settings problems in words, next to the field they are about (issue 34 item 7): the
 * config schema's issue at `limits.maxSteps` becomes "Max steps: must be more than 0",
 * shown under the Max steps box, which is marked invalid. One table names every field
 * the Settings page edits; a path it does not know (a field only config.json has) is
 * still said, by its path, in the list above Save.
 */

/** A field's key: its config path, dotted ("limits.maxSteps", "profiles.claude.model", "policy.rules.0.textPattern"). */
export type FieldKey = string;

export interface SettingsProblem {
  field: FieldKey;
  /** "Max steps", "Rule 2 · Typed text matches": what the person sees on the page. */
  label: string;
  /** "must be more than 0": the problem without the field's name. */
  words: string;
}

const RULE_FIELDS: Record<string, string> = {
  effect: 'Effect',
  actions: 'Action kinds',
  keys: 'Keys',
  textPattern: 'Typed text or command matches',
  windowPattern: 'Window matches',
  elementPattern: 'Element matches',
  reason: 'Reason',
};

const PROFILE_FIELDS: Record<string, string> = {
  provider: 'Provider',
  model: 'Model',
  baseUrl: 'Base URL',
  apiKeyEnv: 'Key variable',
};

const FIELDS: Record<string, string> = {
  defaultProfile: 'Default profile',
  'policy.mode': 'Approval policy',
  'policy.countdownSeconds': 'Auto-approve countdown',
  'policy.rules': 'Rules',
  'limits.maxSteps': 'Max steps',
  'limits.maxWallMs': 'Max minutes',
  'limits.maxCostUsd': 'Max cost (USD)',
  displayId: 'Display id',
  takeover: 'When you move the mouse or type',
  killHotkey: 'Stop hotkey',
  instructions: 'Your instructions',
  'sandbox.mode': 'Sandbox mode',
  'sandbox.workspace': 'Workspace',
};

/** Words for a format the schema checks, by field where the field says more than the format. */
const FORMAT_WORDS: Record<string, string> = {
  url: 'is not a web address (for example http://127.0.0.1:11434/v1)',
  regex: 'has a character it may not have',
};
const FIELD_FORMAT_WORDS: Record<string, string> = {
  apiKeyEnv: 'must be a variable name: letters, digits and _, not starting with a digit',
};

/** The page's name for a config path: "Max steps", "Profile local · Base URL", "Rule 2 · Keys". */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const [head, second, third] = path.map(String);
  if (head === 'profiles' && second !== undefined) return `Profile ${second}${third ? ` · ${PROFILE_FIELDS[third] ?? third}` : ''}`;
  if (head === 'policy' && second === 'rules' && third !== undefined && /^\d+$/.test(third)) {
    const field = path[3] === undefined ? undefined : String(path[3]);
    return `Rule ${Number(third) + 1}${field ? ` · ${RULE_FIELDS[field] ?? field}` : ''}`;
  }
  return FIELDS[path.map(String).join('.')] ?? (path.length ? path.map(String).join(' › ') : 'Settings');
}

/** The field a problem is shown at: a rule's list entry (`keys.1`) is shown at the list (`keys`). */
export function fieldKey(path: readonly PropertyKey[]): FieldKey {
  const p = path.map(String);
  if (p[0] === 'policy' && p[1] === 'rules' && p.length > 4) return p.slice(0, 4).join('.');
  return p.join('.');
}

type Issue = z.core.$ZodIssue;

/** One schema issue in words, without the field's name. */
export function problemWords(issue: Issue): string {
  const last = String(issue.path[issue.path.length - 1] ?? '');
  switch (issue.code) {
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? 'cannot be empty' : `needs at least ${min} characters`;
      if (issue.origin === 'array') return `needs at least ${min}`;
      return issue.inclusive === false ? `must be more than ${min}` : `must be at least ${min}`;
    }
    case 'too_big': {
      if (issue.origin === 'string') return `may have at most ${Number(issue.maximum)} characters`;
      return issue.inclusive === false ? `must be less than ${Number(issue.maximum)}` : `must be at most ${Number(issue.maximum)}`;
    }
    case 'invalid_type':
      if (issue.expected === 'int') return 'must be a whole number';
      if (issue.expected === 'number') return 'must be a number';
      return 'is required';
    case 'invalid_format':
      return FIELD_FORMAT_WORDS[last] ?? FORMAT_WORDS[issue.format] ?? `is not a valid ${issue.format}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `has fields Settings does not know: ${issue.keys.join(', ')}`;
    default:
      // custom (the stop hotkey's own check says what is wrong in words already) and the rest.
      return issue.message;
  }
}

export function problemsOf(issues: readonly Issue[]): SettingsProblem[] {
  return issues.map((issue) => ({ field: fieldKey(issue.path), label: fieldLabel(issue.path), words: problemWords(issue) }));
}

/**
 * A problem the service found that the schema cannot (a rule's pattern that does not
 * compile, a chord the key parser cannot read), said as "policy.rules[0].textPattern: …":
 * put at its field too. Any other message is about Settings as a whole.
 */
export function serviceProblem(message: string): SettingsProblem {
  const m = /^(?:[a-z]+:\s*)?((?:[A-Za-z_]\w*)(?:\.[A-Za-z_]\w*|\[\d+\])*):\s+(.+)$/s.exec(message);
  if (!m) return { field: '', label: 'Settings', words: message };
  const path = m[1]!.split(/[.[\]]+/).filter(Boolean).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  return { field: fieldKey(path), label: fieldLabel(path), words: m[2]! };
}
