/**
 * Child process for c07-private-home.test.ts, started under `umask 000`: does what a
 * session does to DESKPILOT_HOME (load and save config, a run with a screenshot and
 * events, resume it, export it into the home) and exits.
 */
import path from 'node:path';
import { loadConfig, saveConfig } from '../../src/main/config/index.js';
import { exportRun } from '../../src/main/sessions/export/index.js';
import { createRunLog, openRunLog } from '../../src/main/sessions/run-log.js';
import { makeScreenshot, observationRecord } from '../sessions/fixture.js';

const home = process.argv[2]!;
const config = await loadConfig(home);
await saveConfig(config, home);
const log = await createRunLog({ home });
const image = await log.writeFile('shots/0.png', await makeScreenshot(0));
log.append({ type: 'run_started', task: 'private', provider: 'anthropic', model: 'm', policy: 'ask', limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 }, skills: [], labels: {} });
log.append({ type: 'observation', step: 0, observation: observationRecord('o0'), image, thumb: image, settleMs: 0 });
await log.close();
const again = await openRunLog(log.dir);
await again.writeFile('shots/1.png', await makeScreenshot(1));
again.append({ type: 'state', state: 'running', reason: '' });
await again.close();
await exportRun(log.dir, 'md', path.join(home, 'exports', 'run.md'));
await exportRun(log.dir, 'html', path.join(log.dir, 'report.html'));
process.stdout.write('done\n');
