import { normalizeText } from '../../../os-control/ocr/match-text.js';
import { DescriptionError } from './types.js';

/**
 * A planner's description of a target, read once into what the stages match on:
 *   "the Save button in the dialog"      → words "save", roles of a button, scope "dialog"
 *   "the \"File name\" field"            → exact words "file name", roles of a text field
 *   "the button right of Cancel"         → roles of a button, right of the target "cancel"
 * Nothing here looks at the screen.
 */

/** Longest description read: a target's words are a name plus a few words of place; 300 characters is ten times "the Save button in the Export dialog". */
export const MAX_DESCRIPTION_CHARS = 300;

export type Direction = 'right' | 'left' | 'above' | 'below' | 'near';

export interface TargetQuery {
  /** The description as given, trimmed. */
  text: string;
  /** The words that name the target (articles and role words removed), normalised; may be empty ("the button right of Cancel"). */
  words: string;
  /** Other ways the same name is written on screen ("equals" is "="): tried after `words`. */
  alternatives: readonly string[];
  /** True when the name was quoted: only an exact name counts. */
  quoted: boolean;
  /** Roles the role words allow (AT-SPI vocabulary); empty when the description names none. */
  roles: readonly string[];
  /** Words naming the window or pane the target is in ("dialog", "save as"). */
  scope?: string;
  /**
   * The whole description was one role word ("Menu", "the link"): read as the role, and a
   * control of exactly that name answers it too — the GTK grounding bench's toggle button
   * "Menu" in gtk3-widget-factory was never found (no words, role menu only).
   */
  roleWordAsName?: string;
  /** A place relative to another target: "right of Cancel". */
  relation?: { direction: Direction; anchor: TargetQuery };
}

/** Role words → the roles they allow. Longer phrases first, so "text field" is not read as "text". */
const ROLE_WORDS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['check box', ['check box', 'check menu item', 'toggle button']],
  ['checkbox', ['check box', 'check menu item', 'toggle button']],
  ['radio button', ['radio button', 'radio menu item']],
  ['toggle button', ['toggle button', 'push button']],
  ['text field', ['text', 'entry', 'password text', 'spin button', 'combo box']],
  ['text box', ['text', 'entry', 'password text', 'spin button', 'combo box']],
  ['input field', ['text', 'entry', 'password text', 'spin button', 'combo box']],
  ['search box', ['text', 'entry', 'combo box']],
  ['combo box', ['combo box']],
  ['drop down', ['combo box', 'push button menu', 'menu']],
  ['dropdown', ['combo box', 'push button menu', 'menu']],
  ['menu item', ['menu item', 'check menu item', 'radio menu item']],
  ['spin button', ['spin button']],
  ['button', ['push button', 'toggle button', 'push button menu', 'button']],
  ['field', ['text', 'entry', 'password text', 'spin button', 'combo box']],
  ['entry', ['text', 'entry', 'password text', 'spin button']],
  ['input', ['text', 'entry', 'password text', 'spin button']],
  ['menu', ['menu', 'menu item']],
  ['tab', ['page tab']],
  ['link', ['link']],
  ['slider', ['slider']],
  ['switch', ['toggle button', 'check box', 'switch']],
  ['icon', ['push button', 'icon', 'image', 'toggle button']],
  ['label', ['label', 'static']],
  ['item', ['list item', 'tree item', 'menu item', 'table cell']],
  ['list', ['list', 'list box', 'table', 'tree', 'tree table']],
];

/** Names of signs as a person writes them → the sign a control shows (a calculator's keys, a toolbar's). */
const SIGNS: Readonly<Record<string, readonly string[]>> = {
  equals: ['='],
  'equal sign': ['='],
  plus: ['+'],
  add: ['+'],
  minus: ['−', '-'],
  subtract: ['−', '-'],
  times: ['×', '*'],
  multiply: ['×', '*'],
  divide: ['÷', '/'],
  'divided by': ['÷', '/'],
  percent: ['%'],
  'decimal point': ['.', ','],
};

/** A leading verb is the action, not the target: "click the OK button" names "OK". These verbs never begin a control's name. */
const VERB = /^(?:click|double[- ]click|right[- ]click|tap|hit)\s+(?:on\s+)?/;
/**
 * Verbs that begin many names too ("Open file", "Select all", "Choose colour", "Press kit"):
 * an action before an article ("open the File menu" names "file menu"); otherwise the
 * words are read with the verb first and without it as an alternative, so the exact name
 * wins over a name holding only the rest ("Open file" beside "File name": the grounding
 * bench found these tied at 0.75 when the verb was always dropped).
 */
const NAME_VERB = /^(?:press|select|choose|open)\s+/;

const RELATIONS: ReadonlyArray<readonly [RegExp, Direction]> = [
  [/\b(?:to the right of|right of)\b/, 'right'],
  [/\b(?:to the left of|left of)\b/, 'left'],
  [/\b(?:below|under|beneath|underneath)\b/, 'below'],
  [/\b(?:above|over)\b/, 'above'],
  [/\b(?:next to|beside|near)\b/, 'near'],
];

const ARTICLES = /^(?:the|a|an)\s+/;
/** "… in the Export dialog", "… on the toolbar": the words after it name a window or pane the target is inside. */
const SCOPE = /\s+(?:in|on|inside)\s+the\s+(.+)$/;

/** Reads a description; an empty or over-long one is a DescriptionError. */
export function parseDescription(description: string): TargetQuery {
  const text = description.trim();
  if (!text) throw new DescriptionError('the target description is empty: say what to act on, e.g. "the Save button"');
  if (text.length > MAX_DESCRIPTION_CHARS) {
    throw new DescriptionError(`the target description is ${text.length} characters; at most ${MAX_DESCRIPTION_CHARS} are read: name the target in a few words`);
  }
  return readQuery(text, 0);
}

function readQuery(text: string, depth: number): TargetQuery {
  let rest = normalizeText(text).replace(VERB, '');
  if (depth === 0) {
    for (const [pattern, direction] of RELATIONS) {
      const m = pattern.exec(rest);
      if (!m || m.index === 0) continue;
      const anchorText = rest.slice(m.index + m[0].length).trim();
      if (!anchorText) continue;
      const own = readQuery(rest.slice(0, m.index).trim(), 1);
      return { ...own, text, relation: { direction, anchor: readQuery(anchorText, 1) } };
    }
  }
  const nameVerb = NAME_VERB.exec(rest);
  if (nameVerb) {
    const after = rest.slice(nameVerb[0].length);
    // NAME_VERB ends in \s+ and the text is trimmed, so `after` always holds a word.
    if (ARTICLES.test(after)) rest = after;
    else {
      const whole = readOwn(rest, text, depth);
      const bare = readOwn(after, text, depth);
      // A quoted name is the same either way; no bare words ("open menu": a role word alone) leave the verb as the name.
      if (whole.quoted || !bare.words) return whole;
      return { ...whole, roles: whole.roles.length ? whole.roles : bare.roles, alternatives: [...whole.alternatives, bare.words, ...bare.alternatives] };
    }
  }
  return readOwn(rest, text, depth);
}

/**
 * A description's own words (no relation, no leading verb left): the name, quoted or not,
 * its role words and scope. `depth` 1 is a relation's part ("the button" of "the button
 * right of Cancel"): a role word there is only the role.
 */
function readOwn(words: string, text: string, depth: number): TargetQuery {
  let rest = words;
  const quotedMatch = /["“]([^"”]+)["”]|'([^']+)'/.exec(rest);
  let scope: string | undefined;
  // The scope is looked for after a quoted name only: 'the "Save in the cloud" button' was read with the scope
  // 'cloud" button' and no role (the quote's own "in the" taken for the scope's).
  const afterQuote = quotedMatch ? quotedMatch.index + quotedMatch[0].length : 0;
  const scopeMatch = SCOPE.exec(rest.slice(afterQuote));
  if (scopeMatch) {
    scope = scopeMatch[1]!.trim();
    rest = rest.slice(0, afterQuote + scopeMatch.index).trim();
  }
  rest = rest.replace(VERB, '').replace(ARTICLES, '');
  if (quotedMatch) {
    const words = normalizeText(quotedMatch[1] ?? quotedMatch[2] ?? '');
    const { roles } = roleOf(rest.replace(quotedMatch[0], ' ').trim());
    return { text, words, alternatives: [], quoted: true, roles, ...(scope ? { scope } : {}) };
  }
  const found = roleOf(rest);
  const bare = depth === 0 && found.rest === '' && ROLE_WORDS.some(([word]) => word === rest.trim()) ? { roleWordAsName: rest.trim() } : {};
  return { text, words: found.rest, alternatives: SIGNS[found.rest] ?? [], quoted: false, roles: found.roles, ...(scope ? { scope } : {}), ...bare };
}

/** The role word that ends the text ("the Print button" names a button) and the text without it. */
function roleOf(text: string): { roles: readonly string[]; rest: string } {
  for (const [word, roles] of ROLE_WORDS) {
    const pattern = new RegExp(`(?:^|\\s)${word}$`);
    if (pattern.test(text)) return { roles, rest: text.replace(pattern, '').replace(ARTICLES, '').trim() };
  }
  // A role word that begins the words is part of the name ("Tab width", "List view", "Menu bar"), not a role: the
  // grounding bench found "Tab width" read as a tab named "width", and the "Width" field clicked for it. (A role word
  // that is the whole text matched above, by the pattern's `^`.)
  return { roles: [], rest: text.trim() };
}
