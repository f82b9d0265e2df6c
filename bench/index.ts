/**
 * `npm run bench`: runs every bench/*.bench.ts, one after another, each in its own Node
 * process (each starts its own Xvfb, and nut.js binds to one X display per process).
 * Nobody needs to edit this file to add a bench.
 *
 *   npm run bench                 all of them
 *   npm run bench -- os-control   only files whose name contains "os-control"
 *   npm run bench -- settle-input --runs 5 --cases chromium-type
 *                                 from the first option on, every argument goes to each bench
 *                                 (before, options were dropped and their values read as name filters)
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const firstOption = args.findIndex((a) => a.startsWith('-'));
const filters = firstOption < 0 ? args : args.slice(0, firstOption);
const options = firstOption < 0 ? [] : args.slice(firstOption);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

function runOne(file: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, file), ...options], { stdio: 'inherit', env: process.env });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(1));
  });
}

const failed: string[] = [];
for (const file of files) {
  process.stdout.write(`\n=== ${file} ===\n`);
  const started = Date.now();
  const code = await runOne(file);
  process.stdout.write(`=== ${file}: ${code === 0 ? 'done' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s ===\n`);
  if (code !== 0) failed.push(file);
}
if (files.length === 0) process.stdout.write(`no bench files matched ${filters.join(', ')}\n`);
if (failed.length) {
  process.stdout.write(`\nfailed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
