import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stronglyConnected } from './strongly-connected.js';

// No loops between folders under src/main (issue 29): with folders as nodes, an import
// from a file in folder A of a file in folder B is an edge A → B, and no chain of edges
// may come back. The file-level test (import-cycles.test.ts) cannot see these:
// grounding/element-context.ts imported runner/target.ts while runner/ imported
// grounding/ seven times, and no file imported itself back. A loop means a piece both
// folders need sits in one of them; it moves down to where both can import it.
//
// A folder and the folders inside it are one room: agent/index.ts imports agent/runner/
// and agent/runner/ imports agent/gate.ts; such edges (between a folder and its own
// ancestor) are not counted, the file-level test covers them. Type-only imports,
// re-exports and dynamic import() count: each is a dependency of the folder.

const SRC = path.resolve(import.meta.dirname, '../../src');
const MAIN = path.join(SRC, 'main');
const IMPORT = /(?:import|export)\s[^;]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gs;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** An edge between two folders, with one import that makes it (for the failure message). */
type FolderGraph = Map<string, Map<string, string>>;

/** Whether `a` and `b` are the same folder or one holds the other. */
function sameRoom(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

function addEdge(graph: FolderGraph, from: string, to: string, why: string): void {
  if (sameRoom(from, to)) return;
  const out = graph.get(from) ?? new Map<string, string>();
  if (!out.has(to)) out.set(to, why);
  graph.set(from, out);
}

/** The folder graph of every relative import between files under src/main. */
function folderGraph(): FolderGraph {
  const files = new Set(sourceFiles(SRC));
  const graph: FolderGraph = new Map();
  for (const file of files) {
    if (!file.startsWith(`${MAIN}/`)) continue;
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const base = path.resolve(path.dirname(file), (m[1] ?? m[2])!).replace(/\.js$/, '');
      const hit = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((c) => files.has(c));
      if (!hit?.startsWith(`${MAIN}/`)) continue;
      const from = path.relative(SRC, path.dirname(file));
      const to = path.relative(SRC, path.dirname(hit));
      addEdge(graph, from, to, `${path.relative(SRC, file)} imports ${path.relative(SRC, hit)}`);
    }
  }
  return graph;
}

/** The folder loops (strongly connected components of more than one folder), each with the imports that tie it. */
function loops(graph: FolderGraph): string[][] {
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((out) => [...out.keys()])]);
  return stronglyConnected(nodes, (v) => graph.get(v)?.keys() ?? []).map((component) => {
    const ties = component.flatMap((a) => [...(graph.get(a) ?? [])].filter(([b]) => component.includes(b)).map(([, why]) => why));
    return [...component, ...ties.sort()];
  });
}

const graphOf = (edges: Array<[string, string]>): FolderGraph => {
  const graph: FolderGraph = new Map();
  for (const [from, to] of edges) addEdge(graph, from, to, `${from} → ${to}`);
  return graph;
};

describe('folder graph of src/main', () => {
  it('has no loop between folders', () => {
    expect(loops(folderGraph())).toEqual([]);
  });

  it('sees the folders and their imports (a check that reads nothing cannot fail)', () => {
    const graph = folderGraph();
    expect(graph.get('main/agent/runner')?.has('main/agent/grounding')).toBe(true);
    expect(graph.get('main/cli')?.has('main/qa')).toBe(true);
  });
});

describe('how a folder loop is found', () => {
  it('finds a loop of two folders and of three, and names the imports', () => {
    const found = loops(
      graphOf([
        ['main/agent/runner', 'main/agent/grounding'],
        ['main/agent/grounding', 'main/agent/runner'],
        ['main/eval/run', 'main/eval/report'],
        ['main/eval/report', 'main/eval/task'],
        ['main/eval/task', 'main/eval/run'],
        ['main/cli', 'main/eval/run'],
      ]),
    );
    expect(found).toEqual([
      ['main/agent/grounding', 'main/agent/runner', 'main/agent/grounding → main/agent/runner', 'main/agent/runner → main/agent/grounding'],
      ['main/eval/report', 'main/eval/run', 'main/eval/task', 'main/eval/report → main/eval/task', 'main/eval/run → main/eval/report', 'main/eval/task → main/eval/run'],
    ]);
  });

  it('counts no edge between a folder and one inside it, and finds no loop in a chain', () => {
    expect(loops(graphOf([['main/agent', 'main/agent/runner'], ['main/agent/runner', 'main/agent']]))).toEqual([]);
    expect(loops(graphOf([['main/cli', 'main/qa'], ['main/qa', 'main/agent'], ['main/cli', 'main/agent']]))).toEqual([]);
  });

  it('tells a folder from a sibling whose name starts the same', () => {
    // main/qa-x is not inside main/qa: their edges count.
    expect(loops(graphOf([['main/qa', 'main/qa-x'], ['main/qa-x', 'main/qa']]))).toHaveLength(1);
  });
});
