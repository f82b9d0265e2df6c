import { describe, expect, it } from 'vitest';
import { checkDirectJsonObject, checkIncludeExclude, compareTextFile, exactMatch, fuzzyMatch, isInList, literalMatch, runFunc, shown } from '../../../src/main/eval/check/funcs.js';
import type { Check } from '../../../src/main/eval/task/schema.js';
import { CheckError } from '../../../src/main/eval/check/env.js';
import { fuzzRatio } from '../../../src/main/eval/check/fuzz.js';
import { pyRepr } from '../../../src/main/eval/check/py.js';
import { VmFile } from '../../../src/main/eval/check/values.js';

// Each port against hand-made end states, a pass and a fail at least, with OSWorld's numbers:
// general.py / docs.py semantics (Python ==, str(), `in`), rapidfuzz's documented ratios.
const file = (text: string | null, name = '/h/out.txt') => new VmFile(name, text === null ? null : Buffer.from(text, 'utf8'));

describe('exact_match', () => {
  it('passes on equal output, fails on any difference (a missing newline too)', () => {
    expect(exactMatch('false\n', { expected: 'false\n' }).score).toBe(1);
    const miss = exactMatch('false', { expected: 'false\n' });
    expect(miss.score).toBe(0);
    expect(miss.detail).toBe("result 'false' is not 'false\\n'");
  });
  it('compares as Python ==: True == 1, dicts by keys, lists in order, None', () => {
    expect(exactMatch(true, { expected: 1 }).score).toBe(1);
    expect(exactMatch({ a: [1, 2], b: null }, { expected: { b: null, a: [1, 2] } }).score).toBe(1);
    expect(exactMatch([2, 1], { expected: [1, 2] }).score).toBe(0);
    expect(exactMatch(null, { expected: '' }).score).toBe(0);
    expect(exactMatch(null, { expected: null }).score).toBe(1);
    expect(exactMatch('1', { expected: 1 }).score).toBe(0);
  });
});

describe('check_include_exclude', () => {
  const rules = { include: ['All files have the correct permissions.'], exclude: ['error'] };
  it('passes when every include is in the output and no exclude is', () => {
    expect(checkIncludeExclude('checking...\nAll files have the correct permissions.\n', rules)).toEqual({ score: 1, detail: 'all 1 included, none of 1 excluded' });
  });
  it('fails on a missing include, on a present exclude, and on no result', () => {
    expect(checkIncludeExclude('Some files are 755\n', rules).detail).toContain("'All files have the correct permissions.' is missing");
    expect(checkIncludeExclude('All files have the correct permissions. error: 1 file', rules).detail).toContain("'error' must not be in");
    expect(checkIncludeExclude(null, rules)).toEqual({ score: 0, detail: 'no result to look in' });
  });
  it('looks in a list by membership and treats absent include/exclude as empty', () => {
    expect(checkIncludeExclude(['a.txt', 'b.txt'], { include: ['a.txt'], exclude: ['c.txt'] }).score).toBe(1);
    expect(checkIncludeExclude(['a.txt.bak'], { include: ['a.txt'] }).score).toBe(0);
    expect(checkIncludeExclude('anything', {}).score).toBe(1);
    expect(checkIncludeExclude(42, { include: ['4'] }).score).toBe(0);
  });
});

describe('compare_text_file', () => {
  it('passes on the same text; reads CRLF as LF like Python text mode', () => {
    expect(compareTextFile(file('a\r\nb\n'), file('a\nb\n', '/c/gold.txt'), {}).score).toBe(1);
  });
  it('fails on different text and says where', () => {
    const out = compareTextFile(file('line one\nline 2\n'), file('line one\nline two\n', '/c/gold.txt'), {});
    expect(out.score).toBe(0);
    expect(out.detail).toBe("/h/out.txt differs from /c/gold.txt at line 2: '2\\n' where 'two\\n' was expected");
  });
  it('ignore_blanks squeezes whitespace runs and trims; ignore_case folds case', () => {
    expect(compareTextFile(file('  Hello\t\tWorld \n\n'), file('Hello World', '/c/g'), { ignore_blanks: true }).score).toBe(1);
    expect(compareTextFile(file('HelloWorld'), file('Hello World', '/c/g'), { ignore_blanks: true }).score).toBe(0);
    expect(compareTextFile(file('HELLO'), file('hello', '/c/g'), { ignore_case: true }).score).toBe(1);
    expect(compareTextFile(file('HELLO'), file('hello', '/c/g'), {}).score).toBe(0);
  });
  it('a result file that is not there or not UTF-8 scores 0; a missing expected file is the task\'s error', () => {
    expect(compareTextFile(file(null), file('x', '/c/g'), {})).toEqual({ score: 0, detail: '/h/out.txt is not there' });
    expect(compareTextFile(new VmFile('/h/b.bin', Buffer.from([0xff, 0xfe, 0x00])), file('x', '/c/g'), {}).detail).toBe('/h/b.bin is not UTF-8 text');
    expect(() => compareTextFile(file('x'), file(null, '/c/g'), {})).toThrow(CheckError);
  });
});

describe('literal_match', () => {
  it('type str compares str() of both', () => {
    expect(literalMatch('42', 42, {}).score).toBe(1);
    expect(literalMatch('Paris', 'paris', {}).score).toBe(0);
    expect(literalMatch('Paris', 'paris', { ignore_case: true }).score).toBe(1);
    expect(literalMatch(['a', 'b'], "['a', 'b']", {}).score).toBe(1);
    expect(literalMatch(null, 'None', {}).score).toBe(1);
  });
  it('type list compares item by item and refuses non-lists and other lengths', () => {
    expect(literalMatch(['A', 1], ['a', '1'], { type: 'list', ignore_case: true }).score).toBe(1);
    expect(literalMatch(['a', 'b'], ['a', 'c'], { type: 'list' }).detail).toBe("item 1 is 'b', 'c' expected");
    expect(literalMatch(['a'], ['a', 'b'], { type: 'list' }).detail).toBe('result has 1 items, 2 expected');
    expect(literalMatch('a', ['a'], { type: 'list' }).score).toBe(0);
  });
});

describe('fuzzy_match', () => {
  it("is rapidfuzz's fuzz.ratio / 100 (its documented examples)", () => {
    expect(fuzzRatio('this is a test', 'this is a test!')).toBeCloseTo(96.5517, 3);
    expect(fuzzRatio('fuzzy wuzzy was a bear', 'wuzzy fuzzy was a bear')).toBeCloseTo(90.909, 2);
    expect(fuzzyMatch('this is a test', { expected: 'this is a test!' }).score).toBeCloseTo(0.965517, 5);
  });
  it('equal texts score 1, nothing in common 0, code points not UTF-16 units', () => {
    expect(fuzzyMatch('abc', { expected: 'abc' }).score).toBe(1);
    expect(fuzzyMatch('', { expected: '' }).score).toBe(1);
    expect(fuzzyMatch('abc', { expected: 'xyz' }).score).toBe(0);
    expect(fuzzyMatch('😀a', { expected: '😀b' }).score).toBe(0.5);
    expect(fuzzyMatch(null, { expected: 'abc' }).score).toBe(0);
  });
});

describe('is_in_list', () => {
  it('passes when the expected item is in the list (or a substring of text)', () => {
    expect(isInList(['Default', 'Yaru-dark'], { expected: 'Yaru-dark' }).score).toBe(1);
    expect(isInList('theme: Yaru-dark\n', { expected: 'Yaru-dark' }).score).toBe(1);
  });
  it('fails when it is not, and when the result cannot hold it', () => {
    expect(isInList(['Default'], { expected: 'Yaru-dark' }).detail).toBe("'Yaru-dark' is not in ['Default']");
    expect(isInList(null, { expected: 'x' }).detail).toContain("argument of type 'NoneType' is not iterable");
    expect(isInList('text', { expected: 3 }).score).toBe(0);
  });
});

describe('check_direct_json_object', () => {
  it('passes when every expected key has its value; reads single-quoted output as OSWorld does', () => {
    expect(checkDirectJsonObject("{'name': 'Bob', 'age': 30}\n", { expected: { name: 'Bob' } }).score).toBe(1);
    expect(checkDirectJsonObject({ name: 'Bob', age: 30 }, { expected: { name: 'Bob', age: 30 } }).score).toBe(1);
  });
  it('fails on a different or missing value, non-JSON output, a non-object and the failure marker', () => {
    expect(checkDirectJsonObject('{"name": "Al"}', { expected: { name: 'Bob' } }).detail).toBe("'name' is 'Al', 'Bob' expected");
    expect(checkDirectJsonObject('{}', { expected: { name: 'Bob' } }).detail).toBe("'name' is None, 'Bob' expected");
    expect(checkDirectJsonObject('not json', { expected: { a: 1 } }).score).toBe(0);
    expect(checkDirectJsonObject('[1, 2]', { expected: { a: 1 } }).score).toBe(0);
    expect(checkDirectJsonObject('{"a": 1}', { expected: { a: '__EVALUATION_FAILED__' } }).score).toBe(0);
    expect(checkDirectJsonObject(null, { expected: { a: 1 } }).score).toBe(0);
  });
  it('ignore_list_order is read from the expected object itself (OSWorld then sorts that key too, and scores 0)', () => {
    expect(checkDirectJsonObject({ tags: ['b', 'a'] }, { expected: { tags: ['a', 'b'] } }).score).toBe(0);
    expect(checkDirectJsonObject({ tags: ['b', 'a'] }, { expected: { tags: ['a', 'b'], ignore_list_order: true } }).score).toBe(0);
  });
  it('expect_in_result: a list of accepted values, or a substring', () => {
    const rules = (expected: Record<string, unknown>) => ({ expected, expect_in_result: true });
    expect(checkDirectJsonObject({ city: 'Paris' }, rules({ city: ['Lyon', 'Paris'] })).score).toBe(1);
    expect(checkDirectJsonObject({ city: ['Rome', 'Paris'] }, rules({ city: ['Paris'] })).score).toBe(1);
    expect(checkDirectJsonObject({ city: 'Nice' }, rules({ city: ['Lyon', 'Paris'] })).score).toBe(0);
    expect(checkDirectJsonObject({ title: 'The Paris Review' }, rules({ title: 'Paris' })).score).toBe(1);
    expect(checkDirectJsonObject({ title: 'Review' }, rules({ title: 'Paris' })).score).toBe(0);
    expect(checkDirectJsonObject({}, rules({ title: 'Paris' })).score).toBe(0);
    expect(checkDirectJsonObject({ n: 3 }, rules({ n: 3 })).score).toBe(0);
  });
});

describe("Python's repr, as OSWorld's sentences and literal_match see values", () => {
  it('matches python3 str() of a mixed list', () => {
    expect(pyRepr([1, 'a', null, true, { k: "it's" }])).toBe(`[1, 'a', None, True, {'k': "it's"}]`);
  });
});

describe('runFunc: each func name reaches its own port', () => {
  const rule = (rules: unknown) => ({ type: 'rule' as const, rules });
  const cmd = { type: 'vm_command_line' as const, command: 'true' };
  const cases: Array<[Check, unknown, unknown, number]> = [
    // 'b' against {expected: 'a'}: exact_match says 0 where check_include_exclude (the next case) would say 1.
    [{ func: 'exact_match', result: cmd, expected: rule({ expected: 'a' }), options: {} }, 'b', { expected: 'a' }, 0],
    [{ func: 'check_include_exclude', result: cmd, expected: rule({ include: ['b'] }), options: {} }, 'abc', { include: ['b'] }, 1],
    [{ func: 'compare_text_file', result: cmd, expected: null, options: { ignore_case: true } }, file('A'), file('a', '/c/g'), 1],
    [{ func: 'literal_match', result: cmd, expected: rule('x'), options: { type: 'list' } }, ['x'], ['x'], 1],
    [{ func: 'fuzzy_match', result: cmd, expected: rule({ expected: 'abcd' }), options: {} }, 'abcf', { expected: 'abcd' }, 0.75],
    [{ func: 'is_in_list', result: cmd, expected: rule({ expected: 'b' }), options: {} }, ['a', 'b'], { expected: 'b' }, 1],
    [{ func: 'check_direct_json_object', result: cmd, expected: rule({ expected: { a: 1 } }), options: {} }, '{"a": 1}', { expected: { a: 1 } }, 1],
    [{ func: 'compare_table', result: cmd, expected: null, options: { rules: [{ type: 'sheet_name' }] } }, file(null), undefined, 0],
  ];
  it.each(cases)('%#: $func', (check, result, expected, score) => {
    const out = runFunc(check, result, expected);
    expect(out.score).toBe(score);
  });
  it('the options reach the port (ignore_case, type list), and its sentence comes back', () => {
    expect(runFunc({ func: 'compare_text_file', result: null, expected: null, options: {} }, file('A'), file('a', '/c/g')).score).toBe(0);
    expect(runFunc({ func: 'literal_match', result: null, expected: null, options: {} }, ['x'], ['x']).score).toBe(1);
    expect(runFunc({ func: 'literal_match', result: null, expected: null, options: { type: 'list' } }, 'x', 'x').detail).toContain('are not both lists');
    expect(runFunc({ func: 'compare_table', result: null, expected: null, options: { rules: [{ type: 'sheet_name' }] } }, file(null), undefined).detail).toBe('/h/out.txt is not there');
  });
  it('values in sentences are cut at 120 characters; a file shows as its path', () => {
    const long = 'x'.repeat(200);
    expect(exactMatch(long, { expected: 'y' }).detail).toBe(`result '${'x'.repeat(116)}… is not 'y'`);
    expect(shown(file('t', '/h/a.txt'))).toBe('/h/a.txt');
    expect(shown('y'.repeat(118))).toBe(`'${'y'.repeat(118)}'`);
  });
});

describe('the sentences each port gives', () => {
  it('name what was compared', () => {
    expect(fuzzyMatch('abcf', { expected: 'abcd' }).detail).toBe("result 'abcf' is 75.0% like 'abcd'");
    expect(isInList(['a', 'b'], { expected: 'b' }).detail).toBe("'b' is in the result");
    expect(literalMatch('a', 'a', {}).detail).toBe("result is 'a'");
    expect(literalMatch(['a'], ['a'], { type: 'list' }).detail).toBe('all 1 items match');
    expect(compareTextFile(file('a'), file('a', '/c/g'), {}).detail).toBe('/h/out.txt has the expected text');
    expect(compareTextFile('not a file', file('a', '/c/g'), {}).detail).toBe('the result file is not there');
    expect(() => compareTextFile(file('a'), 'gold', {})).toThrow('the expected file  is not there');
    expect(() => compareTextFile(file('a'), new VmFile('/c/g.bin', Buffer.from([0xc3])), {})).toThrow('the expected file /c/g.bin is not UTF-8 text');
    expect(checkDirectJsonObject({ a: 1, b: 2 }, { expected: { a: 1, b: 2 } }).detail).toBe('all 2 expected keys match');
    expect(checkDirectJsonObject({ n: 3 }, { expected: { n: 3 }, expect_in_result: true }).detail).toBe("the expectation of 'n' is neither a list nor a string");
    expect(checkDirectJsonObject({ city: 'Nice' }, { expected: { city: ['Lyon'] }, expect_in_result: true }).detail).toBe("'city' is 'Nice', none of ['Lyon']");
    expect(checkDirectJsonObject({ t: 'x' }, { expected: { t: 'Paris' }, expect_in_result: true }).detail).toBe("'Paris' is not in 't' ('x')");
    expect(checkDirectJsonObject('"text"', { expected: { a: 1 } }).detail).toBe("result 'text' is not a JSON object");
    expect(checkDirectJsonObject({ a: 1 }, { expected: { a: '__EVALUATION_FAILED__' } }).detail).toBe("the expectation of 'a' says its evaluation failed");
  });

  it('include/exclude on a value that cannot be searched says so, for include and for exclude', () => {
    expect(checkIncludeExclude(42, { include: ['4'] }).detail).toBe("cannot look in a int: argument of type 'int' is not iterable");
    expect(checkIncludeExclude(42, { exclude: ['4'] }).detail).toBe("cannot look in a int: argument of type 'int' is not iterable");
    expect(checkIncludeExclude('abc', { exclude: ['x'] }).score).toBe(1);
  });

  it('sorted comparisons: numbers and strings sort, mixed lists do not', () => {
    const rules = (tags: unknown) => ({ expected: { tags }, ignore_list_order: undefined });
    expect(checkDirectJsonObject({ tags: [3, 1, 2] }, { expected: { tags: [1, 2, 3] } }).score).toBe(0);
    expect(checkDirectJsonObject({ tags: ['b', 'a'] }, rules(['a', 'b'])).score).toBe(0);
  });
});

describe('edges the mutation run found unpinned', () => {
  it('a lone carriage return reads as a newline (Python universal newlines)', () => {
    expect(compareTextFile(file('a\rb'), file('a\nb', '/c/g'), {}).score).toBe(1);
  });
  it('a missing expected file is named in the error', () => {
    expect(() => compareTextFile(file('a'), file(null, '/c/g'), {})).toThrow('the expected file /c/g is not there');
  });
  it('case folding is lower-casing: "ß" and "SS" differ (Python str.lower)', () => {
    expect(literalMatch('ß', 'SS', { ignore_case: true }).score).toBe(0);
    expect(compareTextFile(file('ß'), file('SS', '/c/g'), { ignore_case: true }).score).toBe(0);
  });
  it('no result at all: include/exclude and JSON say so', () => {
    expect(checkIncludeExclude(undefined, {})).toEqual({ score: 0, detail: 'no result to look in' });
    expect(checkDirectJsonObject('null', { expected: { a: 1 } })).toEqual({ score: 0, detail: 'no result' });
    expect(checkDirectJsonObject(undefined, { expected: { a: 1 } })).toEqual({ score: 0, detail: 'no result' });
  });
  it('rules that are not an object read as none', () => {
    expect(exactMatch(null, null).score).toBe(1);
    expect(exactMatch('x', 'x').score).toBe(0);
    expect(fuzzyMatch('abc', null)).toEqual({ score: 0, detail: "result 'abc' is not text" });
  });
  it('a non-object JSON result is refused by name, an array too', () => {
    expect(checkDirectJsonObject([1], { expected: { a: 1 } }).detail).toBe('result [1] is not a JSON object');
    expect(checkDirectJsonObject(5, { expected: { a: 1 } }).detail).toBe('result 5 is not a JSON object');
  });
  it('expect_in_result with a list accepts a listed value in a result list only by equality', () => {
    expect(checkDirectJsonObject({ c: ['ab'] }, { expected: { c: ['a'] }, expect_in_result: true }).score).toBe(0);
    expect(checkDirectJsonObject({ c: 'Paris' }, { expected: { c: ['Par'] }, expect_in_result: true }).score).toBe(0);
    expect(checkDirectJsonObject({ c: 3 }, { expected: { c: [3] }, expect_in_result: true }).score).toBe(0);
  });
  it('ignore_list_order: the flag key itself cannot be sorted, as in OSWorld, so the check says so', () => {
    expect(checkDirectJsonObject({ tags: ['b', 'a'], ignore_list_order: true }, { expected: { tags: ['a', 'b'], ignore_list_order: true } }).detail).toBe("'ignore_list_order' cannot be compared ignoring order");
    expect(checkDirectJsonObject({ tags: ['c', 'a'] }, { expected: { tags: ['a', 'b'], ignore_list_order: true } }).detail).toBe("'tags' is ['c', 'a'], ['a', 'b'] expected (any order)");
    expect(checkDirectJsonObject({ tags: 5 }, { expected: { tags: ['a', 'b'], ignore_list_order: true } }).detail).toBe("'tags' cannot be compared ignoring order");
  });
});

describe('pass and fail sentences, word for word', () => {
  it('exact_match, literal_match and a non-JSON result', () => {
    expect(exactMatch('a', { expected: 'a' }).detail).toBe("result equals 'a'");
    expect(literalMatch('a', 'b', {}).detail).toBe("result 'a' is not 'b'");
    expect(checkDirectJsonObject('not json', { expected: { a: 1 } }).detail).toBe("result 'not json' is not a JSON object");
  });
});
