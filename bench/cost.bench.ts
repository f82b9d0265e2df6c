/**
 * Cost per step (issue 19): the 60-turn trajectory of test/harness/cost-trajectory.ts
 * run through `deskpilot run` (the real CLI, a child process) on a private 1920×1080
 * Xvfb with a full-screen xterm, against the fake model, which logs every request to a
 * JSONL file. Tokens are estimated from those requests (src/main/agent/cost:
 * images w·h/750, text chars/4, cache reads 0.1×, writes 1.25×, by where the requests'
 * cache_control breakpoints fall). Baselines, computed on the same trajectory in the
 * same run: the reference demo's two context policies (keep the 3 newest screenshots;
 * the Anthropic path, all screenshots with cache breakpoints).
 * Targets, for a dated-tool and a GA-toolset model: raw ≤ 0.8× keep-3, cost-weighted
 * ≤ 0.5× the Anthropic path; the prefix (tools, system) byte-stable across requests.
 *
 *   npm run bench -- cost
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { anthropicPrefix, estimateAnthropicRun, type RunEstimate } from '../src/main/agent/cost/token-estimate.js';
import { referenceBodies } from '../src/main/agent/cost/reference-policies.js';
import { startFakeModel } from '../test/harness/fake-model/index.js';
import { startXvfb } from '../test/harness/xvfb.js';
import { startXterm } from '../test/harness/native-apps.js';
import { TRAJECTORY_TURNS, trajectoryTurn, type ToolShape } from '../test/harness/cost-trajectory.js';

const SCREEN = { width: 1920, height: 1080 };
const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'deskpilot.js');
const MODELS: Array<{ model: string; shape: ToolShape; tool: string }> = [
  { model: 'claude-sonnet-4-6', shape: 'dated', tool: 'computer_20251124' },
  { model: 'claude-sonnet-5-5', shape: 'toolset', tool: 'computer_toolset_20260801' },
];

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const k = (n: number) => `${(n / 1000).toFixed(0)}k`.padStart(7);
function row(name: string, e: RunEstimate): string {
  const images = e.requests.reduce((s, r) => s + r.images, 0);
  return `  ${name.padEnd(44)} ${k(e.raw)} ${k(e.weighted)}   images ${String(images).padStart(5)}   reads ${k(e.cacheRead)} writes ${k(e.cacheWrite)}   conversation read from cache in ${(e.conversationHitRate * 100).toFixed(0)}% of requests`;
}

async function main() {
  console.log(`cost bench: ${TRAJECTORY_TURNS}-turn trajectory via \`deskpilot run\`, ${SCREEN.width}×${SCREEN.height} Xvfb + xterm, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const xvfb = await startXvfb({ ...SCREEN, windowManager: false });
  const xterm = await startXterm(xvfb, { cols: 250, rows: 66, x: 0, y: 0 });
  const scratch = mkdtempSync(path.join(tmpdir(), 'deskpilot-cost-bench-'));
  let failed = false;
  try {
    for (const { model, shape, tool } of MODELS) {
      const logFile = path.join(scratch, `${model}.jsonl`);
      const fake = await startFakeModel({ logFile, estimateUsage: true });
      for (let turn = 0; turn < TRAJECTORY_TURNS; turn++) fake.script((req) => trajectoryTurn(turn, shape, req));
      const home = mkdtempSync(path.join(scratch, 'home-'));
      // Nobody else uses this display: on a busy machine the takeover watch can mistake the
      // agent's own key press for a person's and pause the run (as bench/agent.bench.ts does).
      writeFileSync(path.join(home, 'config.json'), JSON.stringify({ takeover: 'ignore' }));
      const run = await runCli(['run', 'Type the twenty commands into the terminal and check their output.', '--provider', 'anthropic', '--model', model, '--yes', '--json', '--max-steps', String(TRAJECTORY_TURNS + 5)], {
        ...xvfb.env,
        DESKPILOT_HOME: home,
        ANTHROPIC_API_KEY: 'sk-ant-bench',
        ANTHROPIC_BASE_URL: fake.anthropicBaseUrl,
      });
      await fake.close();
      if (run.code !== 0) throw new Error(`deskpilot run (${model}) exited ${run.code}: ${run.stderr.slice(-2000)}`);
      const bodies = readFileSync(logFile, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { body: unknown }).body);
      const ours = estimateAnthropicRun(bodies);
      const keep3 = estimateAnthropicRun(referenceBodies(bodies, 'keep-3', SCREEN));
      const all = estimateAnthropicRun(referenceBodies(bodies, 'anthropic-path', SCREEN));
      const prefixes = new Set(bodies.map(anthropicPrefix)).size;
      // Requests whose newest message answered "the screen did not change" (older ones are compacted away).
      const unchanged = bodies.filter((b) => /did not change/.test(JSON.stringify((b as { messages?: unknown[] }).messages?.at(-1) ?? ''))).length;
      // What the API reported back (here: the fake model's own estimate), summed from the CLI's usage events.
      const usage = run.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { type: string; total?: { costUsd: number } })
        .filter((e) => e.type === 'usage')
        .at(-1)?.total;
      console.log(`\n${model} (${tool}), ${bodies.length} requests, ${unchanged} answered "the screen did not change", tools+system ${prefixes === 1 ? 'byte-stable' : `CHANGED (${prefixes} variants)`}, run cost reported $${usage?.costUsd.toFixed(4) ?? '?'}`);
      console.log(`  ${'policy'.padEnd(44)} ${'raw'.padStart(7)} ${'weighted'.padStart(7)}`);
      console.log(row('DeskPilot', ours));
      console.log(row('reference demo, keep 3 newest images', keep3));
      console.log(row('reference demo, Anthropic path (all + cache)', all));
      const rawRatio = ours.raw / keep3.raw;
      const weightedRatio = ours.weighted / all.weighted;
      const ok = rawRatio <= 0.8 && weightedRatio <= 0.5 && prefixes === 1;
      failed ||= !ok;
      console.log(`  raw / keep-3 = ${rawRatio.toFixed(2)} (target ≤ 0.8), weighted / Anthropic path = ${weightedRatio.toFixed(2)} (target ≤ 0.5): ${ok ? 'meets targets' : 'MISSES targets'}`);
    }
  } finally {
    await xterm.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

void main();
