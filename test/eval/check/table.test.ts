import { describe, expect, it } from 'vitest';
import { CheckError } from '../../../src/main/eval/check/env.js';
import { cellsOf, compareTable, pyFloat, roundHalfEven } from '../../../src/main/eval/check/table.js';
import { VmFile } from '../../../src/main/eval/check/values.js';
import { readWorkbook } from '../../../src/main/eval/check/workbook.js';
import type { TableRule } from '../../../src/main/eval/task/table-rules.js';
import { xlsx, zip } from './xlsx-writer.js';

// compare_table against hand-made workbooks: XLSX written as a spreadsheet app lays it out
// (xlsx-writer.ts), CSV as text. Each rule passes on a matching end state and fails on a near miss.
const book = (bytes: Buffer | string | null, name = '/h/result.xlsx') => new VmFile(name, bytes === null ? null : Buffer.from(bytes));
const gold = (bytes: Buffer | string) => book(bytes, '/cache/t/gold.xlsx');
const data = (extra: Partial<Extract<TableRule, { type: 'sheet_data' }>> = {}) => ({ rules: [{ type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'EI0', ...extra }] });

const expected = xlsx({ Sheet1: [['Old ID', 'New 7 Digit ID'], [1234, '0001234'], [56, { inline: '0000056' }], [7.5, { formula: 'TEXT(A4;"0000000")', cached: '0000007' }]] });

describe('compare_table: sheet_data', () => {
  it('passes on the same values, however the strings are stored (shared, inline, formula cache)', () => {
    const result = xlsx({ Sheet1: [['Old ID', 'New 7 Digit ID'], [1234, { inline: '0001234' }], [56, '0000056'], [7.5, '0000007']] });
    expect(compareTable(book(result), gold(expected), data())).toEqual({ score: 1, detail: 'all 1 table rules hold' });
  });

  it('fails on one different cell and names it', () => {
    const result = xlsx({ Sheet1: [['Old ID', 'New 7 Digit ID'], [1234, '001234'], [56, '0000056'], [7.5, '0000007']] });
    const out = compareTable(book(result), gold(expected), data());
    expect(out.score).toBe(0);
    expect(out.detail).toBe('rule 0 (sheet_data): data row 2, column 2: "001234" vs "0001234"');
  });

  it('fails on an extra row or column', () => {
    const longer = xlsx({ Sheet1: [['Old ID', 'New 7 Digit ID'], [1234, '0001234'], [56, '0000056'], [7.5, '0000007'], [1, '0000001']] });
    expect(compareTable(book(longer), gold(expected), data()).detail).toContain('the sheets are 5×2 and 4×2');
    const wider = xlsx({ Sheet1: [['Old ID', 'New 7 Digit ID', 'x'], [1234, '0001234'], [56, '0000056'], [7.5, '0000007']] });
    expect(compareTable(book(wider), gold(expected), data()).score).toBe(0);
  });

  it('drops wholly empty rows as pandas does, and compares numbers rounded to precision', () => {
    const a = xlsx({ S: [['x'], [null], [1.00004], [2]] });
    const b = xlsx({ S: [['x'], [1], [2]] });
    expect(compareTable(book(a), gold(b), data()).score).toBe(1);
    const c = xlsx({ S: [['x'], [1.00006], [2]] });
    expect(compareTable(book(c), gold(b), data()).score).toBe(0);
    expect(compareTable(book(c), gold(b), data({ precision: 3 })).score).toBe(1);
  });

  it('ignore_blanks squeezes whitespace in text cells only when asked', () => {
    const a = xlsx({ S: [['New  York\t City ']] });
    const b = xlsx({ S: [['New York City']] });
    expect(compareTable(book(a), gold(b), data()).score).toBe(0);
    expect(compareTable(book(a), gold(b), data({ ignore_blanks: true })).score).toBe(1);
  });

  it('reads a CSV result as one sheet, a column of numbers as numbers (as pandas.read_csv infers it)', () => {
    const scores = xlsx({ Sheet1: [['Name', 'Score'], ['Ann', 3], ['Bob, Jr.', 4.5]] });
    const csv = 'Name,Score\r\nAnn,3\n"Bob, Jr.",4.50\n';
    expect(compareTable(book(csv, '/h/out.csv'), gold(scores), { rules: [{ type: 'sheet_data', sheet_idx0: 'RI0', sheet_idx1: 'EI0' }] }).score).toBe(1);
    expect(compareTable(book('Name,Score\nAnn,3\nBob,4.5\n', '/h/out.csv'), gold(scores), data()).score).toBe(0);
    // pandas reads "0001234" in an all-number column as 1234: a text cell "0001234" is then another value.
    expect(compareTable(book('Old ID,New 7 Digit ID\n1234,0001234\n56,0000056\n7.5,0000007\n', '/h/out.csv'), gold(expected), data()).detail).toBe('rule 0 (sheet_data): data row 2, column 2: 1234 vs "0001234"');
  });

  it('a sheet the result lacks scores 0; one the expected workbook lacks is the task\'s error', () => {
    expect(compareTable(book(expected), gold(expected), { rules: [{ type: 'sheet_data', sheet_idx0: 'RNSummary', sheet_idx1: 'EI0' }] }).detail).toContain('"RNSummary" is not in the result workbook');
    expect(() => compareTable(book(expected), gold(expected), { rules: [{ type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'ENSummary' }] })).toThrow(CheckError);
  });
});

describe('compare_table: sheet_name and the rule order', () => {
  const two = xlsx({ Data: [['a']], Chart: [['b']] });
  it('passes on the same names in the same order, fails otherwise', () => {
    expect(compareTable(book(two), gold(xlsx({ Data: [['x']], Chart: [['y']] })), { rules: [{ type: 'sheet_name' }] }).score).toBe(1);
    expect(compareTable(book(two), gold(xlsx({ Chart: [['y']], Data: [['x']] })), { rules: [{ type: 'sheet_name' }] }).detail).toBe('rule 0 (sheet_name): sheet names ["Data","Chart"], ["Chart","Data"] expected');
  });
  it('the first failing rule ends it at 0 even when a later one would pass', () => {
    const rules = { rules: [{ type: 'sheet_name' }, { type: 'sheet_data', sheet_idx0: 'RNData', sheet_idx1: 'ENData' }] };
    expect(compareTable(book(two), gold(xlsx({ Data: [['a']] })), rules).detail).toContain('rule 0 (sheet_name)');
    expect(compareTable(book(two), gold(xlsx({ Data: [['a']], Chart: [['z']] })), rules).score).toBe(1);
    expect(compareTable(book(two), gold(xlsx({ Data: [['b']], Chart: [['z']] })), rules).detail).toContain('rule 1 (sheet_data)');
  });
});

describe('compare_table: sheet_fuzzy', () => {
  const result = xlsx({ S: [['Name', 'Street'], ['ALICE  ', '12 Main Rd'], [3, 'x']] });
  const want = xlsx({ S: [['Name', 'Street'], ['alice', '12 Main Road'], [3, 'x']] });
  const fuzzy = (rule: Record<string, unknown>) => ({ rules: [{ type: 'sheet_fuzzy', sheet_idx0: 'RI0', sheet_idx1: 'EI0', rules: [rule] }] });
  it('exact_match after trimming and case folding', () => {
    expect(compareTable(book(result), gold(want), fuzzy({ range: ['A1:A3'], type: 'exact_match', ignore_case: true, trim_trailings: ' ' })).score).toBe(1);
    expect(compareTable(book(result), gold(want), fuzzy({ range: ['A1:A3'], type: 'exact_match' })).detail).toContain('A2: "ALICE  " vs "alice"');
  });
  it('normalization pairs, fuzzy threshold, includes / included_by', () => {
    expect(compareTable(book(result), gold(want), fuzzy({ range: ['B2'], type: 'exact_match', normalization: [['Rd', 'Road']] })).score).toBe(1);
    expect(compareTable(book(result), gold(want), fuzzy({ range: ['B2'], type: 'fuzzy_match', threshold: 85 })).score).toBe(1);
    expect(compareTable(book(result), gold(want), fuzzy({ range: ['B2'], type: 'fuzzy_match', threshold: 95 })).score).toBe(0);
    expect(compareTable(book(result), gold(want), fuzzy({ range: ['B2'], type: 'included_by' })).score).toBe(0);
    expect(compareTable(book(want), gold(result), fuzzy({ range: ['B2'], type: 'included_by' })).score).toBe(0);
    expect(compareTable(book(want), gold(result), fuzzy({ range: ['A1:B1'], type: 'includes' })).score).toBe(1);
  });
  it('reads numbers as Python floats and empty cells as None on both sides', () => {
    expect(compareTable(book(result), gold(want), fuzzy({ range: ['A3', 'C1:C3'], type: 'exact_match' })).score).toBe(1);
    expect(compareTable(book(result), gold(xlsx({ S: [[], [], ['3.0']] })), fuzzy({ range: ['A3'], type: 'exact_match' })).score).toBe(1);
    expect(compareTable(book(result), gold(xlsx({ S: [[], [], ['3']] })), fuzzy({ range: ['A3'], type: 'exact_match' })).score).toBe(0);
    expect(compareTable(book(result), gold(xlsx({ S: [[], [], [null, 'None']] })), fuzzy({ range: ['B3'], type: 'includes' })).score).toBe(0);
  });
});

describe('compare_table: files that are not there or do not open', () => {
  it('a missing or broken result scores 0; a broken expected workbook is the task\'s error', () => {
    expect(compareTable(book(null), gold(expected), data())).toEqual({ score: 0, detail: '/h/result.xlsx is not there' });
    expect(compareTable(book(zip({ 'mimetype': 'application/vnd.oasis.opendocument.spreadsheet' })), gold(expected), data()).detail).toContain('no xl/workbook.xml');
    expect(compareTable(book(Buffer.from('PK\u0003\u0004 truncated')), gold(expected), data()).detail).toContain('does not open');
    expect(() => compareTable(book(expected), gold(Buffer.from('PK\u0003\u0004 junk')), data())).toThrow(CheckError);
    expect(() => compareTable(book(expected), book(null, '/cache/t/gold.xlsx'), data())).toThrow('is not there');
  });
});

describe('the workbook reader', () => {
  it('reads rich-text shared strings without phonetic runs, OOXML escapes, booleans, stored entries', () => {
    const files = {
      'xl/workbook.xml': '<workbook xmlns:r="r"><sheets><sheet name="A &amp; B" sheetId="1" r:id="rId7"/></sheets></workbook>',
      'xl/_rels/workbook.xml.rels': '<Relationships><Relationship Id="rId7" Target="/xl/worksheets/data.xml"/></Relationships>',
      'xl/sharedStrings.xml': '<sst><si><r><t>Hel</t></r><r><rPr><b/></rPr><t>lo</t></r><rPh><t>ignored</t></rPh></si><si><t>line_x000D_end</t></si><si/></sst>',
      'xl/worksheets/data.xml': '<worksheet><sheetData><row r="2"><c r="B2" t="s"><v>0</v></c><c r="C2" t="s"><v>1</v></c><c r="D2" t="b"><v>1</v></c><c r="E2" s="3"/><c r="F2" t="s"><v>2</v></c></row></sheetData></worksheet>',
    };
    const wb = readWorkbook(zip(files, true));
    expect(wb.names).toEqual(['A & B']);
    expect([...wb.sheet('A & B')!.rows.get(2)!.entries()]).toEqual([
      [2, 'Hello'],
      [3, 'line\rend'],
      [4, true],
      [6, ''],
    ]);
  });

  it('rounds half to even like numpy, prints floats like Python, walks ranges like openpyxl', () => {
    expect([roundHalfEven(2.5, 0), roundHalfEven(3.5, 0), roundHalfEven(0.125, 2), roundHalfEven(-1.5, 0), roundHalfEven(1.23456, 4)]).toEqual([2, 4, 0.12, -2, 1.2346]);
    expect([pyFloat(3), pyFloat(0.5), pyFloat(1e-5), pyFloat(1e16), pyFloat(-2.5e-7), pyFloat(123456789.5)]).toEqual(['3.0', '0.5', '1e-05', '1e+16', '-2.5e-07', '123456789.5']);
    expect(cellsOf('A1:B2')).toEqual(['A1', 'B1', 'A2', 'B2']);
    expect(cellsOf('Z9:AB9')).toEqual(['Z9', 'AA9', 'AB9']);
  });
});

describe('compare_table: edges the mutation run asked about', () => {
  const fuzzy = (rule: Record<string, unknown>, idx0: unknown = 'RI0', idx1: unknown = 'EI0') => ({ rules: [{ type: 'sheet_fuzzy', sheet_idx0: idx0, sheet_idx1: idx1, rules: [rule] }] });
  it('an expected-side index without an expected workbook is the task\'s error', () => {
    expect(() => compareTable(book(expected), undefined, data())).toThrow('sheet index "EI0" names the expected workbook, but the task gives none');
    expect(compareTable(book(expected), undefined, { rules: [{ type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'RI0' }] }).score).toBe(1);
    expect(compareTable(book(expected), undefined, { rules: [{ type: 'sheet_name' }] }).detail).toBe('rule 0 (sheet_name): sheet names ["Sheet1"], null expected');
  });
  it('sheets by number, RI/EI index and RN/EN name; a missing first sheet is named', () => {
    const two = xlsx({ A: [['x']], B: [['y']] });
    const other = xlsx({ A: [['y']], B: [['x']] });
    expect(compareTable(book(two), gold(other), { rules: [{ type: 'sheet_data', sheet_idx0: 1, sheet_idx1: 'EI1' }] }).score).toBe(0);
    expect(compareTable(book(two), gold(other), { rules: [{ type: 'sheet_data', sheet_idx0: 'RI1', sheet_idx1: 'ENA' }] }).score).toBe(1);
    expect(compareTable(book(two), gold(other), { rules: [{ type: 'sheet_data', sheet_idx0: 'RNB', sheet_idx1: 'EI0' }] }).score).toBe(1);
    expect(compareTable(book(two), gold(other), { rules: [{ type: 'sheet_data', sheet_idx0: 5, sheet_idx1: 'EI0' }] }).detail).toBe('rule 0 (sheet_data): sheet 5 is not in the result workbook');
    expect(compareTable(book(two), gold(other), { rules: [{ type: 'sheet_data', sheet_idx0: 'EI9', sheet_idx1: 'RI0' }] }).detail).toBe('rule 0 (sheet_data): sheet "EI9" is not in the expected workbook');
    expect(compareTable(book(two), gold(other), { rules: [{ type: 'sheet_data', sheet_idx0: 'RI0', sheet_idx1: 'RI7' }] }).detail).toBe('rule 0 (sheet_data): sheet "RI7" is not in the result workbook');
  });
  it('booleans equal 1 and 0 as pandas compares them; text "1" does not equal 1; empty cells equal empty', () => {
    expect(compareTable(book(xlsx({ S: [[true, false]] })), gold(xlsx({ S: [[1, 0]] })), data()).score).toBe(1);
    expect(compareTable(book(xlsx({ S: [['1']] })), gold(xlsx({ S: [[1]] })), data()).detail).toBe('rule 0 (sheet_data): data row 1, column 1: "1" vs 1');
    expect(compareTable(book(xlsx({ S: [['a', null, 'c']] })), gold(xlsx({ S: [['a', null, 'c']] })), data()).score).toBe(1);
    expect(compareTable(book(xlsx({ S: [['a', null, 'c']] })), gold(xlsx({ S: [['a', 'b', 'c']] })), data()).detail).toBe('rule 0 (sheet_data): data row 1, column 2: null vs "b"');
    expect(compareTable(book(xlsx({ S: [] })), gold(xlsx({ S: [] })), data()).score).toBe(1);
    expect(compareTable(book(xlsx({ S: [] })), gold(xlsx({ S: [['a']] })), data()).detail).toBe('rule 0 (sheet_data): the sheets are 0×0 and 1×1');
  });
  it('the default precision is 4 digits', () => {
    expect(compareTable(book(xlsx({ S: [[0.12344]] })), gold(xlsx({ S: [[0.1234]] })), data()).score).toBe(1);
    expect(compareTable(book(xlsx({ S: [[0.12346]] })), gold(xlsx({ S: [[0.1234]] })), data()).score).toBe(0);
  });
  it('fuzzy: default threshold 85, leading characters trimmed, characters ignored, booleans as True/False', () => {
    const pair = (a: unknown, b: unknown, rule: Record<string, unknown>) => compareTable(book(xlsx({ S: [[a as string]] })), gold(xlsx({ S: [[b as string]] })), fuzzy({ range: ['A1'], ...rule })).score;
    expect(pair('abcdefghij', 'abcdefghiX', { type: 'fuzzy_match' })).toBe(1);
    expect(pair('abcdefgh', 'abcdefXY', { type: 'fuzzy_match' })).toBe(0);
    expect(pair('+ 12', '12', { type: 'exact_match', trim_leadings: '+ ' })).toBe(1);
    expect(pair('12', '+ 12', { type: 'exact_match', trim_leadings: '+ ' })).toBe(1);
    expect(pair('x12+', 'x12', { type: 'exact_match', trim_trailings: '+' })).toBe(1);
    expect(pair('+x12', 'x12', { type: 'exact_match', trim_trailings: '+' })).toBe(0);
    expect(pair('(555) 12-34', '5551234', { type: 'exact_match', ignore_chars: ' ()-' })).toBe(1);
    expect(pair('(555) 12-34', '5551234', { type: 'exact_match' })).toBe(0);
    expect(pair(true, 'True', { type: 'exact_match' })).toBe(1);
    expect(pair(false, 'False', { type: 'exact_match' })).toBe(1);
    expect(pair('Rd', 'Road', { type: 'exact_match', normalization: [['Road', 'Rd']] })).toBe(1);
  });
  it('fuzzy reads a sheet the workbook lacks as empty cells', () => {
    expect(compareTable(book(expected), gold(expected), fuzzy({ range: ['A1'], type: 'exact_match' }, 'RNNone', 'ENNone')).score).toBe(1);
    expect(compareTable(book(expected), gold(expected), fuzzy({ range: ['A1'], type: 'exact_match' }, 'RNNone', 'EI0')).detail).toBe('rule 0 (sheet_fuzzy): A1: "None" vs "Old ID" (exact_match)');
  });
  it('pyFloat, roundHalfEven and cellsOf at their edges', () => {
    expect([pyFloat(0), pyFloat(Number.NaN), pyFloat(Infinity), pyFloat(-Infinity), pyFloat(1e-4), pyFloat(9.9e-5), pyFloat(9999999999999998), pyFloat(1.5e300)]).toEqual(['0.0', 'nan', 'inf', '-inf', '0.0001', '9.9e-05', '9999999999999998.0', '1.5e+300']);
    expect(roundHalfEven(1e308, 4)).toBe(1e308);
    expect(roundHalfEven(0.5, 0)).toBe(0);
    expect(roundHalfEven(1.49, 0)).toBe(1);
    expect(roundHalfEven(1.51, 0)).toBe(2);
    expect(cellsOf('B2:A1')).toEqual(['A1', 'B1', 'A2', 'B2']);
    expect(cellsOf('C3')).toEqual(['C3']);
    expect(cellsOf('AZ1:BA1')).toEqual(['AZ1', 'BA1']);
  });
});

describe('compare_table: more edges from the mutation run', () => {
  const pair = (a: unknown, b: unknown, rule: Record<string, unknown>) =>
    compareTable(book(xlsx({ S: [[a as string]] })), gold(xlsx({ S: [[b as string]] })), { rules: [{ type: 'sheet_fuzzy', sheet_idx0: 'RI0', sheet_idx1: 'EI0', rules: [{ range: ['A1'], ...rule }] }] }).score;
  it('messages name the file or the sheet', () => {
    expect(compareTable('not a file', gold(expected), data()).detail).toBe('the result table is not there');
    expect(() => compareTable(book(expected), gold(Buffer.from('PK\u0003\u0004 junk')), data())).toThrow('the expected table /cache/t/gold.xlsx does not open: not an XLSX workbook');
    expect(() => compareTable(book(expected), gold(expected), { rules: [{ type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'ENSummary' }] })).toThrow('sheet "ENSummary" is not in the expected workbook');
  });
  it('a damaged sheet inside a workbook that opens scores 0 and says why', () => {
    const files = {
      'xl/workbook.xml': '<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>',
      'xl/_rels/workbook.xml.rels': '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
      'xl/sharedStrings.xml': '<sst><si><t>a</t></si></sst>',
      'xl/worksheets/sheet1.xml': '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>7</v></c></row></sheetData></worksheet>',
    };
    expect(compareTable(book(zip(files)), gold(expected), data())).toEqual({ score: 0, detail: 'rule 0 (sheet_data): shared string 7 does not exist' });
  });
  it('sheet names: same count but another name, or another count', () => {
    const names = (a: string[], b: string[]) => compareTable(book(xlsx(Object.fromEntries(a.map((n) => [n, [['x']]])))), gold(xlsx(Object.fromEntries(b.map((n) => [n, [['x']]])))), { rules: [{ type: 'sheet_name' }] }).score;
    expect(names(['A', 'B'], ['A', 'C'])).toBe(0);
    expect(names(['A'], ['A', 'B'])).toBe(0);
    expect(names(['A', 'B'], ['A'])).toBe(0);
  });
  it('precision and ignore_blanks apply to both sides', () => {
    expect(compareTable(book(xlsx({ S: [[1.0004]] })), gold(xlsx({ S: [[1.0001]] })), data({ precision: 3 })).score).toBe(1);
    expect(compareTable(book(xlsx({ S: [['New York']] })), gold(xlsx({ S: [['New \t York']] })), data({ ignore_blanks: true })).score).toBe(1);
    expect(compareTable(book(xlsx({ S: [['abc']] })), gold(xlsx({ S: [['xyz']] })), data({ ignore_blanks: true })).score).toBe(0);
  });
  it('fuzzy types: includes is not included_by, case matters unless ignored, the threshold is inclusive', () => {
    expect(pair('abc', 'b', { type: 'includes' })).toBe(1);
    expect(pair('b', 'abc', { type: 'includes' })).toBe(0);
    expect(pair('b', 'abc', { type: 'included_by' })).toBe(1);
    expect(pair('A', 'a', { type: 'exact_match' })).toBe(0);
    expect(pair('A', 'a', { type: 'exact_match', ignore_case: true })).toBe(1);
    expect(pair('abcd', 'abcf', { type: 'fuzzy_match', threshold: 75 })).toBe(1);
    expect(pair('abcd', 'abcf', { type: 'fuzzy_match', threshold: 76 })).toBe(0);
    expect(pair('++a', 'a', { type: 'exact_match', trim_leadings: '+' })).toBe(1);
    expect(pair('a+b', 'ab', { type: 'exact_match', trim_leadings: '+', trim_trailings: '+' })).toBe(0);
    expect(pair('ab++', 'ab', { type: 'exact_match', trim_trailings: '+' })).toBe(1);
  });
  it('rows are read in their sheet order even when the file lists them out of order', () => {
    const files = {
      'xl/workbook.xml': '<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>',
      'xl/_rels/workbook.xml.rels': '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
      'xl/worksheets/sheet1.xml': '<worksheet><sheetData><row r="2"><c r="A2"><v>2</v></c></row><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>',
    };
    expect(compareTable(book(zip(files)), gold(xlsx({ S: [[1], [2]] })), data()).score).toBe(1);
  });
});
