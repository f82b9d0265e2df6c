import { visibleSegments } from '../../shared/visible-text.js';

/**
 * Text from files and servers the person did not write for this run — AGENTS.md,
 * skills' SKILL.md, MCP tools' descriptions — as it goes into the system prompt. The
 * prompt frames such text in tags (`<agents_md>`, `<skill>`) and tells the model what
 * the frame holds; nothing inside may change that structure: end its own block early,
 * open a fake one, or pass for the prompt's own words.
 *
 * The one rule, for every such text:
 *  1. Hidden characters are made visible (shared/visible-text: controls, zero-width and
 *     bidi characters, odd spaces), line breaks kept — so `</agents\u200B_md>` is not a
 *     tag a person cannot see, and the person reads what the model reads.
 *  2. No character that opens a tag survives: "<" becomes "&lt;", and its look-alikes
 *     (fullwidth ＜, small ﹤, ‹, 〈, ⟨, ❮, ˂, ᐸ …: a model reads `＜/agents_md＞` as a tag
 *     too) become `\u{FF1C}`-style escapes. Without an opening bracket no closing tag, in
 *     any case, spacing or spelling, can be written; ">" alone opens nothing and is kept
 *     (`2>&1`, `=>` stay readable).
 *  3. In an attribute value (a path, a name) quotes, ">" and line breaks are escaped too,
 *     so the value cannot end its attribute or its tag.
 * What the text *says* ("ignore the rules above") is the frame's sentence to answer, and
 * the gate never reads any of it.
 */

/** Code points a model may read as "<": every opening angle bracket of Unicode that is not the ASCII one. */
const OPENING_LOOKALIKES = new Set([
  0x02c2, // ˂ modifier letter left arrowhead
  0x02f1, // ˱ modifier letter low left arrowhead
  0x1438, // ᐸ Canadian syllabics pa
  0x2039, // ‹ single left-pointing angle quotation mark
  0x2329, // 〈 left-pointing angle bracket
  0x276c, // ❬ medium left-pointing angle bracket ornament
  0x276e, // ❮ heavy left-pointing angle quotation mark ornament
  0x2770, // ❰ heavy left-pointing angle bracket ornament
  0x27e8, // ⟨ mathematical left angle bracket
  0x27ea, // ⟪ mathematical left double angle bracket
  0x29fc, // ⧼ left-pointing curved angle bracket
  0x3008, // 〈 CJK left angle bracket
  0x300a, // 《 CJK left double angle bracket
  0xfe3f, // ︿ presentation form for vertical left angle bracket
  0xfe64, // ﹤ small less-than sign
  0xff1c, // ＜ fullwidth less-than sign
]);

function escapeCodePoint(cp: number): string {
  return `\\u{${cp.toString(16).toUpperCase().padStart(4, '0')}}`;
}

/** Rule 2 on already visible text: every "<" and look-alike escaped. */
function withoutOpeningBrackets(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0x3c) out += '&lt;';
    else if (OPENING_LOOKALIKES.has(cp)) out += escapeCodePoint(cp);
    else out += ch;
  }
  return out;
}

/** Text the person and the model see alike: hidden characters made visible, line breaks kept (rule 1). */
export function visibleInstructions(text: string): string {
  return visibleSegments(text)
    .map((s) => (s.kind === 'newline' ? '\n' : s.text))
    .join('');
}

/** Untrusted text for the inside of a prompt frame (rules 1 and 2). */
export function untrustedBody(text: string): string {
  return withoutOpeningBrackets(visibleInstructions(text));
}

/** Untrusted text on one line (a list item's description): rules 1 and 2, every run of white space one space. */
export function untrustedLine(text: string): string {
  return untrustedBody(text.replace(/\s+/g, ' ').trim());
}

/** Untrusted text as an attribute value between double quotes (rules 1–3): one line, nothing that ends the value or the tag. */
export function untrustedAttribute(value: string): string {
  return withoutOpeningBrackets(visibleSegments(value).map((s) => s.text).join(''))
    .replace(/"/g, '&quot;')
    .replace(/>/g, '&gt;');
}

/** The tags the system prompt frames untrusted text in. */
export type UntrustedFrame = 'agents_md' | 'skill';

/**
 * One framed block: `<tag a="v">`, the body, `</tag>`, each on its own line. The tag and
 * attribute names are ours; every value and the body are untrusted and escaped here.
 * A body already made visible (`bodyIs: 'visible'`: AGENTS.md keeps the visible text it
 * shows the person) only loses its tag openers, so a control picture is not escaped twice.
 */
export function untrustedBlock(tag: UntrustedFrame, attributes: ReadonlyArray<readonly [string, string]>, body: string, bodyIs: 'raw' | 'visible'): string {
  const attrs = attributes.map(([name, value]) => ` ${name}="${untrustedAttribute(value)}"`).join('');
  const inside = bodyIs === 'visible' ? withoutOpeningBrackets(body.trim()) : untrustedBody(body.trim());
  return `<${tag}${attrs}>\n${inside}\n</${tag}>`;
}
