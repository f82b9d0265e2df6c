/**
 * The few Python semantics OSWorld's metric functions lean on, over JSON-shaped values:
 * `==` (True == 1, dicts by keys, lists in order), `str()`/`repr()` (literal_match compares
 * `str(result) == str(expected)`), `in` (substring on str, membership on list, key on dict)
 * and `sorted()`. A JSON number has no int/float mark once parsed: an integral number
 * prints as an int ("3", where Python would print "3.0" for a float from the file).
 */

export type PyTypeError = { typeError: string };

export function pyEquals(a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a === 'boolean' || typeof a === 'number') {
    if (typeof b !== 'boolean' && typeof b !== 'number') return false;
    return Number(a) === Number(b);
  }
  if (typeof a === 'string') return a === b;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => pyEquals(v, b[i]));
  if (typeof a === 'object') {
    if (typeof b !== 'object' || Array.isArray(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && pyEquals((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

function pyNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  return String(n);
}

/** Python's repr of a str: single quotes unless the text has ' and no ". */
function pyStringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) out += `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return pyNumber(value);
  if (typeof value === 'string') return pyStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${pyStringRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
  return String(value);
}

/** Python's str(): a str as it is, everything else as repr. */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value);
}

/** Python's `item in container`, or the TypeError it raises. */
export function pyIn(item: unknown, container: unknown): boolean | PyTypeError {
  if (typeof container === 'string') {
    if (typeof item !== 'string') return { typeError: `'in <string>' requires string as left operand, not ${pyTypeName(item)}` };
    return container.includes(item);
  }
  if (Array.isArray(container)) return container.some((v) => pyEquals(item, v));
  if (container !== null && typeof container === 'object') {
    if (typeof item === 'object' && item !== null) return { typeError: `unhashable type: '${pyTypeName(item)}'` };
    return Object.keys(container).some((k) => pyEquals(item, k));
  }
  return { typeError: `argument of type '${pyTypeName(container)}' is not iterable` };
}

export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

/** Python's sorted() of a list of numbers or of strings (by code point), or of a str's characters. */
export function pySorted(value: unknown): unknown[] | PyTypeError {
  const items = typeof value === 'string' ? [...value] : Array.isArray(value) ? [...value] : null;
  if (items === null) return { typeError: `'${pyTypeName(value)}' object is not iterable` };
  const numeric = items.every((v) => typeof v === 'number' || typeof v === 'boolean');
  const textual = items.every((v) => typeof v === 'string');
  if (!numeric && !textual) return { typeError: "'<' not supported between the list's items" };
  if (numeric) return items.sort((a, b) => Number(a) - Number(b));
  return (items as string[]).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function isTypeError(value: unknown): value is PyTypeError {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'typeError' in value;
}
