/**
 * How fast `deskpilot --help` answers: the built CLI (out/cli, `npm run build:cli`) and
 * the sources through tsx, against a bare `node -e 0` measured in the same run (the
 * machine's own start-up cost). The goal is < 300 ms for the built CLI on an idle machine;
 * on a busy one read the ratio to the bare start.
 *
 *   npm run bench -- cli-startup            (builds out/cli first)
 *   npm run bench -- cli-startup --runs 15
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { medianOf, numberArg } from './lib/stats.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'deskpilot.js');
const runs = numberArg('runs', 9);

execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: root, stdio: 'inherit' });

const timed = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
  medianOf(runs, async () => {
    const r = spawnSync(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr?.toString()}`);
  });

const bare = await timed(['-e', '0']);
const built = await timed([bin, '--help']);
const source = await timed([bin, '--help'], { ...process.env, DESKPILOT_FROM_SOURCE: '1' });

const load = loadavg()[0]!;
process.stdout.write(
  [
    `machine: ${cpus().length} cores, load average ${load.toFixed(2)}${load > cpus().length * 0.5 ? ' (busy: absolute times are inflated, read the ratios)' : ''}`,
    `node -e 0 (baseline)       median ${bare.toFixed(0)} ms over ${runs} runs`,
    `deskpilot --help, built     median ${built.toFixed(0)} ms  (${(built / bare).toFixed(2)}× baseline, +${(built - bare).toFixed(0)} ms)  goal < 300 ms`,
    `deskpilot --help, via tsx   median ${source.toFixed(0)} ms  (${(source / bare).toFixed(2)}× baseline)`,
    '',
  ].join('\n'),
);
