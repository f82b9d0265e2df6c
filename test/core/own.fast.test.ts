import { describe, expect, it } from 'vitest';
import { nameTable, own } from '../../src/shared/own.js';

// Issue 27 item 9, the lookup itself (own-names.test.ts drives the CLI through it): a name
// from outside finds what the table holds, never what every object inherits.

const INHERITED = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

describe('own', () => {
  it('finds nothing a plain object only inherits', () => {
    const table: Record<string, number> = { a: 1 };
    for (const name of INHERITED) expect(own(table, name), name).toBeUndefined();
  });

  it('finds every entry the table holds, also one named like an inherited property, and its falsy values as they are', () => {
    const table = JSON.parse('{"constructor": {"model": "x"}, "toString": 0, "a": "", "__proto__": false}') as Record<string, unknown>;
    expect(own(table, 'constructor')).toEqual({ model: 'x' });
    expect(own(table, 'toString')).toBe(0);
    expect(own(table, 'a')).toBe('');
    expect(own(table, '__proto__')).toBe(false);
    expect(own(table, 'valueOf')).toBeUndefined();
  });
});

describe('nameTable', () => {
  it('inherits nothing, and takes "__proto__" as an entry like any other', () => {
    const table = nameTable<number>();
    for (const name of INHERITED) expect(table[name], name).toBeUndefined();
    for (const [name, value] of [['__proto__', 7], ['constructor', 8]] as const) table[name] = value;
    expect(Object.keys(table)).toEqual(['__proto__', 'constructor']);
    expect(own(table, '__proto__')).toBe(7);
    expect(Object.getPrototypeOf(table)).toBeNull();
  });

  it('is a fresh table each time', () => {
    const first = nameTable<number>();
    first.x = 1;
    expect(nameTable<number>().x).toBeUndefined();
  });
});
