import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** What a package.json says that matters here. */
export interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/**
 * The installed packages a set of bare imports needs, as `name@version`: the packages
 * themselves and, through each package.json's dependencies, optionalDependencies and
 * (installed) peerDependencies, everything they can load, resolved the way Node does
 * (./node_modules, then each parent folder's). Versions, not folders: a packager may
 * hoist them differently (electron-builder does), which `unresolvedIn` judges.
 */
export function installedClosure(root: string, names: Iterable<string>): Set<string> {
  const found = new Set<string>();
  const seen = new Set<string>();
  const visit = (fromDir: string, name: string, optional: boolean) => {
    const dir = resolveFrom((d) => existsSync(path.join(root, d, 'package.json')), path.relative(root, fromDir).split(path.sep).join('/'), name);
    if (dir === null) {
      if (optional) return;
      throw new Error(`${name} (needed from ${path.relative(root, fromDir) || '.'}) is not installed`);
    }
    if (seen.has(dir)) return;
    seen.add(dir);
    const manifest = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8')) as Manifest;
    found.add(`${manifest.name}@${manifest.version}`);
    for (const [dep, optionalDep] of dependencyNames(manifest)) visit(path.join(root, dir), dep, optionalDep);
  };
  for (const name of names) visit(root, name, false);
  return found;
}

/** Each dependency name of a manifest, with whether it may be absent (optional or peer). */
function dependencyNames(m: Manifest): [string, boolean][] {
  return [
    ...Object.keys(m.dependencies ?? {}).map((d): [string, boolean] => [d, false]),
    ...Object.keys(m.optionalDependencies ?? {}).map((d): [string, boolean] => [d, true]),
    ...Object.keys(m.peerDependencies ?? {}).map((d): [string, boolean] => [d, true]),
  ];
}

/** Node's lookup of package `name` from folder `from` (relative, '' = root): the first `…/node_modules/name` that exists. */
function resolveFrom(exists: (dir: string) => boolean, from: string, name: string): string | null {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (exists(candidate)) return candidate;
    if (!dir) return null;
    // Up one folder; from inside node_modules/x (or node_modules/@s/x) up past that node_modules.
    const parts = dir.split('/');
    parts.pop();
    if (parts.at(-1)?.startsWith('@')) parts.pop();
    if (parts.at(-1) === 'node_modules') parts.pop();
    dir = parts.join('/');
  }
}

/** The package folders in a list of shipped files (`…node_modules/name/package.json`). */
export function packageDirsIn(files: Iterable<string>): Set<string> {
  const dirs = new Set<string>();
  for (const file of files) {
    const m = /^((?:.*\/)?node_modules\/(?:@[^/]+\/)?[^/@][^/]*)\/package\.json$/.exec(file);
    if (m) dirs.add(m[1]!);
  }
  return dirs;
}

/**
 * What would fail to load in a shipped tree: each entry import from the root and each
 * required dependency of each shipped package, looked up as Node would among the
 * shipped folders. "from → name" per miss.
 */
export function unresolvedIn(shipped: Map<string, Manifest>, entries: Iterable<string>): string[] {
  const exists = (dir: string) => shipped.has(dir);
  const misses: string[] = [];
  for (const name of entries) if (resolveFrom(exists, '', name) === null) misses.push(`(app) → ${name}`);
  for (const [dir, manifest] of shipped) {
    for (const [dep, optional] of dependencyNames(manifest)) if (!optional && resolveFrom(exists, dir, dep) === null) misses.push(`${dir} → ${dep}`);
  }
  return misses;
}

const PACKAGE_NAME = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/;

/** Bare package names a built JavaScript folder imports (static `from '…'`, `import('…')`, `require('…')`), without node: built-ins. */
export function bareImportsOf(dir: string): Set<string> {
  const names = new Set<string>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(c|m)?js$/.test(entry.name)) {
        for (const spec of moduleSpecifiersIn(full)) {
          if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) continue;
          const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
          if (PACKAGE_NAME.test(name)) names.add(name);
        }
      }
    }
  };
  walk(dir);
  return names;
}

/**
 * The module names a JavaScript file loads — `import … from`, `export … from`, `import(…)`,
 * `require(…)` and `require.resolve(…)` with a literal name — read from TypeScript's syntax tree, so a sentence
 * in a comment or a string is not an import. A regex read settle.ts's comment
 * 'tell that from "done"' as a package `done`; ts.preProcessFile's light scanner missed
 * `x ??= import('dbus-next')` and 29 other packages of the built main process.
 */
function moduleSpecifiersIn(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const specs: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specs.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length >= 1 && ts.isStringLiteralLike(node.arguments[0]!)) {
      const callee = node.expression;
      // require.resolve('x') (any require the bundler renamed, e.g. require2): the code
      // harness hands QuickJS's files to its worker by path, so the package must ship.
      const resolves = ts.isPropertyAccessExpression(callee) && callee.name.text === 'resolve' && ts.isIdentifier(callee.expression) && /^_*require\d*$/.test(callee.expression.text);
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require') || resolves) specs.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specs;
}
