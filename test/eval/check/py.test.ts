/**
 * The Python semantics OSWorld's metric functions lean on (check/py.ts), value by value,
 * each expectation what CPython 3 gives for the same JSON value (checked with python3):
 * `==`, `repr()`/`str()`, `in` and its TypeErrors, `sorted()`.
 */
import { describe, expect, it } from 'vitest';
import { isTypeError, pyEquals, pyIn, pyRepr, pySorted, pyStr, pyTypeName } from '../../../src/main/eval/check/py.js';

describe('pyEquals (Python ==)', () => {
  it('numbers and bools by value; None only equals None; no cross-type equality with str', () => {
    expect(pyEquals(true, 1)).toBe(true);
    expect(pyEquals(false, 0)).toBe(true);
    expect(pyEquals(1, 1.0)).toBe(true);
    expect(pyEquals(1, true)).toBe(true);
    expect(pyEquals(2, true)).toBe(false);
    expect(pyEquals(1, '1')).toBe(false);
    expect(pyEquals(true, 'True')).toBe(false);
    expect(pyEquals(null, null)).toBe(true);
    expect(pyEquals(undefined, null)).toBe(true);
    expect(pyEquals(null, 0)).toBe(false);
    expect(pyEquals(0, null)).toBe(false);
    expect(pyEquals('', null)).toBe(false);
    expect(pyEquals('a', 'a')).toBe(true);
    expect(pyEquals('a', ['a'])).toBe(false);
    expect(pyEquals('1', 1)).toBe(false);
  });

  it('lists in order and length; dicts by keys, in any order', () => {
    expect(pyEquals([1, 2], [1, 2])).toBe(true);
    expect(pyEquals([1, 2], [2, 1])).toBe(false);
    expect(pyEquals([1], [1, 2])).toBe(false);
    expect(pyEquals([1, 2], [1])).toBe(false);
    expect(pyEquals([1], { 0: 1 })).toBe(false);
    expect(pyEquals([[true]], [[1]])).toBe(true);
    expect(pyEquals({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(pyEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(pyEquals({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(pyEquals({ a: 1 }, { b: 1 })).toBe(false);
    expect(pyEquals({ a: 1 }, { a: 2 })).toBe(false);
    expect(pyEquals({}, [])).toBe(false);
    expect(pyEquals({ a: 1 }, 'a')).toBe(false);
    // A key with an undefined value is still a key b has not.
    expect(pyEquals({ a: null }, { b: null })).toBe(false);
  });
});

describe('pyRepr and pyStr (Python repr() and str())', () => {
  it('None, bools, ints, floats, nan and infinities', () => {
    expect(pyRepr(null)).toBe('None');
    expect(pyRepr(undefined)).toBe('None');
    expect(pyRepr(true)).toBe('True');
    expect(pyRepr(false)).toBe('False');
    expect(pyRepr(3)).toBe('3');
    expect(pyRepr(2.5)).toBe('2.5');
    expect(pyRepr(Number.NaN)).toBe('nan');
    expect(pyRepr(Number.POSITIVE_INFINITY)).toBe('inf');
    expect(pyRepr(Number.NEGATIVE_INFINITY)).toBe('-inf');
  });

  it("strings: single quotes unless the text has ' and no \"; escapes as Python writes them", () => {
    expect(pyRepr('plain')).toBe("'plain'");
    expect(pyRepr("it's")).toBe('"it\'s"');
    expect(pyRepr('say "hi"')).toBe('\'say "hi"\'');
    expect(pyRepr('both \' and "')).toBe("'both \\' and \"'");
    expect(pyRepr('a\\b')).toBe("'a\\\\b'");
    expect(pyRepr('l1\nl2\r\tend')).toBe("'l1\\nl2\\r\\tend'");
    expect(pyRepr('\u0001\u001f\u007f')).toBe("'\\x01\\x1f\\x7f'");
    expect(pyRepr(' é ✓')).toBe("' é ✓'");
  });

  it('lists and dicts, nested, with Python’s separators', () => {
    expect(pyRepr([])).toBe('[]');
    expect(pyRepr({})).toBe('{}');
    expect(pyRepr([1, 'a', null, false])).toBe("[1, 'a', None, False]");
    expect(pyRepr({ k: [true], "it's": { n: 1.5 } })).toBe("{'k': [True], \"it's\": {'n': 1.5}}");
  });

  it('str() is the text itself for a str, repr for everything else', () => {
    expect(pyStr("it's")).toBe("it's");
    expect(pyStr(3)).toBe('3');
    expect(pyStr(['x'])).toBe("['x']");
    expect(pyStr(null)).toBe('None');
  });
});

describe('pyIn (Python in) and its TypeErrors', () => {
  it('substring in a str; a non-str left operand is a TypeError naming its type', () => {
    expect(pyIn('b', 'abc')).toBe(true);
    expect(pyIn('', 'abc')).toBe(true);
    expect(pyIn('d', 'abc')).toBe(false);
    expect(pyIn(1, 'abc')).toEqual({ typeError: "'in <string>' requires string as left operand, not int" });
    expect(pyIn(null, 'abc')).toEqual({ typeError: "'in <string>' requires string as left operand, not NoneType" });
  });

  it('membership in a list by ==; a key of a dict; an unhashable left operand of a dict is a TypeError', () => {
    expect(pyIn(1, [true])).toBe(true);
    expect(pyIn('1', [1])).toBe(false);
    expect(pyIn([1], [[1]])).toBe(true);
    expect(pyIn('a', { a: 1 })).toBe(true);
    expect(pyIn('b', { a: 1 })).toBe(false);
    expect(pyIn(1, { a: 1 })).toBe(false);
    expect(pyIn([1], { a: 1 })).toEqual({ typeError: "unhashable type: 'list'" });
    expect(pyIn({}, { a: 1 })).toEqual({ typeError: "unhashable type: 'dict'" });
    expect(pyIn(null, { a: 1 })).toBe(false);
  });

  it('anything else is not iterable', () => {
    expect(pyIn(1, 5)).toEqual({ typeError: "argument of type 'int' is not iterable" });
    expect(pyIn(1, 2.5)).toEqual({ typeError: "argument of type 'float' is not iterable" });
    expect(pyIn(1, null)).toEqual({ typeError: "argument of type 'NoneType' is not iterable" });
    expect(pyIn(1, true)).toEqual({ typeError: "argument of type 'bool' is not iterable" });
  });

  it('type names as Python says them', () => {
    expect([null, undefined, true, 1, 1.5, 's', [], {}].map(pyTypeName)).toEqual(['NoneType', 'NoneType', 'bool', 'int', 'float', 'str', 'list', 'dict']);
  });
});

describe('pySorted (Python sorted())', () => {
  it('numbers by value (bools as 0/1, stable), strings by code point, a str by its characters', () => {
    expect(pySorted([10, 9, 1.5])).toEqual([1.5, 9, 10]);
    expect(pySorted([true, 0, 2])).toEqual([0, true, 2]);
    expect(pySorted([1, true])).toEqual([1, true]);
    expect(pySorted(['b', 'a', 'B', '10', '9'])).toEqual(['10', '9', 'B', 'a', 'b']);
    expect(pySorted('cba')).toEqual(['a', 'b', 'c']);
    expect(pySorted([])).toEqual([]);
  });

  it('a mix, or a thing that is not iterable, is the TypeError Python raises; the input is left as it was', () => {
    expect(pySorted([1, 'a'])).toEqual({ typeError: "'<' not supported between the list's items" });
    expect(pySorted([null, 1])).toEqual({ typeError: "'<' not supported between the list's items" });
    expect(pySorted(5)).toEqual({ typeError: "'int' object is not iterable" });
    expect(pySorted({ a: 1 })).toEqual({ typeError: "'dict' object is not iterable" });
    const input = [3, 1, 2];
    pySorted(input);
    expect(input).toEqual([3, 1, 2]);
  });

  it('isTypeError tells the error apart from a result', () => {
    expect(isTypeError({ typeError: 'x' })).toBe(true);
    expect(isTypeError([])).toBe(false);
    expect(isTypeError(null)).toBe(false);
    expect(isTypeError({ a: 1 })).toBe(false);
    expect(isTypeError('typeError')).toBe(false);
  });
});
