/**
 * Reads docs/ARCHITECTURE.md's layer table (issue 29 item 9) so a test can hold it to
 * eslint-rules/layers.js. A row: `| <layers> | <may import> |`.
 *
 * - Left: the layers, in backticks — a layer's name (`agent`) or one of its files
 *   (`main/paths.ts`, read as src/main/paths.ts). Backticked `src/…` paths in brackets
 *   are the layer's folders and must be among its paths; other bracketed text is a note.
 * - Right, brackets dropped: `nothing of ours`; `<names> only`; `the above and <names>`
 *   (the row above's list plus the names); or a plain list of names. Lists are separated
 *   by commas and `and`.
 */

export interface DocLayerRow {
  /** Layer names the row is about. */
  layers: string[];
  /** src/ paths the row names for them (files on the left, folders in brackets). */
  paths: string[];
  may: string[];
  line: number;
}

export interface LayerNames {
  names: ReadonlySet<string>;
  /** The layer a src/ path belongs to. */
  layerOfPath: (path: string) => string | undefined;
}

const HEADER = /^\|\s*layer\s*\|\s*may import\s*\|\s*$/;

export function readLayerTable(markdown: string, known: LayerNames): DocLayerRow[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => HEADER.test(l));
  if (start < 0) throw new Error('no "| layer | may import |" table');
  const rows: DocLayerRow[] = [];
  for (let i = start + 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    const cells = lines[i]!.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length !== 2) throw new Error(`line ${i + 1}: a row has two cells, this one ${cells.length}`);
    const [left, right] = cells as [string, string];
    const { layers, paths } = readLeft(left, known, i + 1);
    rows.push({ layers, paths, may: readRight(right, rows.at(-1), known, i + 1), line: i + 1 });
  }
  return rows;
}

const withoutBrackets = (text: string) => text.replace(/\([^)]*\)/g, ' ');
const ticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

function readLeft(cell: string, known: LayerNames, line: number): { layers: string[]; paths: string[] } {
  const layers: string[] = [];
  const paths: string[] = [];
  for (const token of ticked(withoutBrackets(cell))) {
    if (known.names.has(token)) {
      layers.push(token);
      continue;
    }
    const layer = known.layerOfPath(`src/${token}`);
    if (!layer) throw new Error(`line ${line}: \`${token}\` is neither a layer nor a file of one`);
    if (!layers.includes(layer)) layers.push(layer);
    paths.push(`src/${token}`);
  }
  for (const bracket of cell.match(/\([^)]*\)/g) ?? []) paths.push(...ticked(bracket).filter((t) => t.startsWith('src/')));
  if (!layers.length) throw new Error(`line ${line}: no layer named in "${cell}"`);
  return { layers, paths };
}

function readRight(cell: string, above: DocLayerRow | undefined, known: LayerNames, line: number): string[] {
  const text = withoutBrackets(cell).replace(/\s+/g, ' ').trim();
  if (text === 'nothing of ours') return [];
  const list = (words: string) =>
    words
      .split(/,|\band\b/)
      .map((w) => w.trim())
      .filter(Boolean)
      .map((w) => {
        if (!known.names.has(w)) throw new Error(`line ${line}: "${w}" is not a layer`);
        return w;
      });
  const only = /^(.*) only$/.exec(text);
  if (only) return list(only[1]!);
  const more = /^the above(?:,| and)\s*(.*)$/.exec(text);
  if (more) {
    if (!above) throw new Error(`line ${line}: "the above" in the first row`);
    return [...new Set([...above.may, ...list(more[1]!)])];
  }
  return list(text);
}
