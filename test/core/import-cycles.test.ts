import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stronglyConnected } from './strongly-connected.js';

// No import cycles in src/ (type-only imports included): a cycle means two files are
// one idea split in two, or a lower file reaching up (issue 15 item 9: runner.ts and
// runner/deps.ts imported each other). Tarjan's strongly connected components over
// every relative import and re-export.

const SRC = path.resolve(__dirname, '../../src');
const IMPORT = /(?:import|export)\s[^;]*?from\s+['"](\.[^'"]+)['"]/gs;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

function importGraph(): Map<string, string[]> {
  const files = new Set(sourceFiles(SRC));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const base = path.resolve(path.dirname(file), m[1]!).replace(/\.js$/, '');
      const hit = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((c) => files.has(c));
      if (hit) targets.push(hit);
    }
    graph.set(file, targets);
  }
  return graph;
}

function cycles(graph: Map<string, string[]>): string[][] {
  return stronglyConnected(graph.keys(), (v) => graph.get(v) ?? []).map((component) => component.map((file) => path.relative(SRC, file)).sort());
}

describe('import graph of src/', () => {
  it('has no cycles', () => {
    expect(cycles(importGraph())).toEqual([]);
  });

  it('the check finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph).map((c) => c.length)).toEqual([3]);
  });
});
