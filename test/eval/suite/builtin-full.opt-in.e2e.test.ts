/**
 * Opt-in (`npm run test:opt-in`; CI leaves it out, see vitest.config.ts): the whole built-in
 * suite both ways through the real CLI, each task on its own private virtual desktop —
 *
 *   - `--reference --workers 2`: all 32 reference solutions, replayed without a model, pass
 *     their checkers (the infeasible ones by the claim a correct agent makes, no action);
 *   - `--anti-reference --workers 2`: all 32 wrong end states are failed by their checkers.
 *
 * CI runs every anti-reference and the `--set ci` references (builtin-suite.e2e.test.ts),
 * because a reference replay costs ~20–90 s on two busy cores: the 32 took ~10 min of wall
 * time on 2 desktops.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePrograms } from '../../harness/requirements.js';
import { runCli, tempHome } from '../../e2e/support.js';
import { resolveSuite } from '../../../src/main/eval/suite/suite-dir.js';

const home = tempHome('deskpilot-eval-full-');
const env = () => ({ ...process.env, DESKPILOT_HOME: home.home });
const suite = resolveSuite('builtin');
const ids = suite.files.map((f) => path.basename(f, '.json')).sort();

interface Row {
  id: string;
  status: string;
  reason: string;
  claim: string;
}
const rows = (dir: string) => (JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as { results: Row[] }).results;

async function evalAll(mode: '--reference' | '--anti-reference', expected: 'passed' | 'failed'): Promise<Row[]> {
  const outDir = path.join(home.home, mode.slice(2));
  const run = runCli(['eval', 'builtin', mode, '--workers', '2', '--out-dir', outDir], env());
  expect((await run.exit).code, run.stdout() + run.stderr()).toBe(0);
  const results = rows(outDir);
  expect(results.map((r) => r.id).sort()).toEqual(ids);
  for (const r of results) expect(r.status, `${r.id}: ${r.reason}`).toBe(expected);
  return results;
}

beforeAll(() => {
  requirePrograms(['Xvfb', 'openbox', 'dbus-daemon', 'xdotool', 'xterm', 'mousepad', 'gedit', 'gnome-calculator', 'chromium', 'gtk3-widget-factory', 'thunar', 'import', 'python3']);
});

afterAll(() => home.cleanup());

describe('deskpilot eval builtin, every task (opt-in)', () => {
  it('--reference: all 32 references pass their checkers', async () => {
    const results = await evalAll('--reference', 'passed');
    for (const r of results.filter((x) => x.id.startsWith('infeasible-'))) expect(r.claim, r.id).toBe('infeasible');
  }, 2_400_000);

  it('--anti-reference: all 32 wrong end states fail their checkers', async () => {
    await evalAll('--anti-reference', 'failed');
  }, 900_000);
});
