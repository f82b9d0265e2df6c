import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYERS, layerOf } from '../../eslint-rules/layers.js';
import { readLayerTable, type LayerNames } from './layer-doc.js';

// Issue 29 item 9: docs/ARCHITECTURE.md's layer table says what eslint-rules/layers.js
// enforces — every layer in one row, each with exactly its allowed imports, the files
// and folders it names inside that layer. A change to either alone fails here.
const ROOT = path.resolve(import.meta.dirname, '../..');
const known: LayerNames = { names: new Set(LAYERS.map((l) => l.name)), layerOfPath: (p) => layerOf(p)?.name };
const rows = readLayerTable(readFileSync(path.join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8'), known);

describe("ARCHITECTURE.md's layer table is eslint-rules/layers.js's", () => {
  it('names every layer once, and no other', () => {
    const named = rows.flatMap((r) => r.layers);
    expect([...named].sort()).toEqual(LAYERS.map((l) => l.name).sort());
  });

  it('gives each layer exactly the imports the lint rule allows', () => {
    const wrong = rows.flatMap((r) =>
      r.layers.flatMap((name) => {
        const allowed = LAYERS.find((l) => l.name === name)!.may;
        return [...allowed].sort().join(',') === [...r.may].sort().join(',') ? [] : [`line ${r.line} ${name}: doc says [${r.may.join(', ')}], lint allows [${allowed.join(', ')}]`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('the files and folders a row names are that layer’s paths', () => {
    const wrong = rows.flatMap((r) => r.paths.filter((p) => !r.layers.some((name) => LAYERS.find((l) => l.name === name)!.paths.includes(p))).map((p) => `line ${r.line}: ${p}`));
    expect(wrong).toEqual([]);
    // A layer of single files is named by all of them (the paths row).
    for (const layer of LAYERS.filter((l) => l.paths.every((p) => p.endsWith('.ts')) && l.paths.length > 1)) {
      expect(rows.find((r) => r.layers.includes(layer.name))!.paths.sort()).toEqual([...layer.paths].sort());
    }
  });
});

describe('how the table is read', () => {
  const names: LayerNames = { names: new Set(['shared', 'paths', 'os', 'agent', 'cli']), layerOfPath: (p) => (p === 'src/main/paths.ts' ? 'paths' : undefined) };
  const table = (...body: string[]) => ['intro', '', '| layer | may import |', '|---|---|', ...body, '', 'after'].join('\n');

  it('reads names, files, "nothing of ours", "only", "the above and" and bracketed notes', () => {
    const read = readLayerTable(
      table(
        '| `shared` | nothing of ours |',
        '| `main/paths.ts` | shared |',
        '| `os` (`src/os/`, the desktop) | shared only |',
        '| `agent` | the above and os (not cli) |',
        '| `cli` | the above, paths and agent |',
      ),
      names,
    );
    expect(read.map((r) => [r.layers, r.may])).toEqual([
      [['shared'], []],
      [['paths'], ['shared']],
      [['os'], ['shared']],
      [['agent'], ['shared', 'os']],
      [['cli'], ['shared', 'os', 'paths', 'agent']],
    ]);
    expect(read[1]!.paths).toEqual(['src/main/paths.ts']);
    expect(read[2]!.paths).toEqual(['src/os/']);
  });

  it('refuses a name that is no layer, on either side, and a table that is not there', () => {
    expect(() => readLayerTable(table('| `shared` | nothing of ours |', '| `agnet` | shared |'), names)).toThrow(/`agnet` is neither a layer/);
    expect(() => readLayerTable(table('| `agent` | shared, sessions |'), names)).toThrow(/"sessions" is not a layer/);
    expect(() => readLayerTable('no table here', names)).toThrow(/no "\| layer \| may import \|" table/);
  });
});
