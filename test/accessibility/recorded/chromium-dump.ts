/**
 * Chromium's accessibility tree dumps (content/test/data/accessibility/**\/*-expected-*.txt):
 * one element a line, depth as pairs of `+` (`++++CheckBox` is two levels down), the role
 * word first, then `Key=value` pairs: `'quoted text'`, `true`/`false`, numbers or a bare
 * word (`AXSubrole=AXSecureTextField`). Non-ASCII text is written percent-encoded
 * (`%E2%80%A2` is "•"). This reads that text into a plain tree; to-uia.ts and to-ax.ts
 * give it our dump scripts' shape.
 */

export type ChromiumValue = string | number | boolean;

export interface ChromiumLine {
  role: string;
  attrs: ReadonlyMap<string, ChromiumValue>;
  children: ChromiumLine[];
}

const ATTR = /([A-Za-z][\w.]*)=('([^']*)'|\S+)/g;

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a lone '%' that is the page's own text
  }
}

function bare(word: string): ChromiumValue {
  if (word === 'true') return true;
  if (word === 'false') return false;
  return /^-?\d+(\.\d+)?$/.test(word) ? Number(word) : word;
}

function parseLine(body: string): Omit<ChromiumLine, 'children'> {
  const space = body.indexOf(' ');
  const role = space < 0 ? body : body.slice(0, space);
  const attrs = new Map<string, ChromiumValue>();
  for (const m of (space < 0 ? '' : body.slice(space)).matchAll(ATTR)) attrs.set(m[1]!, m[3] !== undefined ? decode(m[3]) : bare(m[2]!));
  return { role, attrs };
}

/** The dump's roots (a page dump has one: the document). */
export function parseChromiumDump(text: string): ChromiumLine[] {
  const roots: ChromiumLine[] = [];
  const stack: ChromiumLine[] = [];
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    const plus = /^\+*/.exec(raw)![0].length;
    if (plus % 2 !== 0) throw new Error(`odd indentation in a Chromium dump line: ${raw}`);
    const depth = plus / 2;
    if (depth > stack.length) throw new Error(`a Chromium dump line skips a level: ${raw}`);
    const node: ChromiumLine = { ...parseLine(raw.slice(plus)), children: [] };
    stack.length = depth;
    (depth === 0 ? roots : stack[depth - 1]!.children).push(node);
    stack.push(node);
  }
  return roots;
}

export function stringAttr(line: ChromiumLine, key: string): string | undefined {
  const v = line.attrs.get(key);
  return v === undefined ? undefined : String(v);
}

export function boolAttr(line: ChromiumLine, key: string): boolean | undefined {
  const v = line.attrs.get(key);
  if (v === undefined) return undefined;
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1; // the Mac dump writes AXExpanded=0/1
  throw new Error(`${key}=${String(v)} is not a boolean`);
}
