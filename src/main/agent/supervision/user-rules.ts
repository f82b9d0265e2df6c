import { actionCategory, actionSpec, type Action } from '../../../shared/actions.js';
import { parseModifiers } from '../../../os-control/keys.js';
import type { UserRule } from '../../../shared/config.js';
import type { ActionContext } from '../gate.js';
import { UserPattern } from './bounded-regex.js';
import { chordsPressedBy, comboContains, comboOfChord, heldModifierClasses, normaliseCombos, sameCombo, type NormalCombo } from './key-combo.js';

/**
 * The user's own allow/deny rules from config (policy.rules). A rule matches an
 * action when every field it gives matches; deny rules win over everything except
 * nothing — they are checked first in every mode, including auto.
 *
 * Patterns: a plain string is a case-insensitive regular expression; "/re/flags"
 * gives the flags explicitly.
 */

export interface CompiledUserRule {
  /** Position in policy.rules, for the rule id "user:deny:<index>". */
  index: number;
  effect: 'allow' | 'deny';
  actions?: Set<string>;
  keys?: NormalCombo[];
  /** Matched with a time bound off the main thread (bounded-regex.ts): a runaway pattern cannot freeze the run. */
  text?: UserPattern;
  window?: UserPattern;
  element?: UserPattern;
  reason?: string;
}

export class UserRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserRuleError';
  }
}

function compilePattern(pattern: string, where: string): UserPattern {
  const explicit = /^\/(.*)\/([dgimsuvy]*)$/s.exec(pattern);
  try {
    // Stateful flags would make .test() depend on the previous call.
    return explicit ? new UserPattern(explicit[1]!, explicit[2]!.replace(/[gy]/g, '')) : new UserPattern(pattern, 'i');
  } catch (error) {
    throw new UserRuleError(`${where}: invalid regular expression ${JSON.stringify(pattern)}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A rule's key chord, read by the one key parser; text it cannot read is an error naming the rule (never a silent no-match). */
function compileKeys(text: string, where: string): NormalCombo {
  let combos: NormalCombo[];
  try {
    combos = normaliseCombos(text);
  } catch (error) {
    throw new UserRuleError(`${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (combos.length !== 1) throw new UserRuleError(`${where}: ${JSON.stringify(text)} is ${combos.length} chords; a rule names one chord (write one rule per chord)`);
  return combos[0]!;
}

/** Throws UserRuleError naming the rule and field when a pattern does not compile. */
export function compileUserRules(rules: readonly UserRule[]): CompiledUserRule[] {
  return rules.map((rule, index) => {
    const where = `policy.rules[${index}]`;
    return {
      index,
      effect: rule.effect,
      actions: rule.actions ? new Set(rule.actions.map((a) => a.trim().toLowerCase())) : undefined,
      keys: rule.keys?.map((k, i) => compileKeys(k, `${where}.keys[${i}]`)),
      text: rule.textPattern !== undefined ? compilePattern(rule.textPattern, `${where}.textPattern`) : undefined,
      window: rule.windowPattern !== undefined ? compilePattern(rule.windowPattern, `${where}.windowPattern`) : undefined,
      element: rule.elementPattern !== undefined ? compilePattern(rule.elementPattern, `${where}.elementPattern`) : undefined,
      reason: rule.reason,
    };
  });
}

/** The text a text pattern is matched against: typed text, a shell command, a question. */
function textOf(action: Action): string | undefined {
  return actionSpec(action).ruleText(action);
}

/**
 * Every combo the action presses (key-combo.ts chordsPressedBy: keys, and typing with
 * ctrl/alt/super held), and for a mouse action the modifiers held with it as a chord
 * without a key: a deny rule for "ctrl" catches a ctrl+click.
 */
function combosOf(action: Action, context: ActionContext): NormalCombo[] {
  const heldKeys = context.held?.keys ?? [];
  if (action.type === 'click' || action.type === 'drag' || action.type === 'scroll') {
    // The modifiers as a chord without a key (pressed in that order), read like every other chord (key-combo.ts).
    const modifiers = parseModifiers(action.modifiers);
    const chord = comboOfChord({ modifiers, keys: modifiers }, heldModifierClasses(heldKeys));
    return chord.modifiers.length ? [chord] : [];
  }
  return chordsPressedBy(action, heldKeys).map((p) => p.combo);
}

/**
 * The kinds a rule's `actions` may name to judge this action: its own kind and category,
 * and the kind whose work it does by another way (issue 27: a rule by kind must not be
 * stepped around by an element action or a tool):
 *  - an element `set_value` puts text in, as `type` does;
 *  - an element `click` or `invoke` presses, as `click` does (`focus` presses nothing);
 *  - a deny `shell` rule with a `textPattern` also judges the other ways a command's text
 *    reaches the system: typed text and set values (a terminal runs what is typed into it,
 *    and which window is one cannot be known) and MCP tool calls (a server's tool may run
 *    whatever it is given). Without a textPattern a shell rule judges shell commands only
 *    ("no shell" must not mean "no typing"), and an allow shell rule allows only shell
 *    commands: typing is allowed by type rules, an MCP server by its `approval`.
 * docs/CONFIG.md ("Rules by action kind") says the same with examples.
 */
function kindsOf(action: Action, rule: CompiledUserRule): string[] {
  const kinds: string[] = [action.type, actionCategory(action)];
  if (action.type === 'element' && action.op === 'set_value') kinds.push('type');
  if (action.type === 'element' && (action.op === 'click' || action.op === 'invoke')) kinds.push('click');
  const carriesCommandText = action.type === 'type' || action.type === 'mcp_call' || (action.type === 'element' && action.op === 'set_value');
  if (carriesCommandText && rule.effect === 'deny' && rule.text) kinds.push('shell');
  return kinds;
}

/**
 * Does the rule match? For an unknown focused window, a window pattern cannot be
 * ruled out: deny rules then match (fail closed), allow rules do not.
 */
export function ruleMatches(rule: CompiledUserRule, action: Action, context: ActionContext): boolean {
  if (rule.actions && !kindsOf(action, rule).some((kind) => rule.actions!.has(kind))) return false;
  if (rule.keys) {
    const pressed = combosOf(action, context);
    // A deny rule for ctrl+w also catches ctrl+shift+w; an allow rule only the exact combo.
    const hit = pressed.some((p) => rule.keys!.some((k) => (rule.effect === 'deny' ? comboContains(p, k) : sameCombo(p, k))));
    if (!hit) return false;
  }
  if (rule.text) {
    const text = textOf(action);
    // A match that runs away counts as a match for a deny rule (fail closed), not for an allow rule.
    if (text === undefined || !rule.text.matches(text, rule.effect === 'deny')) return false;
  }
  if (rule.window) {
    const w = context.activeWindow;
    if (!w) return rule.effect === 'deny';
    const deny = rule.effect === 'deny';
    if (!rule.window.matches(w.title, deny) && !rule.window.matches(w.app, deny)) return false;
  }
  if (rule.element) {
    // No tree, no element: the rule does not match, deny rules included. Failing closed
    // here (as for an unknown window) would refuse every click in every app that exposes
    // no tree (xcalc, Xaw, Tk) whenever one element rule exists; the rule protects where
    // the element can be seen. docs/CONFIG.md says so.
    const e = context.element;
    if (!e) return false;
    const deny = rule.effect === 'deny';
    if (!rule.element.matches(e.name, deny) && !rule.element.matches(`${e.role} ${JSON.stringify(e.name)}`, deny)) return false;
  }
  return true;
}

export function firstMatching(rules: readonly CompiledUserRule[], effect: 'allow' | 'deny', action: Action, context: ActionContext): CompiledUserRule | undefined {
  return rules.find((r) => r.effect === effect && ruleMatches(r, action, context));
}
