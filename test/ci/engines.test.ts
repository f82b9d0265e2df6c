/**
 * package.json's `engines.node` must be at least what every installed package asks
 * for: the README said 20.10+ while vite 8 and eslint 10 need 20.19+, and npm only warns
 * (EBADENGINE) so nothing failed until a tool crashed on an older Node.
 *
 * Ranges in the wild here are unions of `^X.Y.Z` / `>=X.Y.Z` / `X.Y.Z`; for each major
 * line we compare the lowest version a range allows on it.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

type Version = [number, number, number];

function parseVersion(text: string): Version | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : undefined;
}

const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** The lowest version of `major` that `range` allows, or undefined when it allows none (or the range is not one we can read). */
export function lowestOnMajor(range: string, major: number): Version | undefined {
  let best: Version | undefined;
  for (const part of range.split('||').map((p) => p.trim())) {
    let low: Version | undefined;
    if (part === '*' || part === '') low = [major, 0, 0];
    else if (part.startsWith('^')) {
      const v = parseVersion(part.slice(1));
      if (v && v[0] === major) low = v;
    } else if (/^>=\s*/.test(part) && !/\s<|\s\S*</.test(part)) {
      const v = parseVersion(part.replace(/^>=\s*/, ''));
      if (v) low = v[0] < major ? [major, 0, 0] : v[0] === major ? v : undefined;
    } else {
      const v = parseVersion(part);
      if (v && /^\d/.test(part) && v[0] === major) low = v;
    }
    if (low && (!best || compare(low, best) < 0)) best = low;
  }
  return best;
}

/** Every package.json under node_modules (nested ones too), with its engines.node. */
function installedEngines(root: string): Array<{ name: string; node: string; file: string }> {
  const out: Array<{ name: string; node: string; file: string }> = [];
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const pkgDir = path.join(dir, entry.name);
      if (entry.name.startsWith('@')) {
        visit(pkgDir);
        continue;
      }
      const file = path.join(pkgDir, 'package.json');
      if (existsSync(file)) {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; engines?: { node?: unknown } };
        if (pkg.name && typeof pkg.engines?.node === 'string') out.push({ name: pkg.name, node: pkg.engines.node, file });
      }
      visit(path.join(pkgDir, 'node_modules'));
    }
  };
  visit(path.join(root, 'node_modules'));
  return out;
}

/**
 * Needed only by `npm run dist` (electron-builder rebuilding native modules), never by
 * `npm test`, `npm start` or the CLI: they ask for Node 22.12+, the README says so.
 */
const PACKAGING_ONLY = new Set(['@electron/rebuild', 'node-abi']);

const root = path.resolve(import.meta.dirname, '../..');
const ours = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

describe('engines.node', () => {
  it('reads the range forms used in node_modules', () => {
    expect(lowestOnMajor('^20.19.0 || ^22.13.0 || >=24', 20)).toEqual([20, 19, 0]);
    expect(lowestOnMajor('^20.19.0 || ^22.13.0 || >=24', 22)).toEqual([22, 13, 0]);
    expect(lowestOnMajor('^20.19.0 || ^22.13.0 || >=24', 23)).toBeUndefined();
    expect(lowestOnMajor('>=18', 20)).toEqual([20, 0, 0]);
    expect(lowestOnMajor('>=22.12.0', 20)).toBeUndefined();
  });

  for (const major of [20, 22]) {
    it(`on Node ${major}, asks at least what every installed package asks`, () => {
      const mine = lowestOnMajor(ours, major);
      expect(mine, `package.json engines "${ours}" allows no Node ${major}`).toBeDefined();
      const tooLow = installedEngines(root)
        .filter((p) => !PACKAGING_ONLY.has(p.name))
        .filter((p) => {
          const theirs = lowestOnMajor(p.node, major);
          // A package that allows no version of this major while we do: we promise too much.
          return theirs === undefined ? !/^\s*[<=]/.test(p.node) && parseable(p.node) : compare(mine!, theirs) < 0;
        })
        .map((p) => `${p.name} needs "${p.node}"`);
      expect(tooLow).toEqual([]);
    });
  }

  it('the README names the same minimum', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const v20 = lowestOnMajor(ours, 20)!;
    expect(readme).toContain(`Node.js ${v20[0]}.${v20[1]}+`);
  });
});

/** Ranges we can judge: unions of ^, >= and plain versions (others are ignored, and there are none today with a Node 20+ bound). */
function parseable(range: string): boolean {
  return range.split('||').every((p) => /^\s*(\^|>=\s*)?v?\d+(\.\d+){0,2}\s*$/.test(p) || p.trim() === '*');
}
