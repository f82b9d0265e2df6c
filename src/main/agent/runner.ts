import type { Point } from '../../shared/actions.js';
import type { ApprovalAnswer } from '../../shared/approvals.js';
import type { ProjectInstructions, RunEvent, RunEventInput, Usage } from '../../shared/events.js';
import type { DisplayInfo } from '../../shared/observation.js';
import { pickDisplay as pickDisplayFrom } from '../../os-control/displays.js';
import { errorText } from '../../shared/error-text.js';
import { deskpilotHome } from '../paths.js';
import { createRunLog, openRunLogById, type FileRunLog } from '../sessions/run-log.js';
import { readRunLog } from '../sessions/reader.js';
import type { Gate } from './gate.js';
import { priceFor, ZERO_USAGE } from './pricing.js';
import type { Provider } from './providers/types.js';
import type { RunHandle, RunOptions, RunResult } from './run-api.js';
import { agentsMdPrompt, loadAgentsMd } from './agents-md.js';
import { buildSystemPrompt } from './system-prompt.js';
import type { TranscriptItem } from './transcript.js';
import type { LoopControl, RunContext, RunEnding } from './runner/context.js';
import { createDefaultDeps } from './runner/deps.js';
import { runLoop } from './runner/loop.js';
import { PendingQuestions } from './runner/questions.js';
import { runTools } from './tools/agent-tool.js';
import { loadSkillsForPrompt } from './skills/index.js';
import type { SkillForPrompt } from './system-prompt.js';
import { rebuildTranscript } from './runner/resume.js';
import { FRESH_INPUT } from './supervision/input-memory.js';

export type { RunHandle, RunOptions, RunResult } from './run-api.js';

/** The pieces a run is made of; startRun builds the real ones, tests and benches may pass their own. */
export interface RunDeps {
  provider: Provider;
  gate: Gate;
  control: LoopControl;
  /** Answers to held proposals reach the one approval queue through this. */
  answerApproval(proposalId: string, answer: ApprovalAnswer, by: string): boolean;
  /** The same, with why an answer was refused. */
  answerApprovalWithReason?(proposalId: string, answer: ApprovalAnswer, by: string): { accepted: boolean; reason?: string };
  /** Stops a held action's auto-approve countdown. */
  cancelCountdown?(proposalId: string): boolean;
  /** Wraps each input action (the takeover watch); runs it as is when absent. */
  acting?<T>(work: () => Promise<T>, expectedEnd?: Point): Promise<T>;
  /** Wraps a wait for the person (an ask_user answer): their mouse use then is not a takeover. */
  humanActs?<T>(work: () => Promise<T>): Promise<T>;
  /** Called once before the first step (start watchers …). */
  start?(): Promise<void>;
  /** Releases what the run's helpers hold (timers, the takeover watcher …). */
  dispose?(): void;
}

export type DepsFactory = (options: RunOptions, emit: (event: RunEventInput) => RunEvent, log: FileRunLog) => Promise<RunDeps> | RunDeps;

/**
 * Starts (or resumes) one run and returns at once with its handle; `done` resolves
 * when it ends. The CLI, the bridge service and the QA runner all come through here.
 */
export function startRun(options: RunOptions): Promise<RunHandle> {
  return startRunWith(options, createDefaultDeps);
}

export async function startRunWith(options: RunOptions, makeDeps: DepsFactory): Promise<RunHandle> {
  // A bad tool name is refused before the run folder exists.
  const tools = runTools(options.tools ?? []);
  const home = options.home ?? deskpilotHome();
  const resuming = options.resumeRunId !== undefined;
  // A key from the keychain is not in the environment the scrubber reads: name it.
  const secrets = options.apiKey ? [options.apiKey] : [];
  const log = resuming
    ? await openRunLogById(home, options.resumeRunId!, { secrets })
    : await createRunLog({ home, secrets, ...(options.config.historyCapMb ? { historyCapMb: options.config.historyCapMb } : {}) });

  let transcript: TranscriptItem[] = [];
  let step = 0;
  let total: Usage = { ...ZERO_USAGE };
  let task = options.task;
  let resumedFromSeq: number | undefined;
  // The wall-time limit is per run, not per process: a resumed run brings its earlier active time.
  let activeBeforeMs = 0;
  let labels = options.labels ?? {};
  try {
    if (resuming) {
      const { events } = await readRunLog(log.dir);
      const point = rebuildTranscript(events, log);
      ({ transcript, step, total, task } = point);
      activeBeforeMs = point.activeMs;
      labels = { ...point.started.labels, ...labels };
      resumedFromSeq = log.lastSeq;
    }
  } catch (error) {
    await log.close();
    throw error;
  }

  const questions = new PendingQuestions();
  let state: 'running' | 'other' = 'other';
  const emit = (input: RunEventInput): RunEvent => {
    const event = log.append(input);
    if (event.type === 'state') state = event.state === 'running' ? 'running' : 'other';
    try {
      options.onEvent?.(event);
    } catch {
      // A listener's bug must not break the run.
    }
    // The gate asks and answers through events; the run's state follows them.
    if (event.type === 'approval_requested' && state === 'running') emit({ type: 'state', state: 'waiting_approval', reason: event.decision.reason });
    if ((event.type === 'approval_answered' || event.type === 'action_denied') && state !== 'running') emit({ type: 'state', state: 'running', reason: '' });
    return event;
  };

  let deps: RunDeps;
  let display: DisplayInfo;
  let skillPrompts: SkillForPrompt[];
  let projectInstructions: ProjectInstructions | undefined;
  try {
    // A requested skill that is missing is an error before anything runs.
    skillPrompts = await loadSkillsForPrompt(options.skills ?? []);
    projectInstructions = options.agentsMd ? await loadAgentsMd({ cwd: options.agentsMd.cwd, home }) : undefined;
    deps = await makeDeps(options, emit, log);
    display = await pickDisplay(options);
  } catch (error) {
    await log.close();
    throw error;
  }

  const skills = options.skills ?? [];
  emit({
    type: 'run_started',
    task,
    provider: options.profile.provider,
    model: options.profile.model,
    policy: options.policy,
    limits: options.limits,
    skills,
    labels,
    display,
    ...(options.profile.baseUrl ? { baseUrl: options.profile.baseUrl } : {}),
    ...(resumedFromSeq !== undefined ? { resumedFromSeq } : {}),
    ...(projectInstructions && (projectInstructions.files.length || projectInstructions.errors.length) ? { projectInstructions } : {}),
  });
  for (const problem of projectInstructions?.errors ?? []) emit({ type: 'error', message: `AGENTS.md not used: ${problem}`, fatal: false });
  const agentsMdBlock = projectInstructions ? agentsMdPrompt(projectInstructions) : '';

  const startedAt = Date.now() - activeBeforeMs;
  const ctx: RunContext = {
    runId: log.runId,
    options,
    task,
    log,
    provider: deps.provider,
    gate: deps.gate,
    control: deps.control,
    computer: options.computer,
    questions,
    acting: (work, expectedEnd) => (deps.acting ? deps.acting(work, expectedEnd) : work()),
    humanActs: (work) => (deps.humanActs ? deps.humanActs(work) : work()),
    display,
    price: priceFor(options.profile.model, options.config.prices),
    tools,
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
      }),
    startedAt,
    emit,
    transcript,
    step,
    input: FRESH_INPUT,
    total,
  };

  // The wall-time limit ends the run even in the middle of a long wait.
  const wallTimer = setTimeout(() => {
    ctx.pendingEnding = { status: 'limit', summary: `time limit reached (${Math.round(options.limits.maxWallMs / 1000)} s)` };
    deps.control.stop(ctx.pendingEnding.summary);
  }, Math.max(0, options.limits.maxWallMs - activeBeforeMs));
  wallTimer.unref?.();

  let ended = false;
  const done = (async (): Promise<RunResult> => {
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
    }
    ended = true;
    // Whatever happened, leave no key or button held.
    await options.computer.releaseAll().catch((error: unknown) =>
      emit({ type: 'error', message: `could not release every held key and button: ${errorText(error)} — check the keyboard and mouse`, fatal: false }),
    );
    emit({
      type: 'run_ended',
      status: ending.status,
      summary: ending.summary,
      steps: ctx.step,
      total: ctx.total,
      ...(ending.labels ? { labels: ending.labels } : {}),
    });
    emit({ type: 'state', state: 'ended', reason: ending.summary });
    // The audit log's last flush: a failure here means the last events may not be on
    // disk. It is said where the person looks (an error event, the result), never dropped.
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
    return {
      runId: log.runId,
      status: ending.status,
      summary: ending.summary,
      ...(ending.status === 'error' ? { errorCause: ending.errorCause ?? 'internal' } : {}),
      steps: ctx.step,
      costUsd: ctx.total.costUsd,
      ...(logError ? { logError } : {}),
    };
  })();

  return {
    runId: log.runId,
    dir: log.dir,
    done,
    // After the run ended these do nothing (its log is closed).
    stop: (reason) => void (ended || deps.control.stop(reason ?? 'stopped by the person')),
    pause: (reason) => void (ended || deps.control.pause(reason ?? 'paused by the person')),
    resume: () => void (ended || deps.control.resume()),
    answerApproval: (proposalId, answer, by) => deps.answerApproval(proposalId, answer, by),
    answerApprovalWithReason: (proposalId, answer, by) =>
      deps.answerApprovalWithReason ? deps.answerApprovalWithReason(proposalId, answer, by) : { accepted: deps.answerApproval(proposalId, answer, by) },
    answerQuestion: (questionId, answer, by) => questions.answer(questionId, answer, by),
    cancelCountdown: (proposalId) => deps.cancelCountdown?.(proposalId) ?? false,
  };
}

/** The configured display, or the primary one; an id that matches no display throws UnknownDisplayError. */
async function pickDisplay(options: RunOptions): Promise<DisplayInfo> {
  return pickDisplayFrom(await options.computer.listDisplays(), options.config.displayId);
}
