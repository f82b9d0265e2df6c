/**
 * Vitest global setup: the CLI bundle built once for this run, in out/cli-test-<id> (the
 * same depth as out/cli, so the bundle finds package.json, resources/ and out/web the way
 * the shipped one does), named to every test process through DESKPILOT_CLI_DIR.
 *
 * Why: ~300 `deskpilot` processes are spawned by the suite; through tsx each spent ~1.5 s
 * (idle) to ~8 s (load 23) compiling sources before its first line, the bundle 0.3–2.6 s.
 * bin/deskpilot.js still runs the sources whenever a file under src/ is newer than this
 * build, so an edit made during a run is never tested stale. Removed when the run ends.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// @ts-expect-error -- a plain ES module of the build (scripts/build-cli.mjs), no types of its own
import { buildCli } from '../../scripts/build-cli.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export default async function setup(): Promise<() => void> {
  const dir = path.join(root, 'out', `cli-test-${randomBytes(4).toString('hex')}`);
  await (buildCli as (outdir: string) => Promise<void>)(dir);
  process.env.DESKPILOT_CLI_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
