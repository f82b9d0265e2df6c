import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Which test files start a display (an X server): found in their syntax, not their
 * names. A file starts one when it calls a starter, directly or through a test-side
 * helper that does (transitively): the harness's `startXvfb`, the product's
 * `startVirtualDisplay` or `runQaPool` (one virtual desktop per worker), a spawn of
 * `Xvfb` or `xvfb-run`, or the CLI given `--virtual-display` or `--workers` as an
 * argument of its own.
 */

export const DISPLAY_STARTERS = ['startXvfb', 'startVirtualDisplay', 'runQaPool'] as const;
const DISPLAY_PROGRAMS = new Set(['Xvfb', 'xvfb-run']);
const DISPLAY_FLAGS = new Set(['--virtual-display', '--workers']);

export interface SourceFile {
  /** Path relative to the repository, with forward slashes. */
  file: string;
  text: string;
}

/** What one file's code does: the names it calls and whether it starts a display itself; per top-level function, the same. */
interface Facts {
  calls: Set<string>;
  direct: boolean;
  functions: Map<string, { calls: Set<string>; direct: boolean; exported: boolean }>;
}

/** Calls that start a program named by their first argument. */
const SPAWNERS = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync', 'fork', 'execa']);
const exported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

function factsOf(source: SourceFile): Facts {
  const sf = ts.createSourceFile(source.file, source.text, ts.ScriptTarget.Latest, true, source.file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const scan = (root: ts.Node) => {
    const calls = new Set<string>();
    let direct = false;
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const callee = node.expression;
        const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
        if (name) calls.add(name);
        const first = node.arguments?.[0];
        if (name && SPAWNERS.has(name) && first && ts.isStringLiteralLike(first) && DISPLAY_PROGRAMS.has(first.text)) direct = true;
      }
      // '--workers' or '--virtual-display' as an argument of its own (not inside a sentence).
      if (ts.isStringLiteralLike(node) && DISPLAY_FLAGS.has(node.text) && !ts.isImportDeclaration(node.parent)) direct = true;
      ts.forEachChild(node, visit);
    };
    visit(root);
    return { calls, direct };
  };
  const functions = new Map<string, { calls: Set<string>; direct: boolean; exported: boolean }>();
  for (const statement of sf.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && statement.body) functions.set(statement.name.text, { ...scan(statement.body), exported: exported(statement) });
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))) functions.set(d.name.text, { ...scan(d.initializer), exported: exported(statement) });
      }
    }
  }
  return { ...scan(sf), functions };
}

/**
 * The names that start a display: the starters, and every exported helper function (in
 * a file that is not a test) that calls one, itself or through a function of its own
 * file, to a fixpoint. Only exported names count across files: xvfb.ts's private
 * `startServer` is not serve's.
 */
export function displayStarterNames(helpers: SourceFile[]): Set<string> {
  const starters = new Set<string>(DISPLAY_STARTERS);
  const all = helpers.map(factsOf);
  const local = all.map(() => new Set<string>());
  for (let grew = true; grew; ) {
    grew = false;
    all.forEach((facts, i) => {
      const mine = local[i]!;
      for (const [name, fn] of facts.functions) {
        if (mine.has(name)) continue;
        if (fn.direct || [...fn.calls].some((c) => starters.has(c) || mine.has(c))) {
          mine.add(name);
          if (fn.exported) starters.add(name);
          grew = true;
        }
      }
    });
  }
  return starters;
}

export function startsDisplay(test: SourceFile, starters: ReadonlySet<string>): boolean {
  const facts = factsOf(test);
  return facts.direct || [...facts.calls].some((c) => starters.has(c));
}

export const isTestFile = (file: string) => /\.test\.tsx?$/.test(file);
/** `.desktop` and `.e2e` say a test starts a display; `.fast` says it does not. */
export const namedForDisplay = (file: string) => /\.(desktop|e2e)\.test\.tsx?$/.test(file);

/** Every .ts/.tsx file under test/ (relative to `root`). */
export function testTree(root: string): SourceFile[] {
  return sourceTree(root, 'test');
}

/** Every .ts/.tsx file below `folder` (relative to `root`), with its text. */
export function sourceTree(root: string, folder: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (/\.tsx?$/.test(entry.name)) out.push({ file: child, text: readFileSync(path.join(root, child), 'utf8') });
    }
  };
  walk(folder);
  return out;
}
