import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

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
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(SRC, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
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
