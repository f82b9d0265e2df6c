import { readZip } from './zip.js';

/**
 * A workbook as compare_table reads it: sheet names in order and, per sheet, the cell
 * values. From an XLSX (its workbook.xml, the workbook's relationships, sharedStrings.xml
 * and each worksheet's <c> cells: shared, inline and formula strings, numbers, booleans,
 * errors — formulas by their cached value, as pandas and openpyxl's data_only read them)
 * or from a CSV (one sheet, "Sheet1"). Styles are not read: a date stays its serial number
 * on both sides of a comparison.
 */
export type CellValue = string | number | boolean;
export interface Sheet {
  /** Row number (1-based) → column number (1-based) → value; empty cells absent. */
  rows: Map<number, Map<number, CellValue>>;
}
export interface Workbook {
  names: string[];
  sheet(name: string): Sheet | undefined;
}

export class WorkbookError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkbookError';
  }
}

// ── XML, the little of it a workbook needs ─────────────────────────────────────────────

type XmlToken = { kind: 'open'; name: string; attrs: Record<string, string>; selfClosing: boolean } | { kind: 'close'; name: string } | { kind: 'text'; text: string };

/** Element names without their namespace prefix ("x:sheet" → "sheet"). */
const local = (name: string) => name.slice(name.indexOf(':') + 1);

function* xmlTokens(xml: string): Generator<XmlToken> {
  const re = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
  for (const m of xml.matchAll(re)) {
    if (m[1] !== undefined) yield { kind: 'text', text: m[1] };
    else if (m[3] !== undefined) {
      if (m[2] === '/') yield { kind: 'close', name: local(m[3]) };
      else {
        const attrs: Record<string, string> = {};
        for (const a of (m[4] ?? '').matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs[local(a[1]!)] = decodeEntities(a[2] ?? a[3] ?? '');
        yield { kind: 'open', name: local(m[3]), attrs, selfClosing: m[5] === '/' };
      }
    } else if (m[6] !== undefined) yield { kind: 'text', text: decodeEntities(m[6]) };
  }
}

function decodeEntities(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    if (e === 'lt') return '<';
    if (e === 'gt') return '>';
    if (e === 'amp') return '&';
    if (e === 'quot') return '"';
    if (e === 'apos') return "'";
    return String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });
}

/** OOXML's escape of characters XML cannot carry: "_x000D_" is a carriage return. */
function decodeOoxml(text: string): string {
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

// ── XLSX ──────────────────────────────────────────────────────────────────────────────

/** "AB12" → column 28, row 12. */
export function cellAddress(ref: string): { col: number; row: number } {
  const m = /^([A-Za-z]{1,3})(\d+)$/.exec(ref);
  if (!m) throw new WorkbookError(`"${ref}" is not a cell address`);
  let col = 0;
  for (const ch of m[1]!.toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { col, row: Number(m[2]) };
}

export function readXlsx(data: Buffer): Workbook {
  let zip;
  try {
    zip = readZip(data);
  } catch (error) {
    throw new WorkbookError(`not an XLSX workbook: ${(error as Error).message}`);
  }
  const text = (name: string): string | undefined => zip.get(name)?.().toString('utf8');
  const workbookXml = text('xl/workbook.xml');
  if (workbookXml === undefined) throw new WorkbookError('not an XLSX workbook: no xl/workbook.xml');
  const targets = new Map<string, string>();
  for (const t of xmlTokens(text('xl/_rels/workbook.xml.rels') ?? '')) {
    if (t.kind === 'open' && t.name === 'Relationship' && t.attrs.Id && t.attrs.Target) targets.set(t.attrs.Id, t.attrs.Target);
  }
  const sheets: Array<{ name: string; part: string }> = [];
  for (const t of xmlTokens(workbookXml)) {
    if (t.kind === 'open' && t.name === 'sheet' && t.attrs.name !== undefined) {
      const target = targets.get(t.attrs.id ?? '') ?? '';
      sheets.push({ name: t.attrs.name, part: target.startsWith('/') ? target.slice(1) : `xl/${target}` });
    }
  }
  const shared = sharedStrings(text('xl/sharedStrings.xml') ?? '');
  const parsed = new Map<string, Sheet>();
  return {
    names: sheets.map((s) => s.name),
    sheet(name) {
      const found = sheets.find((s) => s.name === name);
      if (!found) return undefined;
      let sheet = parsed.get(name);
      if (!sheet) {
        const xml = text(found.part);
        if (xml === undefined) throw new WorkbookError(`sheet "${name}": its part ${found.part} is missing`);
        sheet = worksheet(xml, shared);
        parsed.set(name, sheet);
      }
      return sheet;
    },
  };
}

/** Each <si>'s text: its <t>, or its runs' <t>s joined; phonetic guides (<rPh>) left out. */
function sharedStrings(xml: string): string[] {
  const out: string[] = [];
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  for (const t of xmlTokens(xml)) {
    if (t.kind === 'open') {
      if (t.name === 'si') current = t.selfClosing ? (out.push(''), null) : '';
      else if (t.name === 'rPh' && !t.selfClosing) phonetic++;
      else if (t.name === 't' && !t.selfClosing) inText = true;
    } else if (t.kind === 'close') {
      if (t.name === 'si' && current !== null) {
        out.push(decodeOoxml(current));
        current = null;
      } else if (t.name === 'rPh') phonetic--;
      else if (t.name === 't') inText = false;
    } else if (inText && phonetic === 0 && current !== null) current += t.text;
  }
  return out;
}

function worksheet(xml: string, shared: string[]): Sheet {
  const rows = new Map<number, Map<number, CellValue>>();
  let rowNumber = 0;
  let col = 0;
  let cell: { ref: string | undefined; type: string; v: string | null; inline: string } | null = null;
  let reading: 'v' | 't' | null = null;
  const finish = () => {
    if (!cell) return;
    const pos = cell.ref ? cellAddress(cell.ref) : { col: col + 1, row: rowNumber };
    col = pos.col;
    const value = cellValue(cell.type, cell.v, cell.inline, shared);
    if (value !== null) {
      const row = rows.get(pos.row) ?? new Map<number, CellValue>();
      row.set(pos.col, value);
      rows.set(pos.row, row);
    }
    cell = null;
  };
  for (const t of xmlTokens(xml)) {
    if (t.kind === 'open') {
      if (t.name === 'row') {
        rowNumber = t.attrs.r ? Number(t.attrs.r) : rowNumber + 1;
        col = 0;
      } else if (t.name === 'c') {
        cell = { ref: t.attrs.r, type: t.attrs.t ?? 'n', v: null, inline: '' };
        if (t.selfClosing) finish();
      } else if (cell && (t.name === 'v' || t.name === 't') && !t.selfClosing) {
        reading = t.name;
        if (t.name === 'v') cell.v = '';
      }
    } else if (t.kind === 'close') {
      if (t.name === 'c') finish();
      else if (t.name === 'v' || t.name === 't') reading = null;
    } else if (cell && reading === 'v') cell.v += t.text;
    else if (cell && reading === 't') cell.inline += t.text;
  }
  return { rows };
}

function cellValue(type: string, v: string | null, inline: string, shared: string[]): CellValue | null {
  switch (type) {
    case 's': {
      const text = v === null ? undefined : shared[Number(v)];
      if (text === undefined) throw new WorkbookError(`shared string ${v} does not exist`);
      return text;
    }
    case 'inlineStr':
      return decodeOoxml(inline);
    case 'str':
    case 'e':
    case 'd':
      return v === null ? null : decodeOoxml(v);
    case 'b':
      return v === null ? null : v.trim() === '1';
    default: {
      if (v === null || v.trim() === '') return null;
      const n = Number(v);
      if (Number.isNaN(n)) throw new WorkbookError(`"${v}" is not a number`);
      return n;
    }
  }
}

// ── CSV ───────────────────────────────────────────────────────────────────────────────

/**
 * RFC 4180 CSV (quotes doubled inside quoted fields, CRLF or LF) as one sheet. A column
 * whose every non-empty value below the first row is a number holds numbers, as pandas'
 * read_csv infers a column's type; other columns keep their text.
 */
export function readCsv(data: Buffer): Workbook {
  const text = data.toString('utf8').replace(/^\uFEFF/, '');
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') field += text[++i];
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += ch;
  }
  if (quoted) throw new WorkbookError('a quoted CSV field is not closed');
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  const width = Math.max(0, ...records.map((r) => r.length));
  const numericCols = new Set<number>();
  for (let c = 0; c < width; c++) {
    const below = records.slice(1).map((r) => r[c] ?? '').filter((v) => v.trim() !== '');
    if (below.length > 0 && below.every(isNumberText)) numericCols.add(c);
  }
  const rows = new Map<number, Map<number, CellValue>>();
  records.forEach((r, i) => {
    const row = new Map<number, CellValue>();
    r.forEach((v, c) => {
      if (v === '') return;
      row.set(c + 1, i > 0 && numericCols.has(c) ? Number(v) : v);
    });
    if (row.size > 0) rows.set(i + 1, row);
  });
  const sheet: Sheet = { rows };
  return { names: ['Sheet1'], sheet: (name) => (name === 'Sheet1' ? sheet : undefined) };
}

const isNumberText = (v: string) => /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(v);

/** An XLSX by its ZIP signature, else CSV: the file's bytes decide, not its name. */
export function readWorkbook(data: Buffer): Workbook {
  return data.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) ? readXlsx(data) : readCsv(data);
}
