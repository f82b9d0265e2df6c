import type { RunEvent, RunEventOf } from '../../shared/events.js';
import type { RunHandle, RunOptions, RunResult } from '../agent/run-api.js';
import { askApproval, askQuestion, offerRetry } from './terminal-approval.js';
import { NoDisplayError } from '../../os-control/displays.js';
import { ToolMissingError } from '../../os-control/exec.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { formatEvent } from './format-event.js';
import { LinePrompter } from './line-prompter.js';
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
      const image = proposed?.observationId ? images.get(proposed.observationId) : undefined;
      void handleReady.then((handle) => askApproval({ prompter, stderr, stopForInput }, handle, event, proposed, { ...(image ? { image } : {}), ...(sandbox ? { sandbox } : {}) }));
    }
    if (event.type === 'question_asked') {
      void handleReady.then((handle) => askQuestion({ prompter, stderr, stopForInput }, handle, event));
    }
    if (event.type === 'state' && event.state === 'paused' && event.reason.startsWith('provider unavailable')) {
      void handleReady.then(async (handle) => {
        if (await offerRetry({ prompter, stderr, stopForInput }, handle, event.reason, (stdin as NodeJS.ReadStream).isTTY === true)) handle.resume();
        else pausedExit?.(EXIT.paused);
      });
    }
  };

  // Signs of life: from a screenshot (or a retry) until the model's answer arrives.
  let model = options.profile.model;
  let sandbox: SandboxSummary | undefined;
  const followWait = (event: RunEvent) => {
    if (event.type === 'run_started') {
      model = event.model;
      sandbox = event.sandbox;
    }
    followWaitSign(waiting, event, model);
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

/** The "waiting for the model" sign: on from a screenshot (or a retry) until anything of the model's answer arrives. */
function followWaitSign(waiting: WaitIndicator, event: RunEvent, model: string): void {
  switch (event.type) {
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
    case 'run_started':
    case 'approval_answered':
    case 'action_denied':
    case 'action_executed':
    case 'question_answered':
      return;
  }
}
