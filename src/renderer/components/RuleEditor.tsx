import { useState } from 'react';
import { z } from 'zod';
import { UserRuleSchema, type UserRule } from '../../shared/config.js';
import { problemsOf, type FieldKey, type SettingsProblem } from '../lib/settings-problems.js';
import { FieldProblem, invalidProps } from './FieldProblem.js';

/**
 * The approval rules as a table a person can fill in (issue 34 item 7), with the JSON
 * view for experts. Both views edit the same rules: switching parses the one you leave,
 * and JSON that does not parse keeps you in JSON with the problem at the box. Lists
 * (action kinds, keys) are written separated by spaces: a chord has no space in it
 * ("ctrl+q alt+F4"), while a comma is a key.
 */

export interface RuleRow {
  effect: 'allow' | 'deny';
  actions: string;
  keys: string;
  textPattern: string;
  windowPattern: string;
  elementPattern: string;
  reason: string;
}

const PATTERNS = ['textPattern', 'windowPattern', 'elementPattern'] as const;
const RulesSchema = z.array(UserRuleSchema);

export function rowOf(rule: UserRule): RuleRow {
  return {
    effect: rule.effect,
    actions: (rule.actions ?? []).join(' '),
    keys: (rule.keys ?? []).join(' '),
    textPattern: rule.textPattern ?? '',
    windowPattern: rule.windowPattern ?? '',
    elementPattern: rule.elementPattern ?? '',
    reason: rule.reason ?? '',
  };
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

/** The rule a row says: empty fields are absent (an empty pattern would match everything). */
export function ruleOf(row: RuleRow): UserRule {
  const rule: UserRule = { effect: row.effect };
  if (words(row.actions).length) rule.actions = words(row.actions);
  if (words(row.keys).length) rule.keys = words(row.keys);
  for (const p of PATTERNS) if (row[p].trim()) rule[p] = row[p];
  if (row.reason.trim()) rule.reason = row.reason.trim();
  return rule;
}

export interface RulesDraft {
  view: 'table' | 'json';
  rows: RuleRow[];
  json: string;
}

export const rulesDraftOf = (rules: readonly UserRule[]): RulesDraft => ({ view: 'table', rows: rules.map(rowOf), json: JSON.stringify(rules, null, 2) });

/**
 * The rules a draft holds, or the problems that stop them being saved. A rule with
 * nothing to match would match every action: an allow would approve everything unasked,
 * a deny would refuse everything, so the page asks for a field instead.
 */
export function rulesOf(draft: RulesDraft): { rules: UserRule[]; problems: SettingsProblem[] } {
  let candidate: unknown;
  if (draft.view === 'json') {
    try {
      candidate = JSON.parse(draft.json.trim() || '[]');
    } catch (error) {
      return { rules: [], problems: [{ field: 'policy.rules', label: 'Rules', words: `the JSON does not parse: ${error instanceof Error ? error.message : String(error)}` }] };
    }
  } else candidate = draft.rows.map(ruleOf);
  const parsed = RulesSchema.safeParse(candidate);
  if (!parsed.success) return { rules: [], problems: problemsOf(parsed.error.issues.map((i) => ({ ...i, path: ['policy', 'rules', ...i.path] }))) };
  const problems = parsed.data.flatMap((rule, i): SettingsProblem[] =>
    rule.actions || rule.keys || PATTERNS.some((p) => rule[p] !== undefined)
      ? []
      : [{ field: `policy.rules.${i}`, label: `Rule ${i + 1}`, words: 'matches every action: give action kinds, keys or a pattern' }],
  );
  return { rules: parsed.data, problems };
}

const COLUMNS: { field: keyof Omit<RuleRow, 'effect'>; label: string; placeholder: string }[] = [
  { field: 'actions', label: 'Action kinds', placeholder: 'type key shell' },
  { field: 'keys', label: 'Keys', placeholder: 'ctrl+q alt+F4' },
  { field: 'textPattern', label: 'Typed text or command matches', placeholder: 'rm -rf|sudo' },
  { field: 'windowPattern', label: 'Window matches', placeholder: 'Terminal' },
  { field: 'elementPattern', label: 'Element matches', placeholder: 'Delete account' },
  { field: 'reason', label: 'Reason', placeholder: 'shown to you and the model' },
];

export function RuleEditor({ draft, onChange, problems }: { draft: RulesDraft; onChange: (d: RulesDraft) => void; problems: ReadonlyMap<FieldKey, string> }) {
  const [switchProblem, setSwitchProblem] = useState<string | null>(null);
  const setRow = (i: number, patch: Partial<RuleRow>) => onChange({ ...draft, rows: draft.rows.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  const toJson = () => draft.view === 'table' && onChange({ ...draft, view: 'json', json: JSON.stringify(draft.rows.map(ruleOf), null, 2) });
  const toTable = () => {
    if (draft.view === 'table') return;
    // Only rules that parse leave the JSON for the table: a view switch never drops what was typed.
    const read = rulesOf(draft);
    const blocking = read.problems.find((p) => !/^policy\.rules\.\d+$/.test(p.field));
    if (blocking) return void setSwitchProblem(`${blocking.label}: ${blocking.words}`);
    setSwitchProblem(null);
    onChange({ ...draft, view: 'table', rows: read.rules.map(rowOf) });
  };
  const rulesProblem = switchProblem ?? problems.get('policy.rules');

  return (
    <div className="rule-editor" data-testid="rule-editor">
      <div className="inline rule-views" role="group" aria-label="Rules view">
        <span className="field-title">Rules</span>
        <button type="button" aria-pressed={draft.view === 'table'} onClick={toTable} data-testid="rules-table-view">
          Table
        </button>
        <button type="button" aria-pressed={draft.view === 'json'} onClick={toJson} data-testid="rules-json-view">
          JSON
        </button>
      </div>
      <p className="muted">
        A rule applies to an action that matches every field given. Deny rules win, in every mode (Auto too); allow rules approve without asking.
        Patterns are regular expressions, case-insensitive. Lists are separated by spaces.
      </p>
      {draft.view === 'json' ? (
        <label className="field">
          <span className="sr-only">Rules as JSON</span>
          <textarea
            className="mono"
            rows={6}
            data-testid="settings-rules"
            data-field="policy.rules"
            value={draft.json}
            onChange={(e) => (setSwitchProblem(null), onChange({ ...draft, json: e.target.value }))}
            {...invalidProps('policy.rules', rulesProblem)}
          />
        </label>
      ) : (
        <ol className="rules">
          {draft.rows.map((row, i) => (
            <li key={i} className="rule" data-testid="rule-row" data-field={`policy.rules.${i}`} tabIndex={-1}>
              <div className="rule-head">
                <label className="field">
                  Rule {i + 1}
                  <select aria-label={`Rule ${i + 1} effect`} value={row.effect} onChange={(e) => setRow(i, { effect: e.target.value as RuleRow['effect'] })}>
                    <option value="deny">Deny (never run it)</option>
                    <option value="allow">Allow (run it without asking)</option>
                  </select>
                </label>
                <button type="button" className="icon" aria-label={`Remove rule ${i + 1}`} onClick={() => onChange({ ...draft, rows: draft.rows.filter((_, j) => j !== i) })}>
                  ✕
                </button>
              </div>
              <FieldProblem field={`policy.rules.${i}`} words={problems.get(`policy.rules.${i}`)} />
              <div className="rule-fields">
                {COLUMNS.map((c) => {
                  const key = `policy.rules.${i}.${c.field}`;
                  return (
                    <label className="field" key={c.field}>
                      {c.label}
                      <input
                        aria-label={`Rule ${i + 1} ${c.label}`}
                        data-field={key}
                        placeholder={c.placeholder}
                        value={row[c.field]}
                        onChange={(e) => setRow(i, { [c.field]: e.target.value })}
                        {...invalidProps(key, problems.get(key))}
                      />
                      <FieldProblem field={key} words={problems.get(key)} />
                    </label>
                  );
                })}
              </div>
            </li>
          ))}
        </ol>
      )}
      <FieldProblem field="policy.rules" words={rulesProblem} />
      {draft.view === 'table' && (
        <button
          type="button"
          data-testid="add-rule"
          onClick={() => onChange({ ...draft, rows: [...draft.rows, { effect: 'deny', actions: '', keys: '', textPattern: '', windowPattern: '', elementPattern: '', reason: '' }] })}
        >
          Add rule
        </button>
      )}
    </div>
  );
}
