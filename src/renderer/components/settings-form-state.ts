import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { ConfigSchema, type Config } from '../../shared/config.js';
import type { SettingsView } from '../../shared/bridge.js';
import { useApp, useClient } from '../bridge/context.js';
import { problemsOf, serviceProblem, type FieldKey, type SettingsProblem } from '../lib/settings-problems.js';
import { useShortcuts } from '../lib/shortcuts.js';
import { invalidProps } from './FieldProblem.js';
import { rulesDraftOf, rulesOf, type RulesDraft } from './RuleEditor.js';

/** What every Settings section is handed: the draft, one way to change it, and each field's problem. */
export interface SettingsSectionProps {
  draft: Config;
  patch: (fn: (c: Config) => void) => void;
  problemAt: (field: FieldKey) => string | undefined;
  fieldProps: (field: FieldKey) => { 'data-field': FieldKey; 'aria-invalid'?: true; 'aria-describedby'?: string };
}

/** The loaded Settings form: what the service holds, the person's edits, the problems found, and the actions on them. */
export interface SettingsForm extends SettingsSectionProps {
  view: SettingsView;
  rules: RulesDraft;
  keys: Record<string, string>;
  problems: SettingsProblem[];
  saved: boolean;
  dirty: boolean;
  byField: Map<FieldKey, string>;
  formRef: RefObject<HTMLFormElement | null>;
  setKeys: (keys: Record<string, string>) => void;
  editRules: (rules: RulesDraft) => void;
  focusField: (field: FieldKey) => void;
  /** Saves when everything is valid; true when saved. Problems go to their fields, the first one gets focus. */
  save: () => Promise<boolean>;
}

/**
 * Unsaved: the draft, the rules or a typed key differ from what the service holds. The
 * rules are compared apart from the rest of the config: both sides pass the editor's own
 * reading, so a saved rule it writes differently (an empty list, a padded reason) is not
 * an edit the person made.
 */
export function settingsDirty(view: SettingsView | null, draft: Config | null, rules: RulesDraft, keys: Record<string, string>): boolean {
  if (!view || !draft) return false;
  if (Object.keys(keys).length > 0) return true;
  if (JSON.stringify({ ...draft, policy: { ...draft.policy, rules: [] } }) !== JSON.stringify({ ...view.config, policy: { ...view.config.policy, rules: [] } })) return true;
  const read = rulesOf(rules);
  const saved = rulesOf(rulesDraftOf(view.config.policy.rules));
  return read.rules.length === 0 && read.problems.length > 0 ? true : JSON.stringify(read.rules) !== JSON.stringify(saved.rules);
}

/**
 * Tells the store whether Settings holds unsaved edits (its navigate asks before leaving),
 * and clears that when Settings goes away. A browser tab closed with unsaved edits asks
 * too (the desktop app's window is not a page a person closes by accident). While the
 * leave question is open, Esc keeps editing (the card layer: it never stops a run from here).
 */
function useLeaveGuard(dirty: boolean) {
  const surface = useApp((s) => s.surface);
  const setDirty = useApp((s) => s.setSettingsDirty);
  const leaveRequest = useApp((s) => s.leaveRequest);
  const answerLeave = useApp((s) => s.answerLeave);
  useEffect(() => setDirty(dirty), [dirty, setDirty]);
  useEffect(() => () => setDirty(false), [setDirty]);
  useEffect(() => {
    if (!dirty || surface !== 'browser') return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty, surface]);
  useShortcuts(leaveRequest ? { Escape: () => answerLeave(false) } : {}, 'card');
}

/** The first problem per field, in the order found. */
function problemsByField(problems: SettingsProblem[]): Map<FieldKey, string> {
  const m = new Map<FieldKey, string>();
  for (const p of problems) if (!m.has(p.field)) m.set(p.field, p.words);
  return m;
}

/** Settings' state: loads the view, keeps the draft in step with it, and saves through the config schema. Null until loaded. */
export function useSettingsForm(): SettingsForm | null {
  const client = useClient();
  const view = useApp((s) => s.settings);
  const setSettings = useApp((s) => s.setSettings);
  const loadSettings = useApp((s) => s.loadSettings);
  const [draft, setDraft] = useState<Config | null>(null);
  const [rules, setRules] = useState<RulesDraft>(rulesDraftOf([]));
  const [keys, setKeys] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<SettingsProblem[]>([]);
  const [saved, setSaved] = useState(false);
  // The field to focus once the problems that name it are on the page: a fresh object each
  // save, so the same field is focused again. Moved in a layout effect, in the same commit
  // that draws the problems (a requestAnimationFrame after it let a reader that saw the
  // list find focus still in the field typed in: CI under load, 1 run in ~30).
  const [focusAfterRender, setFocusAfterRender] = useState<{ field: FieldKey } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const focusField = (field: FieldKey) => {
    // Compared, not put in a selector: a profile's name may hold any character. A field not
    // on the page goes to the nearest one that holds it: rule 1's effect (policy.rules.0.effect)
    // is in the rules' JSON box (policy.rules) while the table is hidden.
    const fields = [...(formRef.current?.querySelectorAll<HTMLElement>('[data-field]') ?? [])];
    let el: HTMLElement | undefined;
    for (let key = field; !el && key; key = key.slice(0, Math.max(0, key.lastIndexOf('.')))) el = fields.find((e) => e.dataset.field === key);
    el?.focus();
    el?.scrollIntoView?.({ block: 'center' });
  };
  useLayoutEffect(() => focusAfterRender ? focusField(focusAfterRender.field) : undefined, [focusAfterRender]);

  useEffect(() => {
    if (!view) void loadSettings();
  }, [view, loadSettings]);
  useEffect(() => {
    if (view) {
      setDraft(structuredClone(view.config));
      setRules(rulesDraftOf(view.config.policy.rules));
    }
  }, [view]);

  const dirty = useMemo(() => settingsDirty(view, draft, rules, keys), [view, draft, rules, keys]);
  useLeaveGuard(dirty);
  const byField = useMemo(() => problemsByField(problems), [problems]);

  if (!view || !draft) return null;

  const problemAt = (field: FieldKey) => byField.get(field);
  const patch = (fn: (c: Config) => void) => {
    const next = structuredClone(draft);
    fn(next);
    setDraft(next);
    setSaved(false);
  };
  const fieldProps = (field: FieldKey) => ({ 'data-field': field, ...invalidProps(field, problemAt(field)) });

  const save = async (): Promise<boolean> => {
    const read = rulesOf(rules);
    const candidate = { ...draft, policy: { ...draft.policy, rules: read.rules } };
    const parsed = ConfigSchema.safeParse(candidate);
    const found = [...read.problems, ...(parsed.success ? [] : problemsOf(parsed.error.issues).filter((p) => !p.field.startsWith('policy.rules') || read.problems.length === 0))];
    setProblems(found);
    if (found.length || !parsed.success) {
      if (found[0]) setFocusAfterRender({ field: found[0].field });
      return false;
    }
    const apiKeys = Object.fromEntries(Object.entries(keys).filter(([, v]) => v !== undefined && (v === '' || v.trim() !== '')));
    try {
      const next = await client.call('settings.save', { config: parsed.data, ...(Object.keys(apiKeys).length ? { apiKeys } : {}) });
      setKeys({});
      setSettings(next);
      setSaved(true);
      return true;
    } catch (err) {
      const problem = serviceProblem(err instanceof Error ? err.message : String(err));
      setProblems([problem]);
      if (problem.field) setFocusAfterRender({ field: problem.field });
      return false;
    }
  };
  const editRules = (next: RulesDraft) => {
    setRules(next);
    setSaved(false);
  };

  return { view, draft, rules, keys, problems, saved, dirty, byField, formRef, setKeys, editRules, focusField, patch, problemAt, fieldProps, save };
}

/** A typed number field's value: empty is NaN, so the config schema names the field instead of saving 0. */
export const typedNumber = (v: string) => (v.trim() === '' ? NaN : Number(v));
