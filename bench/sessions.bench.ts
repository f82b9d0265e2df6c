/**
 * Sessions bench: a 1,000-step run on disk, then the operations a person waits for —
 * `sessions list` (with the per-run summary file, and rebuilding it from the log),
 * opening the run (reading and validating every event), listing 1,000 runs, and the
 * export of a long run. Each figure is a median, next to a baseline measured in the
 * same run (raw file reads / raw JSON.parse without validation).
 *
 *   npx tsx bench/sessions.bench.ts [--steps 1000] [--runs 1000] [--replay-steps 100]
 */
import { mkdtempSync, rmSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createRunLog } from '../src/main/sessions/run-log.js';
import { readRunLog } from '../src/main/sessions/reader.js';
import { listSessions } from '../src/main/sessions/history.js';
import { exportRun } from '../src/main/sessions/export/index.js';
import type { Action } from '../src/shared/actions.js';
import { medianOf, numberArg } from './lib/stats.js';

const ms = (v: number) => `${v.toFixed(1)} ms`;

async function writeRun(home: string, steps: number, runId?: string): Promise<{ dir: string; appendMs: number[] }> {
  const log = await createRunLog({ home, runId });
  const appendMs: number[] = [];
  const timed = (fn: () => void) => {
    const t = performance.now();
    fn();
    appendMs.push(performance.now() - t);
  };
  log.append({ type: 'run_started', task: 'bench task', provider: 'anthropic', model: 'bench', policy: 'auto', limits: { maxSteps: steps + 1, maxWallMs: 3_600_000, maxCostUsd: 100 }, skills: [], labels: {} });
  const png = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#556677' } }).png().toBuffer();
  for (let step = 0; step < steps; step += 1) {
    const image = await log.writeFile(`shots/${step}.png`, png);
    const observation = { id: `o${step}`, takenAt: Date.now(), display: { id: '0', name: '', bounds: { x: 0, y: 0, width: 1280, height: 800 }, scaleFactor: 1, primary: true }, capture: { width: 1280, height: 800 }, region: { x: 0, y: 0, width: 1280, height: 800 }, image: { width: 320, height: 200, format: 'png' as const } };
    const action: Action = { type: 'click', x: step % 320, y: step % 200, button: 'left', clicks: 1, modifiers: [] };
    timed(() => log.append({ type: 'observation', step, observation, image, thumb: image, settleMs: 10 }));
    timed(() => log.append({ type: 'model_text', step, text: `I will click at step ${step}. `.repeat(4), kind: 'text', assistant: { calls: [{ callId: `c${step}`, name: 'computer', input: { action: 'left_click', coordinate: [action.x, action.y] }, actions: [{ ok: true, action }] }] } }));
    timed(() => log.append({ type: 'action_proposed', step, proposalId: `p${step}`, action, observationId: `o${step}`, reasoning: 'bench', callId: `c${step}` }));
    timed(() => log.append({ type: 'approval_requested', proposalId: `p${step}`, decision: { verdict: 'allow', rule: 'mode:auto', reason: 'auto', humanOnly: false } }));
    timed(() => log.append({ type: 'action_executed', step, proposalId: `p${step}`, action, by: { kind: 'mode', detail: 'auto' }, ok: true, durationMs: 5 }));
    timed(() => log.append({ type: 'usage', step, stepUsage: { inputTokens: 1000, outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.001 }, total: { inputTokens: 1000 * (step + 1), outputTokens: 50 * (step + 1), cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.001 * (step + 1) } }));
    await log.sync();
  }
  log.append({ type: 'run_ended', status: 'done', summary: 'ok', steps, total: { inputTokens: 1000 * steps, outputTokens: 50 * steps, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.001 * steps } });
  await log.close();
  return { dir: log.dir, appendMs };
}

export async function runSessionsBench(): Promise<void> {
  const steps = numberArg('steps', 1000);
  const runs = numberArg('runs', 1000);
  const home = mkdtempSync(path.join(os.tmpdir(), 'dp-sessions-bench-'));
  try {
    const t0 = performance.now();
    const { dir, appendMs } = await writeRun(home, steps);
    const writeMs = performance.now() - t0;
    appendMs.sort((a, b) => a - b);
    const file = path.join(dir, 'events.jsonl');
    const lines = (await fsp.readFile(file, 'utf8')).split('\n').filter(Boolean).length;
    const bytes = (await fsp.stat(file)).size;
    console.log(`sessions bench: one run of ${steps} steps (${lines} events, ${(bytes / 1024).toFixed(0)} KiB log)`);
    console.log(`  write whole run (append + image file + fsync per step): ${ms(writeMs)} (${ms(writeMs / steps)} per step)`);
    console.log(`  append one event (validate + scrub + write): median ${(appendMs[Math.floor(appendMs.length / 2)]! * 1000).toFixed(0)} µs`);

    const rawRead = await medianOf(7, async () => (await fsp.readFile(file, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l)));
    const open = await medianOf(7, () => readRunLog(dir));
    console.log(`  open the run (read + validate every event): median ${ms(open)}; baseline raw read + JSON.parse ${ms(rawRead)}; ratio ${(open / rawRead).toFixed(1)}×`);

    const listCached = await medianOf(7, () => listSessions(home));
    const listRebuild = await medianOf(7, async () => {
      await fsp.rm(path.join(dir, 'summary.json'), { force: true });
      return listSessions(home);
    });
    console.log(`  sessions list (1 run of ${steps} steps): median ${ms(listCached)} with summary.json; ${ms(listRebuild)} rebuilding it from the log (${(listRebuild / listCached).toFixed(0)}× slower)`);

    for (let i = 0; i < runs - 1; i += 1) {
      const log = await createRunLog({ home, runId: `20200101-${String(i).padStart(6, '0')}-bnch` });
      log.append({ type: 'run_started', task: `small run ${i}`, provider: 'p', model: 'm', policy: 'auto', limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 }, skills: [], labels: {} });
      log.append({ type: 'run_ended', status: 'done', summary: '', steps: 0, total: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 } });
      await log.close();
    }
    const rawList = await medianOf(7, async () => {
      const names = await fsp.readdir(path.join(home, 'sessions'));
      return Promise.all(names.map((n) => fsp.readFile(path.join(home, 'sessions', n, 'summary.json'), 'utf8')));
    });
    const list1000 = await medianOf(7, () => listSessions(home));
    const search1000 = await medianOf(7, () => listSessions(home, { query: 'small run 77 status:done' }));
    console.log(`  sessions list (${runs} runs): median ${ms(list1000)}; search ${ms(search1000)}; baseline raw readdir + read every summary.json ${ms(rawList)}; ratio ${(list1000 / rawList).toFixed(1)}×`);

    const htmlMs = await medianOf(3, () => exportRun(dir, 'html', path.join(home, 'out.html')));
    const htmlBytes = (await fsp.stat(path.join(home, 'out.html'))).size;
    console.log(`  export HTML (${steps} steps, images inlined): median ${ms(htmlMs)}, ${(htmlBytes / 1024 / 1024).toFixed(1)} MiB`);
    const gifSteps = Math.min(steps, numberArg('replay-steps', 100));
    const { dir: shortDir } = await writeRun(home, gifSteps, '20190101-000000-gif0');
    const webpMs = await medianOf(3, () => exportRun(shortDir, 'webp', path.join(home, 'out.webp')));
    const gifMs = await medianOf(3, () => exportRun(shortDir, 'gif', path.join(home, 'out.gif')));
    const frames = await sharp(path.join(home, 'out.webp'), { animated: true }).metadata();
    console.log(`  replay of ${gifSteps} steps (${frames.pages} frames of ${frames.width}×${frames.pageHeight}): WebP median ${ms(webpMs)}, GIF median ${ms(gifMs)}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runSessionsBench();
}
