#!/usr/bin/env node
/* global URL, process */
// The `deskpilot` command. Runs the built CLI (out/cli/cli.js, `npm run build:cli`) when
// it exists and is fresh; otherwise the TypeScript sources through tsx, so `npx deskpilot …`
// works right after `npm ci` and a stale build is never run by mistake. "Fresh": no file
// under src/ (when the checkout has one) is newer than the build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// DESKPILOT_CLI_DIR: another build of the same bundle (scripts/build-cli.mjs), which the tests'
// global setup makes once per run in a folder of its own; held to the same freshness rule.
const built = path.join(process.env.DESKPILOT_CLI_DIR || path.join(root, 'out', 'cli'), 'cli.js');

function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function freshBuild() {
  if (process.env.DESKPILOT_FROM_SOURCE === '1' || !existsSync(built)) return false;
  const src = path.join(root, 'src');
  if (!existsSync(src)) return true; // an installed package: the build is all there is
  return statSync(built).mtimeMs >= newestUnder(src);
}

let entry;
if (freshBuild()) {
  entry = pathToFileURL(built).href;
} else {
  const { register } = await import('tsx/esm/api');
  register();
  entry = pathToFileURL(path.join(root, 'src', 'main', 'cli.ts')).href;
}
const { main } = await import(entry);
try {
  await main(process.argv);
} catch (error) {
  // A bug, not a usage error: exit-codes.ts `internal`.
  process.stderr.write(`deskpilot: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 7;
}
