import { assertNever } from '../../../shared/assert-never.js';
import type { FuncOptions } from '../task/schema.js';
import { TableRuleSchema, type FuzzyRangeRule, type SheetIndex, type TableRule } from '../task/table-rules.js';
import { CheckError, type CheckOutcome } from './env.js';
import { fuzzRatio } from './fuzz.js';
import { cellAddress, readWorkbook, WorkbookError, type CellValue, type Sheet, type Workbook } from './workbook.js';
import { VmFile } from './values.js';

/**
 * table.py compare_table: the rules in order, the first that fails ends it at 0, all passing
 * give 1. A result that is not there or does not open scores 0 (the agent's file); an
 * expected workbook that does not open is the task's fault (CheckError). Besides OSWorld's
 * XLSX, a CSV is read as one sheet named "Sheet1" (OSWorld's pandas.ExcelFile would refuse it).
 *
 *   sheet_name   the two workbooks' sheet names, in order, equal
 *   sheet_data   the two sheets' values equal as pandas.read_excel + DataFrame.equals see
 *                them: wholly empty rows dropped, trailing empty columns dropped, numbers
 *                rounded half-to-even to `precision` (4) digits, with `ignore_blanks`
 *                whitespace squeezed in text
 *   sheet_fuzzy  per cell of each range, the two cells as text (read_cell_value: a number is
 *                a Python float, "3.0"; an empty cell "None") normalized, then compared by
 *                includes / included_by / fuzzy_match (fuzz.ratio ≥ threshold, 85) / exact_match
 */
export function compareTable(result: unknown, expected: unknown, options: FuncOptions['compare_table']): CheckOutcome {
  if (!(result instanceof VmFile) || result.bytes === null) return { score: 0, detail: `${result instanceof VmFile ? result.path : 'the result table'} is not there` };
  let resultBook: Workbook;
  try {
    resultBook = readWorkbook(result.bytes);
  } catch (error) {
    return { score: 0, detail: `${result.path} does not open: ${(error as Error).message}` };
  }
  let expectedBook: Workbook | null = null;
  if (expected instanceof VmFile) {
    if (expected.bytes === null) throw new CheckError(`the expected table ${expected.path} is not there`);
    try {
      expectedBook = readWorkbook(expected.bytes);
    } catch (error) {
      throw new CheckError(`the expected table ${expected.path} does not open: ${(error as Error).message}`);
    }
  }
  const books = { result: resultBook, expected: expectedBook };
  for (const [i, raw] of options.rules.entries()) {
    const rule = TableRuleSchema.parse(raw);
    let outcome: CheckOutcome;
    try {
      outcome = applyRule(rule, books);
    } catch (error) {
      if (error instanceof WorkbookError) return { score: 0, detail: `rule ${i} (${rule.type}): ${error.message}` };
      throw error;
    }
    if (outcome.score === 0) return { score: 0, detail: `rule ${i} (${rule.type}): ${outcome.detail}` };
  }
  return { score: 1, detail: `all ${options.rules.length} table rules hold` };
}

interface Books {
  result: Workbook;
  expected: Workbook | null;
}

function applyRule(rule: TableRule, books: Books): CheckOutcome {
  switch (rule.type) {
    case 'sheet_name': {
      const a = books.result.names;
      const b = books.expected?.names ?? null;
      const same = b !== null && a.length === b.length && a.every((n, i) => n === b[i]);
      return same ? { score: 1, detail: 'same sheet names' } : { score: 0, detail: `sheet names ${JSON.stringify(a)}, ${JSON.stringify(b)} expected` };
    }
    case 'sheet_data': {
      const first = sheetOf(rule.sheet_idx0, books);
      if (!first.sheet) return { score: 0, detail: `sheet ${JSON.stringify(rule.sheet_idx0)} is not in the ${first.side} workbook` };
      const second = sheetOf(rule.sheet_idx1, books);
      if (!second.sheet) {
        if (second.side === 'expected') throw new CheckError(`sheet ${JSON.stringify(rule.sheet_idx1)} is not in the expected workbook`);
        return { score: 0, detail: `sheet ${JSON.stringify(rule.sheet_idx1)} is not in the result workbook` };
      }
      const a = frame(first.sheet, rule.precision ?? 4, rule.ignore_blanks ?? false);
      const b = frame(second.sheet, rule.precision ?? 4, rule.ignore_blanks ?? false);
      return compareFrames(a, b);
    }
    case 'sheet_fuzzy': {
      const first = sheetOf(rule.sheet_idx0, books);
      const second = sheetOf(rule.sheet_idx1, books);
      for (const range of rule.rules) {
        for (const ref of range.range.flatMap(cellsOf)) {
          const a = cellText(first.sheet, ref);
          const b = cellText(second.sheet, ref);
          if (!fuzzyCellMatch(a, b, range)) return { score: 0, detail: `${ref}: ${JSON.stringify(a)} vs ${JSON.stringify(b)} (${range.type})` };
        }
      }
      return { score: 1, detail: 'every fuzzy range matches' };
    }
    default:
      return assertNever(rule, 'table rule');
  }
}

/** table.py _parse_sheet_idx: 0 / RI0 / RNname → the result workbook, EI0 / ENname → the expected one. */
function sheetOf(index: SheetIndex, books: Books): { side: 'result' | 'expected'; sheet: Sheet | undefined } {
  const side: 'result' | 'expected' = typeof index === 'string' && index.startsWith('E') ? 'expected' : 'result';
  const book = side === 'result' ? books.result : books.expected;
  if (!book) throw new CheckError(`sheet index ${JSON.stringify(index)} names the expected workbook, but the task gives none`);
  const name = typeof index === 'number' ? book.names[index] : index.startsWith('RI') || index.startsWith('EI') ? book.names[Number(index.slice(2))] : index.slice(2);
  return { side, sheet: name === undefined ? undefined : book.sheet(name) };
}

/** The sheet as pandas sees it: rows with a value only, columns up to the last one with a value. */
function frame(sheet: Sheet, precision: number, ignoreBlanks: boolean): Array<Array<CellValue | null>> {
  const rowNumbers = [...sheet.rows.keys()].sort((a, b) => a - b);
  const width = Math.max(0, ...rowNumbers.map((r) => Math.max(...sheet.rows.get(r)!.keys())));
  return rowNumbers.map((r) => {
    const row = sheet.rows.get(r)!;
    return Array.from({ length: width }, (_, c) => {
      const value = row.get(c + 1);
      if (value === undefined) return null;
      if (typeof value === 'number') return roundHalfEven(value, precision);
      if (typeof value === 'string' && ignoreBlanks) return value.replace(/[\t\n]/g, ' ').trim().replace(/\s+/g, ' ');
      return value;
    });
  });
}

function compareFrames(a: Array<Array<CellValue | null>>, b: Array<Array<CellValue | null>>): CheckOutcome {
  const widthA = a[0]?.length ?? 0;
  const widthB = b[0]?.length ?? 0;
  if (a.length !== b.length || widthA !== widthB) return { score: 0, detail: `the sheets are ${a.length}×${widthA} and ${b.length}×${widthB}` };
  for (let r = 0; r < a.length; r++) {
    for (let c = 0; c < widthA; c++) {
      const x = a[r]![c] ?? null;
      const y = b[r]![c] ?? null;
      // pandas: True == 1 and 1 == 1.0 inside an object column; NaN (empty) equals NaN in DataFrame.equals.
      const same = x === y || ((typeof x === 'number' || typeof x === 'boolean') && (typeof y === 'number' || typeof y === 'boolean') && Number(x) === Number(y));
      if (!same) return { score: 0, detail: `data row ${r + 1}, column ${c + 1}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}` };
    }
  }
  return { score: 1, detail: `the sheets' ${a.length}×${widthA} values are equal` };
}

/** numpy's round: half to even on the scaled value (pandas DataFrame.round). */
export function roundHalfEven(value: number, digits: number): number {
  const scale = 10 ** digits;
  const scaled = value * scale;
  if (!Number.isFinite(scaled)) return value;
  const floor = Math.floor(scaled);
  const diff = scaled - floor;
  const rounded = diff > 0.5 ? floor + 1 : diff < 0.5 ? floor : floor % 2 === 0 ? floor : floor + 1;
  return rounded / scale;
}

/** "A1:B2" → A1, B1, A2, B2 (openpyxl's MultiCellRange cells, row by row). */
export function cellsOf(range: string): string[] {
  const [from, to = from] = range.split(':') as [string, string?];
  const a = cellAddress(from);
  const b = cellAddress(to);
  const out: string[] = [];
  for (let row = Math.min(a.row, b.row); row <= Math.max(a.row, b.row); row++) {
    for (let col = Math.min(a.col, b.col); col <= Math.max(a.col, b.col); col++) out.push(`${columnName(col)}${row}`);
  }
  return out;
}

function columnName(col: number): string {
  let name = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** utils.read_cell_value then str(): a number as a Python float ("3.0", "1e-05"), an empty cell "None". */
function cellText(sheet: Sheet | undefined, ref: string): string {
  const { col, row } = cellAddress(ref);
  const value = sheet?.rows.get(row)?.get(col);
  if (value === undefined) return 'None';
  if (typeof value === 'number') return pyFloat(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return value;
}

export function pyFloat(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e16)) {
    const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
    const sign = exponent.startsWith('-') ? '-' : '+';
    return `${mantissa}e${sign}${exponent.replace(/^[+-]/, '').padStart(2, '0')}`;
  }
  const text = String(value);
  return Number.isInteger(value) ? `${text}.0` : text;
}

/** table.py sheet_fuzzy's normalization, in its order: replacements, lstrip, rstrip, dropped characters, case. */
function fuzzyCellMatch(a: string, b: string, rule: FuzzyRangeRule): boolean {
  const normalize = (text: string) => {
    let v = text;
    for (const [from, to] of rule.normalization ?? []) v = v.split(from).join(to);
    if (rule.trim_leadings !== undefined) v = stripChars(v, rule.trim_leadings, 'start');
    if (rule.trim_trailings !== undefined) v = stripChars(v, rule.trim_trailings, 'end');
    if (rule.ignore_chars !== undefined) v = [...v].filter((ch) => !rule.ignore_chars!.includes(ch)).join('');
    if (rule.ignore_case) v = v.toLowerCase();
    return v;
  };
  const x = normalize(a);
  const y = normalize(b);
  switch (rule.type) {
    case 'includes':
      return x.includes(y);
    case 'included_by':
      return y.includes(x);
    case 'fuzzy_match':
      return fuzzRatio(x, y) >= (rule.threshold ?? 85);
    case 'exact_match':
      return x === y;
    default:
      return assertNever(rule.type, 'fuzzy rule');
  }
}

/** Python's str.lstrip(chars) / rstrip(chars): any of `chars` at that end goes ("" strips nothing). */
function stripChars(text: string, chars: string, side: 'start' | 'end'): string {
  const set = [...chars];
  const items = [...text];
  if (side === 'start') {
    let i = 0;
    while (i < items.length && set.includes(items[i]!)) i++;
    return items.slice(i).join('');
  }
  let j = items.length;
  while (j > 0 && set.includes(items[j - 1]!)) j--;
  return items.slice(0, j).join('');
}

