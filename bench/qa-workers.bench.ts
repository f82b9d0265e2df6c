/**
 * QA at scale: a 12-case xcalc plan through `deskpilot qa --workers N` with a fake model
 * that takes 1.5 s per reply (a realistic latency), for N = 1, 2 and 4 on this machine.
 * Each case is two replies (keys, then the verdict), so 36 s of the serial run is the
 * model's; the rest is the app's start, capture, OCR checks and the workers' start-up.
 *
 * Baseline, measured in the same run: --workers 1 (the same pool, one virtual display).
 * Reported: wall time per N (median of --reps runs), speed-up against N = 1, and the
 * load average before and after (on a shared 2-core machine the numbers move with it).
 *
 *   npx tsx bench/qa-workers.bench.ts [--reps 1] [--workers 1,2,4]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeModel, type FakeRequest, type FakeResult } from '../test/harness/fake-model/index.js';
import { median, numberArg } from './lib/stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPLY_MS = 1_500;
const CASES = 12;
const REPS = numberArg('reps', 1);
const WORKERS = (() => {
  const i = process.argv.indexOf('--workers');
  return i > 0 ? process.argv[i + 1]!.split(',').map(Number) : [1, 2, 4];
})();

const names = Array.from({ length: CASES }, (_, i) => `Adds ${i + 1} and ${i + 1}`);
const PLAN = `# QA workers bench
## App
- Launch: \`xcalc -geometry 260x340+100+100\`
- Window: Calculator
- Region display: 8, 2, 248, 22
## Defaults
- Timeout: 120s
- Max steps: 6
${names.map((n, i) => `## Case: ${n}\nSteps:\n1. Press ${i + 1}, +, ${i + 1} and =.\nExpected:\n- Expect display: ${2 * (i + 1)}\n`).join('\n')}`;

function reply(req: FakeRequest): FakeResult {
  const body = JSON.stringify(req.body);
  const index = names.findIndex((n) => body.includes(`Test case \\"${n}\\"`));
  if (index < 0) return { text: 'unknown case' };
  const turns = (Array.isArray(req.body.messages) ? req.body.messages : []).filter((m) => (m as { role?: string }).role === 'assistant').length;
  const k = index + 1;
  return turns === 0
    ? { toolCalls: [{ name: 'computer', input: { action: 'type', text: `${k}+${k}=` } }] }
    : { toolCalls: [{ name: 'qa_verdict', input: { verdict: 'pass', reason: `shows ${2 * k}`, evidence: ['latest'] } }] };
}

function qa(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'deskpilot.js'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

const fake = await startFakeModel();
fake.setFallback(async (req) => {
  await new Promise((r) => setTimeout(r, REPLY_MS));
  return reply(req);
});
const tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-bench-qa-'));
const planFile = path.join(tmp, 'bench.plan.md');
writeFileSync(planFile, PLAN);
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
try {
  const loadBefore = load();
  const wall = new Map<number, number[]>();
  for (let rep = 0; rep < REPS; rep++) {
    for (const n of WORKERS) {
      const out = path.join(tmp, `out-${n}-${rep}`);
      const started = performance.now();
      const run = await qa(
        ['qa', planFile, '--workers', String(n), '--out-dir', out, '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl],
        { ...process.env, DESKPILOT_HOME: path.join(tmp, 'home'), ANTHROPIC_API_KEY: 'bench-key', ANTHROPIC_BASE_URL: '' },
      );
      const ms = performance.now() - started;
      const counts = (JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as { counts: Record<string, number> }).counts;
      if (run.code !== 0 || counts.passed !== CASES) throw new Error(`--workers ${n}: exit ${run.code}, ${JSON.stringify(counts)}\n${run.output.slice(-2000)}`);
      wall.set(n, [...(wall.get(n) ?? []), ms]);
      console.log(`  rep ${rep + 1}, --workers ${n}: ${(ms / 1000).toFixed(1)} s, ${counts.passed}/${CASES} passed`);
    }
  }
  const base = median(wall.get(WORKERS[0]!)!);
  console.log(`qa --workers, ${CASES} xcalc cases, fake model ${REPLY_MS / 1000} s per reply (2 replies per case), ${os.availableParallelism()} cores, median of ${REPS} run(s):`);
  for (const n of WORKERS) {
    const m = median(wall.get(n)!);
    console.log(`  --workers ${n}: ${(m / 1000).toFixed(1)} s wall, ${(m / CASES / 1000).toFixed(2)} s per case, speed-up ${(base / m).toFixed(2)}× vs --workers ${WORKERS[0]}`);
  }
  console.log(`  load average (1/5/15 min) before: ${loadBefore}, after: ${load()}`);
  rmSync(tmp, { recursive: true, force: true });
} finally {
  // A failed bench leaves its folder (results, sessions) to look at.
  await fake.close();
}
