import { build } from 'esbuild';
import path from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../e2e/support.js';

// `deskpilot --help` (and every command's parsing) loads only what the command line
// needs; each command loads its heavy modules when it runs. At load 8 on this machine,
// loading the provider SDKs, ws, yaml and the doctor at start-up cost 0.85 s of CPU for
// `--help`; with them loaded on use, 0.35 s (most of it Node itself and zod).
// The check is on the import graph, not on time: esbuild's metafile of the real CLI
// entry, walked along static imports only (dynamic `import()` is "on use").

/** npm packages the CLI's start-up may load statically: the parser and the schemas. */
const ALLOWED_AT_START = new Set(['commander', 'zod']);

it('starts without the SDKs, sharp, ws, yaml, nut.js, the server or the doctor', async () => {
  const result = await build({
    entryPoints: [path.join(REPO_ROOT, 'src/main/cli.ts')],
    absWorkingDir: REPO_ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    splitting: true,
    outdir: 'out/startup-imports-check',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = result.metafile.inputs;
  const packages = new Set<string>();
  const modules = new Set<string>();
  const walk = (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    for (const imported of inputs[file]!.imports) {
      if (imported.kind !== 'import-statement') continue;
      if (imported.external) {
        if (!imported.path.startsWith('node:')) packages.add(imported.path.split('/').slice(0, imported.path.startsWith('@') ? 2 : 1).join('/'));
      } else walk(imported.path);
    }
  };
  walk('src/main/cli.ts');
  expect([...packages].filter((p) => !ALLOWED_AT_START.has(p))).toEqual([]);
  // Our own heavy modules stay out of start-up too (small pure helpers such as
  // runner/choices.ts or os-control/display-env.ts are fine).
  const heavy = [...modules].filter((m) =>
    /^src\/(os-control\/(index|ocr\/|x11\/|nut)|main\/(server\/server\.ts|doctor\/|agent\/providers\/|agent\/skills\/|agent\/runner\.ts|agent\/runner\/loop\.ts|service\/))/.test(m),
  );
  expect(heavy).toEqual([]);
});
