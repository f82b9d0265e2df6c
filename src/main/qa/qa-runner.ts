import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { PolicyMode } from '../../shared/approvals.js';
import type { Config, ProviderProfile } from '../../shared/config.js';
import type { RunEvent } from '../../shared/events.js';
import type { DisplayInfo } from '../../shared/observation.js';
import type { Computer } from '../../os-control/types.js';
import { deskpilotHome } from '../paths.js';
import { openRunLog } from '../sessions/run-log.js';
import type { RunHandle, RunOptions, RunResult } from '../agent/run-api.js';
import { launchApp, runSetupCommands, SetupError, type AppSession } from './app-session.js';
import { caseTask, QA_ADDENDUM } from './case-task.js';
import { CaseState } from './case-state.js';
import { ocrSource, runChecks } from './checks.js';
import { treeSource } from './element-check.js';
import { decideOutcome } from './decide.js';
import { createFindTextTool } from '../agent/tools/find-text.js';
import { createFindElementTool } from '../agent/tools/find-element.js';
import type { TestCase, TestPlan } from './plan-types.js';
import type { AttemptResult, CaseResult, CaseSource, SuiteResult } from './results.js';
import type { RequestGate } from '../agent/providers/request-gate.js';
import type { SuiteBudget } from './suite-budget.js';
import { caseId, casesInShard, planFingerprint, shardLabel, type ShardSpec } from './shard.js';
import { createVerdictTool } from './verdict-tool.js';
import { readReplayCache, writeReplayCache, type ReplayCacheEntry } from './replay-cache.js';
import { REPLAY_CALL_PREFIX, startReplay, trajectoryOfRunDir, type LoadedTrajectory, type ReplayHandle } from '../agent/replay/index.js';
import type { ModelCall } from '../agent/transcript.js';
import type { QaLabels } from '../../shared/qa-labels.js';
import type { SandboxPolicy } from '../sandbox/index.js';

export interface QaRunOptions {
  profile: ProviderProfile;
  apiKey?: string;
  config: Config;
  computer: Computer;
  /** Starts one agent run: runner.ts's startRun (a parameter so the CLI and tests pass the real one explicitly). */
  startRun: (options: RunOptions) => Promise<RunHandle>;
  home?: string;
  /** Default 'auto': nobody is there to approve in CI. */
  policy?: PolicyMode;
  /** Overrides every case's Retries. */
  retries?: number;
  /** Only the cases with these names. */
  cases?: string[];
  /** Only this slice of the plan (shard.ts); combined with `cases`, the cases in both. */
  shard?: ShardSpec;
  /** The suite these runs belong to (a parallel worker is given its parent's); default a new id. */
  suiteId?: string;
  /** Where the cases come from instead of the selection: a parallel worker asks its scheduler. */
  nextCase?: () => Promise<TestCase | undefined>;
  /** The parallel worker (1-based) this runner is. */
  worker?: number;
  /** One model request budget shared with other runners (request-gate.ts). */
  gate?: RequestGate;
  /** One cost limit for the whole suite, shared with other runners (suite-budget.ts). */
  budget?: SuiteBudget;
  /**
   * `--replay`: a case with a last passing trajectory (replay-cache.ts) is replayed from it
   * without the model; a step that differs is healed by the model; a case without one
   * (or whose text changed) runs with the model.
   */
  replay?: boolean;
  /** Environment of the app (DISPLAY …); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Where launch and setup commands run; default the plan file's folder. */
  cwd?: string;
  /** Check captures go to <outDir>/<case>/; default <home>/qa/<suiteId>. */
  outDir?: string;
  /** The sandbox of the model's shell commands (`deskpilot qa` always gives one; the plan's launch and setup commands are the plan author's and run outside it). */
  sandbox?: SandboxPolicy;
  providerOptions?: RunOptions['providerOptions'];
  onEvent?: (event: RunEvent) => void;
  onCaseStart?: (testCase: TestCase, attempt: number) => void;
  onCaseEnd?: (result: CaseResult) => void;
  signal?: AbortSignal;
}

/** Grace after the case's own time limit before the QA runner stops the run itself. */
const STOP_GRACE_MS = 15_000;

/**
 * Runs a parsed plan: for each case (and retry) a fresh or reset app, one agent run
 * with the qa skill, the verdict tool and find_text, then DeskPilot's own checks.
 * Runs are labelled {qaSuite, qaCase, qaAttempt, qaPlan} so the UI groups them.
 */
/** The cases a run takes on: its shard of the plan, narrowed to `names` when given; names not in the plan are listed. */
export function selectCases(plan: TestPlan, shard: ShardSpec | undefined, names: readonly string[] | undefined): { selected: TestCase[]; unknown: string[] } {
  const inShard = casesInShard(plan, shard);
  const selected = names?.length ? inShard.filter((c) => names.includes(c.name)) : inShard;
  const unknown = (names ?? []).filter((name) => !plan.cases.some((c) => c.name === name));
  return { selected, unknown };
}

export function newSuiteId(): string {
  return `qa-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}-${randomUUID().slice(0, 6)}`;
}

/** The suite's record before any case ran: its plan, shard and filter. */
export function emptySuite(plan: TestPlan, suiteId: string, options: Pick<QaRunOptions, 'shard' | 'cases'>): SuiteResult {
  return {
    suiteId,
    title: plan.title,
    ...(plan.file ? { file: plan.file } : {}),
    startedAt: Date.now(),
    durationMs: 0,
    cases: [],
    plan: { fingerprint: planFingerprint(plan), cases: plan.cases.map((c) => ({ id: caseId(plan, c), name: c.name, line: c.line })) },
    ...(options.shard ? { shard: options.shard } : {}),
    ...(options.cases?.length ? { caseFilter: [...options.cases] } : {}),
  };
}

export function unknownCasesMessage(plan: TestPlan, unknown: readonly string[]): string {
  return `no case named ${unknown.map((u) => `"${u}"`).join(', ')} in the plan (cases: ${plan.cases.map((c) => `"${c.name}"`).join(', ')})`;
}

/**
 * Runs a parsed plan: for each case (and retry) a fresh or reset app, one agent run
 * with the qa skill, the verdict tool and find_text, then DeskPilot's own checks.
 * Runs are labelled {qaSuite, qaCase, qaAttempt, qaPlan, qaShard, qaWorker} so the UI groups them.
 */
export async function runQaPlan(plan: TestPlan, options: QaRunOptions): Promise<SuiteResult> {
  const suiteId = options.suiteId ?? newSuiteId();
  const home = options.home ?? deskpilotHome();
  const outDir = options.outDir ?? path.join(home, 'qa', suiteId);
  const cwd = options.cwd ?? (plan.file ? path.dirname(path.resolve(plan.file)) : process.cwd());
  const baseEnv = options.env ?? process.env;
  const suite = emptySuite(plan, suiteId, options);
  const startedAt = suite.startedAt;

  const { selected, unknown } = selectCases(plan, options.shard, options.cases);
  if (unknown.length) {
    suite.setupError = unknownCasesMessage(plan, unknown);
    return finish(suite);
  }
  // The cases come from the list, or one at a time from a scheduler (a parallel worker).
  // A worker's cases are its scheduler's to list as not run: its own queue stays empty.
  const queue = options.nextCase ? [] : [...selected];
  const nextCase = options.nextCase ?? (async () => queue.shift());
  const notRun = (reason: string) => {
    suite.notRun = [...(suite.notRun ?? []), ...queue.splice(0).map((c) => ({ name: c.name, reason }))];
  };

  let app: AppSession | undefined;
  try {
    for (let testCase = await nextCase(); testCase; testCase = await nextCase()) {
      const id = caseId(plan, testCase);
      // Setup commands and the app learn which case and worker they serve (per-case files, logs).
      const env = { ...baseEnv, DESKPILOT_QA_CASE_ID: id, ...(options.worker !== undefined ? { DESKPILOT_QA_WORKER: String(options.worker) } : {}) };
      if (options.budget && options.budget.remaining() <= 0) {
        suite.notRun = [...(suite.notRun ?? []), { name: testCase.name, reason: options.budget.exhaustedReason() }];
        notRun(options.budget.exhaustedReason());
        continue;
      }
      const caseStarted = Date.now();
      const attempts: AttemptResult[] = [];
      const retries = options.retries ?? testCase.limits.retries;
      for (let attempt = 1; attempt <= 1 + retries; attempt++) {
        // Stopped (a worker told to stop): no new attempt; the scheduler reports the case.
        if (options.signal?.aborted) break;
        options.onCaseStart?.(testCase, attempt);
        const attemptStarted = Date.now();
        try {
          if (!app || plan.app.reset === 'restart' || !app.alive()) {
            await app?.stop();
            app = undefined;
            await runSetupCommands(plan.setup.commands, { env, cwd });
            app = await launchApp(plan.app, { env, cwd });
          } else {
            await app.activate();
          }
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          attempts.push({ attempt, status: 'error', message: `setup: ${message}`, checks: [], evidence: [], durationMs: Date.now() - attemptStarted });
          if (!(error instanceof SetupError)) continue;
          // Nothing in the plan can run without its app.
          suite.setupError = message;
          break;
        }
        const result = await logOutcome(await runAttempt(plan, testCase, attempt, app, { ...options, home, suiteId, outDir }, id), options.apiKey);
        attempts.push(result);
        // Every pass is the case's last passing trajectory (a clean replay's is its source's already).
        if (result.status === 'passed' && result.source !== 'cache' && result.runDir && result.runId) {
          await writeReplayCache(home, { caseId: id, caseName: testCase.name, runDir: result.runDir, runId: result.runId, at: Date.now(), ...(options.shard ? { shard: options.shard } : {}) });
        }
        if (result.status === 'passed' || result.status === 'error') break;
        if (options.budget && options.budget.remaining() <= 0) break;
      }
      const last = attempts[attempts.length - 1];
      if (!last) {
        // Stopped before its first attempt: not run. A worker's scheduler lists its cases itself.
        if (!options.nextCase) {
          suite.notRun = [...(suite.notRun ?? []), { name: testCase.name, reason: 'the QA run was stopped' }];
          notRun('the QA run was stopped');
        }
        break;
      }
      const flaky = last.status === 'passed' && attempts.length > 1;
      const caseResult: CaseResult = {
        id,
        name: testCase.name,
        line: testCase.line,
        status: last.status,
        flaky,
        message: flaky ? `${last.message} (flaky: passed on attempt ${attempts.length} of ${attempts.length})` : last.message,
        attempts,
        startedAt: caseStarted,
        durationMs: Date.now() - caseStarted,
        ...(options.worker !== undefined ? { worker: options.worker } : {}),
        source: last.source ?? 'model',
        healed: last.source === 'healed',
      };
      suite.cases.push(caseResult);
      options.onCaseEnd?.(caseResult);
      if (suite.setupError) {
        notRun("the plan's app could not be set up");
        break;
      }
    }
  } finally {
    await app?.stop();
  }
  return finish(suite);

  function finish(s: SuiteResult): SuiteResult {
    s.durationMs = Date.now() - startedAt;
    return s;
  }
}

// Over 120 lines because one attempt sets up its time guard, abort and budget listeners,
// runs and judges in one try/finally that must remove exactly what it set.
async function runAttempt(
  plan: TestPlan,
  testCase: TestCase,
  attempt: number,
  app: AppSession,
  options: QaRunOptions & { home: string; suiteId: string; outDir: string },
  id: string,
): Promise<AttemptResult> {
  const started = Date.now();
  const state = new CaseState();
  const fail = (message: string, extra: Partial<AttemptResult> = {}): AttemptResult => ({
    attempt,
    status: 'error',
    message,
    checks: [],
    evidence: [],
    durationMs: Date.now() - started,
    ...extra,
  });

  let spent = 0;
  let handle: RunHandle;
  let replay: ReplayHandle | undefined;
  try {
    const runOptions: RunOptions = {
      task: caseTask(plan, testCase),
      profile: options.profile,
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      policy: options.policy ?? 'auto',
      // A case may spend the per-run limit, but never more than the suite has left.
      limits: { maxSteps: testCase.limits.maxSteps, maxWallMs: testCase.limits.timeoutMs, maxCostUsd: Math.min(options.config.limits.maxCostUsd, options.budget?.remaining() ?? Infinity) },
      config: options.config,
      computer: options.computer,
      skills: ['qa'],
      systemAddendum: QA_ADDENDUM,
      tools: [createVerdictTool(testCase, state), createFindTextTool(options.computer, state), createFindElementTool(options.computer, state)],
      labels: {
        qaSuite: options.suiteId,
        qaCase: testCase.name,
        qaAttempt: String(attempt),
        qaPlan: plan.title,
        ...(options.shard ? { qaShard: shardLabel(options.shard) } : {}),
        ...(options.worker !== undefined ? { qaWorker: String(options.worker) } : {}),
      } satisfies QaLabels,
      home: options.home,
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      ...providerOptionsWith(options.providerOptions, options.gate),
      onEvent: (event) => {
        state.onEvent(event);
        if (event.type === 'usage' && options.budget) {
          options.budget.spend(Math.max(0, event.total.costUsd - spent));
          spent = event.total.costUsd;
        }
        options.onEvent?.(event);
      },
    };
    const cached = options.replay ? await cachedTrajectory(options.home, id) : undefined;
    // From the cache: replayed, healed where it differs, and ended with a pass verdict once the recorded final screen is reached with no heal — the checks then decide. After any heal the model gives the verdict (replay/heal.ts).
    handle = cached
      ? (replay = await startReplay(runOptions, { surface: 'qa', source: cached.source, mode: 'heal', endCalls: () => [replayVerdictCall(cached.entry.runId)] }))
      : await options.startRun(runOptions);
  } catch (error) {
    // The run could not start at all (no key, unknown skill, no display): the setup is invalid.
    return fail(`the agent run could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  state.runDir = handle.dir;

  const guard = setTimeout(() => handle.stop(`QA case time limit (${Math.round(testCase.limits.timeoutMs / 1000)} s)`), testCase.limits.timeoutMs + STOP_GRACE_MS);
  const onAbort = () => handle.stop('QA run aborted');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const onBudget = () => handle.stop(options.budget!.exhaustedReason());
  if (options.budget?.exhausted.aborted) onBudget();
  else options.budget?.exhausted.addEventListener('abort', onBudget, { once: true });
  let run: RunResult;
  let source: CaseSource = 'model';
  try {
    if (replay) {
      const outcome = await replay.replayed;
      run = outcome.result;
      // A replay the model acted in (a healed step, or an end it judged) is not the cache's alone.
      source = outcome.stats.modelCalls > 0 ? 'healed' : 'cache';
    } else {
      run = await handle.done;
    }
  } catch (error) {
    return fail(`the agent run crashed: ${error instanceof Error ? error.message : String(error)}`, { runId: handle.runId, runDir: handle.dir });
  } finally {
    clearTimeout(guard);
    options.signal?.removeEventListener('abort', onAbort);
    options.budget?.exhausted.removeEventListener('abort', onBudget);
  }

  const base = { attempt, runId: run.runId, runDir: handle.dir, runStatus: run.status, source };
  const verdict = state.verdict;
  if (!verdict) {
    return {
      ...base,
      status: 'blocked',
      message: `no verdict: the run ended (${run.status}) without calling qa_verdict${run.summary ? `: ${run.summary}` : ''}`,
      checks: [],
      evidence: evidencePaths(state, [state.firstObservationId, state.latestObservationId]),
      durationMs: Date.now() - started,
    };
  }

  const display = displayOf(state) ?? (await primaryDisplay(options.computer));
  const checks =
    verdict.verdict === 'blocked' || !display
      ? []
      : await runChecks(testCase, {
          computer: options.computer,
          app,
          state,
          display,
          regions: plan.app.regions,
          outDir: path.join(options.outDir, safeName(`${testCase.name}-${attempt}`)),
          // The tree's exact text first; OCR only where the app exposes none.
          sources: [treeSource(options.computer), ocrSource],
        });
  const outcome = decideOutcome(verdict, checks, testCase.expected.length);
  return {
    ...base,
    status: outcome.status,
    message: outcome.message,
    verdict: { verdict: verdict.verdict, reason: verdict.reason },
    checks,
    evidence: evidencePaths(state, verdict.evidence),
    durationMs: Date.now() - started,
  };
}

/** The case's last passing trajectory, when `--replay` has one that still loads. */
async function cachedTrajectory(home: string, id: string): Promise<{ entry: ReplayCacheEntry; source: LoadedTrajectory } | undefined> {
  const entry = await readReplayCache(home, id);
  if (!entry) return undefined;
  try {
    const source = await trajectoryOfRunDir(entry.runDir);
    return source.trajectory.steps.length ? { entry, source } : undefined;
  } catch {
    // The run folder was deleted or is unreadable: the model runs the case (and a pass caches it again).
    return undefined;
  }
}

/** How a replay from the cache ends: the verdict the passing run gave, on the same final screen; DeskPilot's checks then decide. */
function replayVerdictCall(runId: string): ModelCall {
  const input = { verdict: 'pass', reason: `replayed the trajectory of run ${runId}, which passed; the final screen matches the one it ended on`, evidence: [], checks: [] };
  return { callId: `${REPLAY_CALL_PREFIX}verdict`, name: 'qa_verdict', input, actions: [] };
}

/**
 * Appends the attempt's outcome (after DeskPilot's checks) to its run's log as a
 * qa_outcome event, so History, `sessions list` and the exports show the case's real
 * result (sessions/outcome.ts), not the model's. A log that cannot take it is said in
 * the attempt's message: the views would otherwise fall back to the model's verdict.
 */
async function logOutcome(result: AttemptResult, apiKey: string | undefined): Promise<AttemptResult> {
  if (!result.runDir) return result;
  try {
    const log = await openRunLog(result.runDir, apiKey ? { secrets: [apiKey] } : {});
    try {
      log.append({ type: 'qa_outcome', status: result.status, message: result.message, ...(result.verdict ? { modelVerdict: result.verdict.verdict } : {}) });
    } finally {
      await log.close();
    }
    return result;
  } catch (error) {
    return { ...result, message: `${result.message} (the outcome could not be written to the run's log: ${error instanceof Error ? error.message : String(error)})` };
  }
}

function evidencePaths(state: CaseState, ids: ReadonlyArray<string | undefined>): string[] {
  const paths: string[] = [];
  for (const id of new Set(ids)) {
    const seen = id ? state.observations.get(id) : undefined;
    if (seen && state.runDir) paths.push(path.join(state.runDir, seen.image));
  }
  return paths;
}

function displayOf(state: CaseState): DisplayInfo | undefined {
  const id = state.latestObservationId;
  return id ? state.observations.get(id)?.record.display : undefined;
}

async function primaryDisplay(computer: Computer): Promise<DisplayInfo | undefined> {
  const displays = await computer.listDisplays().catch(() => []);
  return displays.find((d) => d.primary) ?? displays[0];
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'case';
}

function providerOptionsWith(base: RunOptions['providerOptions'], gate: RequestGate | undefined): { providerOptions?: RunOptions['providerOptions'] } {
  if (!gate) return base ? { providerOptions: base } : {};
  return { providerOptions: { ...base, retry: { ...base?.retry, gate } } };
}
