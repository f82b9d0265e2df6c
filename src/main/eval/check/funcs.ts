import { assertNever } from '../../../shared/assert-never.js';
import type { Check } from '../task/schema.js';
import { CheckError, type CheckOutcome } from './env.js';
import { fuzzRatio } from './fuzz.js';
import { isTypeError, pyEquals, pyIn, pyRepr, pySorted, pyStr, pyTypeName } from './py.js';
import { compareTable } from './table.js';
import { VmFile } from './values.js';

/**
 * Ports of OSWorld's metric functions (desktop_env/evaluators/metrics/general.py, docs.py,
 * table.py): the same inputs give the same score. Each gets what its getters gave — a string
 * of command output, a JSON value of a rule, a VmFile — and returns the score with one
 * sentence saying why.
 *
 * Where OSWorld's Python would raise on the *agent's* end state (`x in None` when a command
 * printed nothing usable, json.loads of output that is not JSON), the port scores 0 and says
 * why: a missing or unreadable result is the agent's failure. What is wrong on the task's
 * side (a reference file that is not there, an expected workbook that does not open) throws
 * CheckError, and the task is an error, not a failure.
 */
export function runFunc(check: Check, result: unknown, expected: unknown): CheckOutcome {
  switch (check.func) {
    case 'exact_match':
      return exactMatch(result, expected);
    case 'check_include_exclude':
      return checkIncludeExclude(result, expected);
    case 'compare_text_file':
      return compareTextFile(result, expected, check.options);
    case 'literal_match':
      return literalMatch(result, expected, check.options);
    case 'fuzzy_match':
      return fuzzyMatch(result, expected);
    case 'is_in_list':
      return isInList(result, expected);
    case 'check_direct_json_object':
      return checkDirectJsonObject(result, expected);
    case 'compare_table':
      return compareTable(result, expected, check.options);
    default:
      return assertNever(check, 'func');
  }
}

const pass = (detail: string): CheckOutcome => ({ score: 1, detail });
const fail = (detail: string): CheckOutcome => ({ score: 0, detail });
/** A value in a sentence, cut to 120 characters. */
export function shown(value: unknown): string {
  const text = value instanceof VmFile ? value.path : pyRepr(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
const rulesOf = (expected: unknown): Record<string, unknown> => (typeof expected === 'object' && expected !== null && !Array.isArray(expected) ? (expected as Record<string, unknown>) : {});

/** general.py exact_match: `result == rules["expected"]`. */
export function exactMatch(result: unknown, rules: unknown): CheckOutcome {
  const want = rulesOf(rules).expected;
  return pyEquals(result, want) ? pass(`result equals ${shown(want)}`) : fail(`result ${shown(result)} is not ${shown(want)}`);
}

/** general.py check_include_exclude: every `include` in the result, no `exclude` in it. */
export function checkIncludeExclude(result: unknown, rules: unknown): CheckOutcome {
  if (result === null || result === undefined) return fail('no result to look in');
  const { include = [], exclude = [] } = rulesOf(rules) as { include?: string[]; exclude?: string[] };
  for (const text of include) {
    const found = pyIn(text, result);
    if (isTypeError(found)) return fail(`cannot look in a ${pyTypeName(result)}: ${found.typeError}`);
    if (!found) return fail(`${shown(text)} is missing from ${shown(result)}`);
  }
  for (const text of exclude) {
    const found = pyIn(text, result);
    if (isTypeError(found)) return fail(`cannot look in a ${pyTypeName(result)}: ${found.typeError}`);
    if (found) return fail(`${shown(text)} must not be in ${shown(result)}`);
  }
  return pass(`all ${include.length} included, none of ${exclude.length} excluded`);
}

/** Python's text mode: bytes as UTF-8, "\r\n" and "\r" read as "\n" (universal newlines). */
function textOf(file: VmFile): string {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(file.bytes!);
  return text.replace(/\r\n?/g, '\n');
}

/** `re.sub(r'[\t\n]', ' ', t).strip()` then `re.sub(r'\s+', ' ', t)`. */
function squeezeBlanks(text: string): string {
  return text.replace(/[\t\n]/g, ' ').trim().replace(/\s+/g, ' ');
}

/** docs.py compare_text_file: the two files' texts equal, optionally blanks squeezed and case folded. */
export function compareTextFile(result: unknown, expected: unknown, options: { ignore_blanks?: boolean; ignore_case?: boolean }): CheckOutcome {
  if (!(result instanceof VmFile) || result.bytes === null) return fail(`${result instanceof VmFile ? result.path : 'the result file'} is not there`);
  if (!(expected instanceof VmFile) || expected.bytes === null) throw new CheckError(`the expected file ${expected instanceof VmFile ? expected.path : ''} is not there`);
  let actual: string;
  try {
    actual = textOf(result);
  } catch {
    return fail(`${result.path} is not UTF-8 text`);
  }
  let want: string;
  try {
    want = textOf(expected);
  } catch {
    throw new CheckError(`the expected file ${expected.path} is not UTF-8 text`);
  }
  if (options.ignore_blanks) {
    actual = squeezeBlanks(actual);
    want = squeezeBlanks(want);
  }
  if (options.ignore_case) {
    actual = actual.toLowerCase();
    want = want.toLowerCase();
  }
  if (actual === want) return pass(`${result.path} has the expected text`);
  return fail(`${result.path} differs from ${expected.path} ${firstDifference(actual, want)}`);
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const line = a.slice(0, i).split('\n').length;
  return `at line ${line}: ${shown(a.slice(i, i + 40))} where ${shown(b.slice(i, i + 40))} was expected`;
}

/** general.py literal_match: `str(result) == str(expected)` (type "str"), or item by item (type "list"). */
export function literalMatch(result: unknown, expected: unknown, options: { type?: 'str' | 'list'; ignore_case?: boolean }): CheckOutcome {
  const fold = (s: string) => (options.ignore_case ? s.toLowerCase() : s);
  if ((options.type ?? 'str') === 'str') {
    const a = fold(pyStr(result));
    const b = fold(pyStr(expected));
    return a === b ? pass(`result is ${shown(b)}`) : fail(`result ${shown(a)} is not ${shown(b)}`);
  }
  if (!Array.isArray(result) || !Array.isArray(expected)) return fail(`result ${shown(result)} and expectation ${shown(expected)} are not both lists`);
  if (result.length !== expected.length) return fail(`result has ${result.length} items, ${expected.length} expected`);
  const a = result.map((v) => fold(pyStr(v)));
  const b = expected.map((v) => fold(pyStr(v)));
  const at = a.findIndex((v, i) => v !== b[i]);
  return at === -1 ? pass(`all ${a.length} items match`) : fail(`item ${at} is ${shown(a[at])}, ${shown(b[at])} expected`);
}

/** general.py fuzzy_match: rapidfuzz fuzz.ratio(result, expected) / 100 — a score between 0 and 1. */
export function fuzzyMatch(result: unknown, rules: unknown): CheckOutcome {
  const want = rulesOf(rules).expected;
  if (typeof result !== 'string' || typeof want !== 'string') return fail(`result ${shown(result)} is not text`);
  const score = fuzzRatio(result, want) / 100;
  return { score, detail: `result ${shown(result)} is ${(score * 100).toFixed(1)}% like ${shown(want)}` };
}

/** general.py is_in_list: `rules["expected"] in result`. */
export function isInList(result: unknown, rules: unknown): CheckOutcome {
  const want = rulesOf(rules).expected;
  const found = pyIn(want, result);
  if (isTypeError(found)) return fail(`cannot look for ${shown(want)} in ${shown(result)}: ${found.typeError}`);
  return found ? pass(`${shown(want)} is in the result`) : fail(`${shown(want)} is not in ${shown(result)}`);
}

/**
 * general.py check_direct_json_object: the result (a JSON text with ' read as ", or a value)
 * has every expected key with the expected value; with `expect_in_result`, a list of
 * accepted values or a substring per key. `ignore_list_order`, read from the expected
 * object as OSWorld reads it, compares sorted lists.
 */
export function checkDirectJsonObject(result: unknown, rules: unknown): CheckOutcome {
  let value = result;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value.trim().replace(/'/g, '"'));
    } catch {
      return fail(`result ${shown(result)} is not a JSON object`);
    }
  }
  if (value === null || value === undefined) return fail('no result');
  const { expected: want = {}, expect_in_result: inResult = false } = rulesOf(rules) as { expected?: Record<string, unknown>; expect_in_result?: boolean };
  const failed = Object.entries(want).find(([, v]) => v === '__EVALUATION_FAILED__');
  if (failed) return fail(`the expectation of ${shown(failed[0])} says its evaluation failed`);
  if (typeof value !== 'object' || Array.isArray(value)) return fail(`result ${shown(value)} is not a JSON object`);
  const got = value as Record<string, unknown>;
  const actualOf = (key: string) => (Object.hasOwn(got, key) ? got[key] : null);
  for (const [key, wanted] of Object.entries(want)) {
    const actual = actualOf(key);
    if (!inResult) {
      if (want.ignore_list_order) {
        const a = pySorted(wanted);
        const b = pySorted(actual);
        if (isTypeError(a) || isTypeError(b)) return fail(`${shown(key)} cannot be compared ignoring order`);
        if (!pyEquals(a, b)) return fail(`${shown(key)} is ${shown(actual)}, ${shown(wanted)} expected (any order)`);
      } else if (!pyEquals(wanted, actual)) return fail(`${shown(key)} is ${shown(actual)}, ${shown(wanted)} expected`);
    } else if (Array.isArray(wanted)) {
      const ok = wanted.some((w) => (Array.isArray(actual) ? actual.some((a) => pyEquals(w, a)) : typeof actual === 'string' && pyEquals(w, actual)));
      if (!ok) return fail(`${shown(key)} is ${shown(actual)}, none of ${shown(wanted)}`);
    } else if (typeof wanted === 'string') {
      const found = pyIn(wanted, actual);
      if (isTypeError(found) || !found) return fail(`${shown(wanted)} is not in ${shown(key)} (${shown(actual)})`);
    } else return fail(`the expectation of ${shown(key)} is neither a list nor a string`);
  }
  return pass(`all ${Object.keys(want).length} expected keys match`);
}
