import type { ProjectInstructions, RunEvent, RunEventInput, Usage } from '../../../shared/events.js';
import { EMPTY_TALLY, countSteps, tallyStep, tallySteps, type StepTally } from '../../../shared/step-count.js';
import type { DisplayInfo } from '../../../shared/observation.js';
import { pickDisplay } from '../../../os-control/displays.js';
import { errorText } from '../../../shared/error-text.js';
import { deskpilotHome } from '../../paths.js';
import { createRunLog, openRunLogById, type FileRunLog } from '../../sessions/run-log.js';
import { readRunLog } from '../../sessions/reader.js';
import { agentsMdPrompt, loadAgentsMd } from '../agents-md.js';
import { priceFor, ZERO_USAGE } from '../pricing.js';
import type { RunHandle, RunOptions, RunResult } from '../run-api.js';
import { loadSkillsForPrompt } from '../skills/index.js';
import { FRESH_INPUT } from '../supervision/input-memory.js';
import { buildSystemPrompt, type SkillForPrompt } from '../system-prompt.js';
import { groundingOf } from '../grounding/ground-step.js';
import { runTools, ToolSetupError, type RunTools } from '../tools/agent-tool.js';
import { isBuiltinTool } from '../providers/builtin-tools.js';
import { offeredTools, runHarness, type RunHarness } from '../harness/index.js';
import { CodeSessions } from '../harness/code/sessions.js';
import { blockOcr } from '../harness/code/block-ocr.js';
import { plannerResolver } from '../harness/planner/resolver.js';
import type { TranscriptItem } from '../transcript.js';
import type { DepsFactory, RunContext, RunDeps, RunEnding } from './context.js';
import { runLoop } from './loop.js';
import { PendingQuestions } from './questions.js';
import { rebuildTranscript } from './resume.js';
import { RunSandbox, summarizePolicy } from '../../sandbox/index.js';

/**
 * Starting (or resuming) a run, as named steps in the order they happen:
 *   1. runTools        — the caller's tools checked (a bad name: nothing is made)
 *   2. openLog         — a new run folder, or the one being resumed
 *   3. restorePoint    — for a resume: transcript, step, cost, task, labels from its log
 *   4. createEmitter   — every event logged, then told to the caller; the run's state follows the gate
 *   5. prepare         — skills, AGENTS.md, the deps (provider, gate, control), the display
 *   6. run_started     — the first event (then an error event per AGENTS.md not used)
 *   7. buildContext    — the loop's RunContext
 *   8. armWallTimer    — the time limit, across resumes
 *   9. runToEnd        — the loop, then releasing input, run_ended, the log's last flush
 *  10. handleFor       — what the caller steers the run with
 * A step that fails before run_started closes the log and throws: the caller gets the
 * error, the folder holds no half-started run.
 */
export async function startRunWith(options: RunOptions, makeDeps: DepsFactory): Promise<RunHandle> {
  const builtins = { elements: groundingOf(options.profile) !== 'pixels', sandboxed: options.sandbox !== undefined && options.sandbox.mode !== 'danger-full-access' };
  const harness = await closingMcpOnError(options, () => runHarness(options.profile));
  const tools = await closingMcpOnError(options, () => withHarnessTools(runTools([...(options.tools ?? []), ...(options.mcp?.tools ?? [])], builtins), harness, builtins));
  const home = options.home ?? deskpilotHome();
  const log = await closingMcpOnError(options, () => openLog(options, home));
  const point = await closingOnError(log, () => closingMcpOnError(options, () => restorePoint(options, log)));
  const { emit, steps } = createEmitter(log, options, point.stepTally);
  const { skillPrompts, projectInstructions, deps, display } = await closingOnError(log, () =>
    closingMcpOnError(options, () => prepare(options, home, emit, log, makeDeps)),
  );

  emit({
    type: 'run_started',
    task: point.task,
    provider: options.profile.provider,
    model: options.profile.model,
    harness: harness.name,
    policy: options.policy,
    limits: options.limits,
    skills: options.skills ?? [],
    labels: point.labels,
    display,
    ...(options.profile.baseUrl ? { baseUrl: options.profile.baseUrl } : {}),
    ...(point.resumedFromSeq !== undefined ? { resumedFromSeq: point.resumedFromSeq } : {}),
    ...(projectInstructions && (projectInstructions.files.length || projectInstructions.errors.length) ? { projectInstructions } : {}),
    ...(options.sandbox ? { sandbox: summarizePolicy(options.sandbox, process.platform) } : {}),
  });
  for (const problem of projectInstructions?.errors ?? []) emit({ type: 'error', message: `AGENTS.md not used: ${problem}`, fatal: false });
  const ended = { value: false };
  // An MCP server that did not start, or stops mid-run: said in the log, the run goes on.
  for (const problem of options.mcp?.problems ?? []) emit({ type: 'error', message: problem, fatal: false });
  options.mcp?.onProblem((message) => {
    if (!ended.value) emit({ type: 'error', message, fatal: false });
  });
  const agentsMdBlock = projectInstructions ? agentsMdPrompt(projectInstructions) : '';

  const questions = new PendingQuestions();
  const ctx = buildContext({ options, log, deps, emit, tools, point, skillPrompts, agentsMdBlock, display, questions, harness });
  // The harness's interpreters start now, beside the model's first turn; runToEnd's close ends them with the run.
  void ctx.code.warm(harness.warmLanguages);
  const wallTimer = armWallTimer(ctx, deps, options.limits.maxWallMs - point.activeBeforeMs);
  const done = runToEnd(ctx, deps, log, wallTimer, { ended, steps });
  return handleFor(log, done, deps, questions, ended);
}

/** Where a resumed run stands (a fresh run: at the start). */
interface RestorePoint {
  transcript: TranscriptItem[];
  step: number;
  total: Usage;
  task: string;
  /** The wall-time limit is per run, not per process: a resumed run brings its earlier active time. */
  activeBeforeMs: number;
  labels: Record<string, string>;
  resumedFromSeq?: number;
  /** The earlier part's steps, so a resumed run's count goes on from them (shared/step-count.ts). */
  stepTally: StepTally;
}

/** 1. The harness's own tools (the code harness's execute) after the run's; a caller's tool of the same name is refused. */
function withHarnessTools(tools: RunTools, harness: RunHarness, options: { sandboxed: boolean }): RunTools {
  const offered = offeredTools(harness, options);
  // A harness without the built-ins (planner-grounder: act alone) offers the caller's tools and its own.
  const specs = harness.builtins ? tools.specs : tools.specs.filter((s) => !isBuiltinTool(s.name));
  if (offered.length === 0) return { specs, find: tools.find };
  const taken = offered.filter((t) => specs.some((s) => s.name === t.name) || tools.find(t.name));
  if (taken.length) throw new ToolSetupError(`the run's tools cannot be offered: tool name "${taken[0]!.name}" is taken by the ${harness.name} harness`);
  return { specs: [...specs, ...offered], find: (name) => tools.find(name) };
}

/** The run's MCP servers stop when any start-up step before run_started fails, steps 1–5 (McpToolbox.close never rejects). */
async function closingMcpOnError<T>(options: RunOptions, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await options.mcp?.close();
    throw error;
  }
}

async function closingOnError<T>(log: FileRunLog, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await log.close();
    throw error;
  }
}

/** 2. The run folder: a new one, or the resumed run's (its key named for the scrubber). */
function openLog(options: RunOptions, home: string): Promise<FileRunLog> {
  // A key from the keychain is not in the environment the scrubber reads: name it.
  const secrets = options.apiKey ? [options.apiKey] : [];
  return options.resumeRunId !== undefined
    ? openRunLogById(home, options.resumeRunId, { secrets })
    : createRunLog({ home, secrets, ...(options.config.historyCapMb ? { historyCapMb: options.config.historyCapMb } : {}) });
}

/** 3. A fresh run starts at zero; a resumed one where its log ends (labels: the log's, then the caller's). */
async function restorePoint(options: RunOptions, log: FileRunLog): Promise<RestorePoint> {
  const fresh: RestorePoint = { transcript: [], step: 0, total: { ...ZERO_USAGE }, task: options.task, activeBeforeMs: 0, labels: options.labels ?? {}, stepTally: EMPTY_TALLY };
  if (options.resumeRunId === undefined) return fresh;
  const { events } = await readRunLog(log.dir);
  const point = rebuildTranscript(events, log);
  return {
    transcript: point.transcript,
    step: point.step,
    total: point.total,
    task: point.task,
    activeBeforeMs: point.activeMs,
    labels: { ...point.started.labels, ...fresh.labels },
    resumedFromSeq: log.lastSeq,
    stepTally: tallySteps(events),
  };
}

/**
 * 4. The one way events leave the run: appended to the log, then handed to the caller
 * (whose bug must not break the run). The gate asks and answers through events; the
 * run's state follows them.
 */
function createEmitter(log: FileRunLog, options: RunOptions, earlierSteps: StepTally): { emit: (input: RunEventInput) => RunEvent; steps: { tally: StepTally } } {
  let state: 'running' | 'other' = 'other';
  // run_ended.steps and the result's steps: the count every view derives from the same events.
  const steps = { tally: earlierSteps };
  const emit = (input: RunEventInput): RunEvent => {
    const event = log.append(input);
    steps.tally = tallyStep(steps.tally, event);
    if (event.type === 'state') state = event.state === 'running' ? 'running' : 'other';
    try {
      options.onEvent?.(event);
    } catch {
      // A listener's bug must not break the run.
    }
    if (event.type === 'approval_requested' && state === 'running') emit({ type: 'state', state: 'waiting_approval', reason: event.decision.reason });
    if ((event.type === 'approval_answered' || event.type === 'action_denied') && state !== 'running') emit({ type: 'state', state: 'running', reason: '' });
    return event;
  };
  return { emit, steps };
}

/** 5. What must exist before anything runs: a requested skill that is missing is an error here. */
async function prepare(
  options: RunOptions,
  home: string,
  emit: (input: RunEventInput) => RunEvent,
  log: FileRunLog,
  makeDeps: DepsFactory,
): Promise<{ skillPrompts: SkillForPrompt[]; projectInstructions: ProjectInstructions | undefined; deps: RunDeps; display: DisplayInfo }> {
  const skillPrompts = await loadSkillsForPrompt(options.skills ?? []);
  const projectInstructions = options.agentsMd ? await loadAgentsMd({ cwd: options.agentsMd.cwd, home }) : undefined;
  const deps = await makeDeps(options, emit, log);
  // The configured display, or the primary one; an id that matches no display throws UnknownDisplayError.
  const display = pickDisplay(await options.computer.listDisplays(), options.config.displayId);
  return { skillPrompts, projectInstructions, deps, display };
}

/** 7. The loop's context: the deps' pieces, the system prompt for each screen size, the restored state. */
function buildContext(parts: {
  options: RunOptions;
  log: FileRunLog;
  deps: RunDeps;
  emit: (input: RunEventInput) => RunEvent;
  tools: RunTools;
  point: RestorePoint;
  skillPrompts: SkillForPrompt[];
  /** The AGENTS.md block for the system prompt ('' when none). */
  agentsMdBlock: string;
  display: DisplayInfo;
  questions: PendingQuestions;
  harness: RunHarness;
}): RunContext {
  const { options, log, deps, emit, tools, point, skillPrompts, agentsMdBlock, display, questions, harness } = parts;
  const harnessPrompt = harness.prompt({ fenced: options.profile.provider === 'openai-compatible', textOnly: options.profile.vision === false });
  return {
    runId: log.runId,
    options,
    task: point.task,
    log,
    provider: deps.provider,
    gate: deps.gate,
    control: deps.control,
    computer: options.computer,
    questions,
    ...(options.sandbox && options.sandbox.mode !== 'danger-full-access'
      ? { commands: new RunSandbox(options.sandbox, { onFallback: (reason) => emit({ type: 'error', message: `${reason}: the run's commands run one bubblewrap each (slower, as sandboxed)`, fatal: false }) }) }
      : {}),
    acting: (work, expectedEnd) => (deps.acting ? deps.acting(work, expectedEnd) : work()),
    humanActs: (work) => (deps.humanActs ? deps.humanActs(work) : work()),
    display,
    price: priceFor(options.profile.model, options.config.prices),
    tools,
    grounding: groundingOf(options.profile),
    ...(harness.name === 'planner-grounder' ? { planner: plannerResolver(options.config, options.computer, display.id, blockOcr()?.readWords) } : {}),
    code: new CodeSessions({ cwd: process.cwd(), resumed: options.resumeRunId !== undefined, ...(options.sandbox ? { sandbox: options.sandbox } : {}) }),
    system: (screen) =>
      buildSystemPrompt({
        family: options.profile.provider,
        platform: process.platform,
        screen,
        date: new Date(),
        instructions: options.config.instructions,
        ...(agentsMdBlock ? { projectInstructions: agentsMdBlock } : {}),
        skills: skillPrompts,
        tools: tools.specs,
        ...(options.systemAddendum ? { addendum: options.systemAddendum } : {}),
        ...(harnessPrompt ? { harness: harnessPrompt } : {}),
        ...(options.profile.harnessGuidance !== undefined ? { guidance: options.profile.harnessGuidance } : {}),
      }),
    startedAt: Date.now() - point.activeBeforeMs,
    emit,
    transcript: point.transcript,
    step: point.step,
    input: FRESH_INPUT,
    total: point.total,
  };
}

/** 8. The wall-time limit ends the run even in the middle of a long wait. */
function armWallTimer(ctx: RunContext, deps: RunDeps, remainingMs: number): NodeJS.Timeout {
  const timer = setTimeout(() => {
    ctx.pendingEnding = { status: 'limit', summary: `time limit reached (${Math.round(ctx.options.limits.maxWallMs / 1000)} s)` };
    deps.control.stop(ctx.pendingEnding.summary);
  }, Math.max(0, remainingMs));
  timer.unref?.();
  return timer;
}

/** 9. The loop, then what every end needs: no key held, run_ended, the audit log flushed and closed. */
async function runToEnd(
  ctx: RunContext,
  deps: RunDeps,
  log: FileRunLog,
  wallTimer: NodeJS.Timeout,
  { ended, steps }: { ended: { value: boolean }; steps: { tally: StepTally } },
): Promise<RunResult> {
  const { emit } = ctx;
  let ending: RunEnding;
  try {
    // Starting the takeover watch can fail (no input device stream); the run goes
    // on, but the person must know that touching the mouse will not pause it.
    await deps.start?.().catch((error: unknown) =>
      emit({ type: 'error', message: `takeover detection did not start: ${errorText(error)}`, fatal: false }),
    );
    ending = await runLoop(ctx);
  } finally {
    clearTimeout(wallTimer);
    deps.dispose?.();
    // The run's sandbox session ends with it: no process of it is left (sandbox/run-sandbox.ts).
    if (ctx.commands && !(await ctx.commands.close())) emit({ type: 'error', message: "a process of the run's sandbox was still alive 2 s after it was killed", fatal: false });
    // The code harness's interpreters and every process their blocks started.
    await ctx.code.close().catch((error: unknown) => emit({ type: 'error', message: `ending the code sessions failed: ${errorText(error)}`, fatal: false }));
    await ctx.options.mcp?.close().catch((error: unknown) => emit({ type: 'error', message: `closing the MCP servers failed: ${errorText(error)}`, fatal: false }));
  }
  // From here the handle's stop/pause/resume do nothing: the loop is over.
  ended.value = true;
  // Whatever happened, leave no key or button held.
  await ctx.computer.releaseAll().catch((error: unknown) =>
    emit({ type: 'error', message: `could not release every held key and button: ${errorText(error)} — check the keyboard and mouse`, fatal: false }),
  );
  // ctx.step counts model turns (the step limit's unit); the steps said are the turns that
  // were not only the final message, as History, the report and the end card count them.
  const stepCount = countSteps({ ...steps.tally, ended: ending.status });
  emit({
    type: 'run_ended',
    status: ending.status,
    summary: ending.summary,
    steps: stepCount,
    total: ctx.total,
    ...(ending.labels ? { labels: ending.labels } : {}),
  });
  emit({ type: 'state', state: 'ended', reason: ending.summary });
  const logError = await closeLog(log, emit);
  return {
    runId: log.runId,
    status: ending.status,
    summary: ending.summary,
    ...(ending.status === 'error' ? { errorCause: ending.errorCause ?? 'internal' } : {}),
    steps: stepCount,
    costUsd: ctx.total.costUsd,
    ...(logError ? { logError } : {}),
  };
}

/**
 * The audit log's last flush and close: a failure means the last events may not be on
 * disk. It is said where the person looks (an error event, the result), never dropped.
 */
async function closeLog(log: FileRunLog, emit: (input: RunEventInput) => RunEvent): Promise<string | undefined> {
  let logError: string | undefined;
  try {
    await log.sync();
  } catch (error) {
    logError = `the run log could not be flushed to disk (${error instanceof Error ? error.message : String(error)}): its last events may be lost`;
    try {
      emit({ type: 'error', message: logError, fatal: false });
    } catch {
      process.stderr.write(`deskpilot: ${logError}\n`);
    }
  }
  try {
    await log.close();
  } catch (error) {
    const message = `the run log could not be closed (${error instanceof Error ? error.message : String(error)}): its last events may be lost`;
    logError = logError ? `${logError}; ${message}` : message;
    process.stderr.write(`deskpilot: ${message}\n`);
  }
  return logError;
}

/** 10. The caller's handle; after the run ended, stop/pause/resume do nothing (its log is closed). */
function handleFor(log: FileRunLog, done: Promise<RunResult>, deps: RunDeps, questions: PendingQuestions, ended: { readonly value: boolean }): RunHandle {
  return {
    runId: log.runId,
    dir: log.dir,
    done,
    stop: (reason) => void (ended.value || deps.control.stop(reason ?? 'stopped by the person')),
    pause: (reason) => void (ended.value || deps.control.pause(reason ?? 'paused by the person')),
    resume: () => void (ended.value || deps.control.resume()),
    answerApproval: (proposalId, answer, by) => deps.answerApproval(proposalId, answer, by),
    answerApprovalWithReason: (proposalId, answer, by) =>
      deps.answerApprovalWithReason ? deps.answerApprovalWithReason(proposalId, answer, by) : { accepted: deps.answerApproval(proposalId, answer, by) },
    answerQuestion: (questionId, answer, by) => questions.answer(questionId, answer, by),
    cancelCountdown: (proposalId) => deps.cancelCountdown?.(proposalId) ?? false,
  };
}
