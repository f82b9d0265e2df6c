#!/usr/bin/env node
/* global URL, process */
// The `deskpilot` command. Runs the built CLI from out/ when a build exists; in a dev
// checkout without a build it runs the TypeScript sources through tsx, so
// `npx deskpilot …` works right after `npm ci`.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const built = ['../out/cli/cli.js', '../out/main/cli.js']
  .map((p) => fileURLToPath(new URL(p, import.meta.url)))
  .find((p) => existsSync(p));

let entry;
if (built) {
  entry = pathToFileURL(built).href;
} else {
  const { register } = await import('tsx/esm/api');
  register();
  entry = new URL('../src/main/cli.ts', import.meta.url).href;
}
const { main } = await import(entry);
await main(process.argv);
