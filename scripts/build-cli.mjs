// The CLI bundle, one esbuild call for both of its users:
//   - `npm run build:cli` → out/cli, what the npm package ships (bin/deskpilot.js runs it);
//   - the tests' global setup (test/harness/cli-build.global-setup.ts) → out/cli-test-<id>,
//     a folder of that vitest run's own, so every `deskpilot` a test spawns runs the shipped
//     bundle (~0.3 s to start against ~1.5 s through tsx on an idle machine; 2.6 s against
//     8 s at load 23) and a parallel run rebuilding out/cli never pulls chunks from under it.
//
//   node scripts/build-cli.mjs [outdir]        (default out/cli)
/* global process */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Bundles src/main/cli.ts into `outdir` (emptied first); resolves when the files are written. */
export async function buildCli(outdir) {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: [path.join(root, 'src', 'main', 'cli.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    splitting: true,
    outdir,
    target: 'node20',
    logLevel: 'warning',
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCli(path.resolve(root, process.argv[2] ?? path.join('out', 'cli')));
}
