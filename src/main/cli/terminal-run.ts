import type { Action } from '../../shared/actions.js';
import type { ApprovalAnswer } from '../../shared/approvals.js';
import type { RunEvent, RunEventOf } from '../../shared/events.js';
import type { RunHandle, RunOptions, RunResult } from '../agent/run-api.js';
import { approvalHelp, approvalQuestion, blockText, choiceReminder, choicesFor, editedAction, editQuestion, readChoice, type ProposalView } from './approval-prompt.js';
import { editBlock } from './block-edit.js';
import { codeBlockOf, withCode } from '../../shared/code-block.js';
import { NoDisplayError } from '../../os-control/displays.js';
import { ToolMissingError } from '../../os-control/exec.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { formatEvent } from './format-event.js';
import { LINE_LIMITS, LinePrompter } from './line-prompter.js';
import { shown } from './terminal-text.js';
import { WaitIndicator } from './wait-indicator.js';
import type { SandboxSummary } from '../../shared/sandbox.js';

export interface TerminalRunFlags {
  /** One event per line on stdout instead of readable lines. */
  json: boolean;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /** Reads the answers; one is made on `stdin` when absent (launchInTerminal makes it early to see an empty pipe). */
  prompter?: LinePrompter;
  /** What to tell a person whose key or base URL was refused ("check ANTHROPIC_API_KEY or --base-url"). */
  providerHint?: string;
  /** Starts the run; the agent's front door (launchRun, surface cli) unless a caller (tests) wants another. */
  start?: (options: RunOptions) => Promise<RunHandle>;
}

export { EXIT, exitCodeFor } from './exit-codes.js';

/** Why a run stops when nobody is left to answer its question. */
export const INPUT_ENDED = 'stopped: the terminal input ended while a question waited (no one can answer)';

/**
 * Runs the agent with the terminal as its supervisor: events printed (or JSON lines),
 * each held action asked on stdin (y/n/e/s/q/?), ask_user questions answered on
 * stdin, signs of life while the model thinks, Ctrl-C stops the run (keys released,
 * status stopped, exit 130). When stdin ends while something waits for an answer, the
 * run stops — it never carries on as if the person had said no. Resolves with the
 * exit code (exit-codes.ts).
 */
export async function runInTerminal(options: Omit<RunOptions, 'onEvent' | 'onDelta'>, flags: TerminalRunFlags): Promise<number> {
  const stdout = flags.stdout ?? process.stdout;
  const stderr = flags.stderr ?? process.stderr;
  const stdin = flags.stdin ?? process.stdin;
  const prompter = flags.prompter ?? new LinePrompter(stdin, stderr);
  const waiting = new WaitIndicator(stderr, { tty: (stderr as NodeJS.WriteStream).isTTY === true });
  const proposals = new Map<string, RunEventOf<'action_proposed'>>();
  const images = new Map<string, { width: number; height: number }>();
  let lastFatal: string | undefined;
  let resolveHandle!: (handle: RunHandle) => void;
  const handleReady = new Promise<RunHandle>((resolve) => (resolveHandle = resolve));
  let pausedExit: ((code: number) => void) | undefined;
  const paused = new Promise<number>((resolve) => (pausedExit = resolve));
  let stoppedForInput = false;

  const print = (line: string) => {
    waiting.clear();
    stdout.write(`${line}\n`);
  };
  const stopForInput = (handle: RunHandle) => {
    stoppedForInput = true;
    stderr.write(`deskpilot: ${INPUT_ENDED}\n`);
    handle.stop(INPUT_ENDED);
  };

  const onEvent = (event: RunEvent) => {
    if (flags.json) stdout.write(`${JSON.stringify(event)}\n`);
    else {
      const repeat = event.type === 'run_ended' && event.status === 'error' && event.summary === lastFatal;
      const line = formatEvent(repeat ? { ...event, summary: '' } : event);
      if (line) print(line);
    }
    followWait(event);
    if (event.type === 'error' && event.fatal) lastFatal = event.message;
    if (event.type === 'observation') images.set(event.observation.id, event.observation.image);
    if (event.type === 'action_proposed') proposals.set(event.proposalId, event);
    if (event.type === 'approval_requested') {
      const proposed = proposals.get(event.proposalId);
      void handleReady.then((handle) => askApproval(handle, event, proposed));
    }
    if (event.type === 'question_asked') {
      void handleReady.then(async (handle) => {
        const answer = await prompter.ask(`\nThe model asks: ${shown(event.question, '  ')}\n> `);
        if (answer === null) stopForInput(handle);
        else handle.answerQuestion(event.questionId, answer.text, 'cli');
      });
    }
    if (event.type === 'state' && event.state === 'paused' && event.reason.startsWith('provider unavailable')) {
      void handleReady.then(async (handle) => {
        if (!(stdin as NodeJS.ReadStream).isTTY) {
          stderr.write(`deskpilot: the run is paused (${shown(event.reason)}).\nContinue it later with: deskpilot sessions resume ${handle.runId}\n`);
          pausedExit?.(EXIT.paused);
          return;
        }
        const line = await prompter.ask(`The run is paused: ${shown(event.reason)}\nPress Enter to try again, or Ctrl-C to stop. `);
        if (line === null) pausedExit?.(EXIT.paused);
        else handle.resume();
      });
    }
  };

  // Signs of life: from a screenshot (or a retry) until the model's answer arrives.
  let model = options.profile.model;
  let sandbox: SandboxSummary | undefined;
  const followWait = (event: RunEvent) => {
    switch (event.type) {
      case 'run_started':
        model = event.model;
        sandbox = event.sandbox;
        return;
      case 'observation':
        waiting.start(model);
        return;
      case 'error':
        if (event.retryInMs === undefined) waiting.stop();
        return;
      case 'usage':
      case 'model_text':
      case 'action_proposed':
      case 'action_invalid':
      case 'approval_requested':
      case 'question_asked':
      case 'run_ended':
        waiting.stop();
        return;
      case 'state':
        if (event.state !== 'running') waiting.stop();
        return;
      case 'approval_answered':
      case 'action_denied':
      case 'action_executed':
      case 'question_answered':
        return;
    }
  };

  const askApproval = async (handle: RunHandle, requested: RunEventOf<'approval_requested'>, proposed: RunEventOf<'action_proposed'> | undefined) => {
    if (!proposed) {
      // Every request follows its proposal; without one there is nothing a person could judge.
      stderr.write(`deskpilot: an approval for an unknown proposal ${requested.proposalId}; stopping\n`);
      handle.stop('an approval arrived for a proposal the terminal never saw');
      return;
    }
    const image = proposed.observationId ? images.get(proposed.observationId) : undefined;
    const view: ProposalView = {
      step: proposed.step,
      action: proposed.action,
      reason: requested.decision.reason,
      ...(requested.window ? { window: requested.window } : {}),
      ...(requested.element ? { element: requested.element } : {}),
      ...(image ? { image } : {}),
      ...(sandbox ? { sandbox } : {}),
    };
    for (;;) {
      const line = await prompter.ask(approvalQuestion(view));
      if (line === null) return stopForInput(handle);
      if (line.cut) {
        stderr.write(`That answer is longer than ${LINE_LIMITS.maxLineBytes} bytes; it was not used.\n`);
        continue;
      }
      const offered = choicesFor(view.action);
      const choice = readChoice(line.text, offered);
      let answer: ApprovalAnswer | undefined;
      switch (choice) {
        case undefined:
          stderr.write(`${choiceReminder(offered)}\n`);
          continue;
        case 'help':
          stderr.write(approvalHelp(view));
          continue;
        case 'stop':
          handle.stop('stopped at the approval prompt');
          return;
        case 'yes':
          answer = { decision: 'approve' };
          break;
        case 'similar':
          answer = { decision: 'approve_similar' };
          break;
        case 'no': {
          const feedback = await prompter.ask('Why not? Feedback for the model (Enter for none): ');
          if (feedback === null) return stopForInput(handle);
          answer = { decision: 'reject', ...(feedback.text && !feedback.cut ? { feedback: feedback.text } : {}) };
          break;
        }
        case 'edit': {
          const edited = await askEdit(view);
          if (edited === null) return stopForInput(handle);
          if (!edited) continue;
          answer = { decision: 'edit', action: edited };
          break;
        }
      }
      const result = handle.answerApprovalWithReason
        ? handle.answerApprovalWithReason(requested.proposalId, answer, 'cli')
        : { accepted: handle.answerApproval(requested.proposalId, answer, 'cli') };
      if (result.accepted) return;
      stderr.write(`Not accepted: ${shown(result.reason ?? 'the run moved on')}\n`);
      // Answered elsewhere or the run moved on: nothing is waiting any more.
      if (!result.reason?.startsWith('edit refused')) return;
    }
  };

  /** The edited action, undefined to ask again (nothing to edit, a typo), null when stdin ended. */
  const askEdit = async (view: ProposalView): Promise<Action | undefined | null> => {
    const block = codeBlockOf(view.action);
    if (block && view.action.type === 'shell') {
      const edited = await editBlock(block, { prompter, stderr, env: process.env });
      if ('ended' in edited) return null;
      if ('unchanged' in edited) {
        stderr.write(`${shown(edited.unchanged)}\n`);
        return undefined;
      }
      // What runs is what the person sees here: the edited block, numbered like the question.
      const action = withCode(view.action, { language: block.language, code: edited.code });
      stderr.write(`The block as edited (this is what runs):${blockText(action)}\n`);
      return action;
    }
    const question = editQuestion(view.action, view.image);
    if (!question) {
      stderr.write('This action has nothing to edit.\n');
      return undefined;
    }
    const line = await prompter.ask(question);
    if (line === null) return null;
    if (line.cut) {
      stderr.write(`That answer is longer than ${LINE_LIMITS.maxLineBytes} bytes; it was not used.\n`);
      return undefined;
    }
    const edited = editedAction(view.action, line.text);
    if ('error' in edited) {
      stderr.write(`${edited.error}\n`);
      return undefined;
    }
    return edited.action;
  };

  // Ctrl-C is ours from the start: before the run exists it cancels the start, after
  // that it stops the run (keys released, status stopped); a second one quits at once.
  let interrupts = 0;
  let handle: RunHandle | undefined;
  const onSigint = () => {
    interrupts += 1;
    waiting.clear();
    if (interrupts === 1) {
      stderr.write('\nstopping… (Ctrl-C again to quit at once)\n');
      handle?.stop('stopped with Ctrl-C');
    } else {
      process.exit(EXIT.stopped);
    }
  };
  process.on('SIGINT', onSigint);

  try {
    // The runner (and the model SDKs behind it) load only when a run starts.
    const start = flags.start ?? (await import('../agent/index.js')).launcherFor('cli');
    handle = await start({ ...options, onEvent });
  } catch (error) {
    process.off('SIGINT', onSigint);
    prompter.close();
    waiting.stop();
    const { message, code } = startFailure(error);
    stderr.write(`deskpilot: ${shown(message)}\n`);
    return code;
  }
  resolveHandle(handle);
  if (interrupts > 0) handle.stop('stopped with Ctrl-C');

  try {
    const running = handle;
    const outcome = await Promise.race([running.done.then((result) => ({ result })), paused.then((code) => ({ code }))]);
    if ('code' in outcome) return outcome.code;
    if (outcome.result.logError) stderr.write(`deskpilot: warning: ${shown(outcome.result.logError)}\n`);
    return finalWords(outcome.result);
  } finally {
    waiting.stop();
    process.off('SIGINT', onSigint);
    prompter.close();
  }

  /** The last word on stderr, said once: what went wrong (in --json mode, where no line said it) and what to do. */
  function finalWords(result: RunResult): number {
    const code = exitCodeFor(result.status, result.errorCause);
    if (result.status === 'done' || (result.status === 'stopped' && stoppedForInput)) return code;
    const said = !flags.json; // the run_ended line said the summary already
    const what = said ? `run ${result.status}` : `run ${result.status}${result.summary ? `: ${shown(result.summary)}` : ''}`;
    const hint = result.errorCause === 'provider' && flags.providerHint ? `\n  ${flags.providerHint}` : '';
    stderr.write(`deskpilot: ${what} (exit ${code})${hint}\n`);
    return code;
  }
}

/** A run that could not start: the display id, a skill, the data folder … each with its exit code. */
function startFailure(error: unknown): { message: string; code: number } {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ToolMissingError || error instanceof NoDisplayError) return { message, code: EXIT.environment };
  // UnknownDisplayError, a missing skill, a run folder that cannot be resumed: the person's input.
  return { message, code: EXIT.usage };
}
