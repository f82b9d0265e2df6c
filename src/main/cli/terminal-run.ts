import { describeAction, type Action } from '../../shared/actions.js';
import type { ApprovalAnswer } from '../../shared/approvals.js';
import type { RunEvent } from '../../shared/events.js';
import type { RunHandle, RunOptions } from '../agent/run-api.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { formatEvent } from './format-event.js';
import { LinePrompter } from './line-prompter.js';

export interface TerminalRunFlags {
  /** One event per line on stdout instead of readable lines. */
  json: boolean;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /** Starts the run; startRun unless a caller (tests) wants another. */
  start?: (options: RunOptions) => Promise<RunHandle>;
}

export { EXIT, exitCodeFor } from './exit-codes.js';

/**
 * Runs the agent with the terminal as its supervisor: events printed (or JSON lines),
 * each held action asked y/n/r on stdin, ask_user questions answered on stdin, Ctrl-C
 * stops the run (keys released, status stopped, exit 130). Resolves with the exit code.
 */
export async function runInTerminal(options: Omit<RunOptions, 'onEvent' | 'onDelta'>, flags: TerminalRunFlags): Promise<number> {
  const stdout = flags.stdout ?? process.stdout;
  const stderr = flags.stderr ?? process.stderr;
  const stdin = flags.stdin ?? process.stdin;
  const prompter = new LinePrompter(stdin, stderr);
  const proposals = new Map<string, Action>();
  let resolveHandle!: (handle: RunHandle) => void;
  const handleReady = new Promise<RunHandle>((resolve) => (resolveHandle = resolve));
  let pausedExit: ((code: number) => void) | undefined;
  const paused = new Promise<number>((resolve) => (pausedExit = resolve));

  const onEvent = (event: RunEvent) => {
    if (flags.json) stdout.write(`${JSON.stringify(event)}\n`);
    else {
      const line = formatEvent(event);
      if (line) stdout.write(`${line}\n`);
    }
    if (event.type === 'action_proposed') proposals.set(event.proposalId, event.action);
    if (event.type === 'approval_requested') {
      const action = proposals.get(event.proposalId);
      void handleReady.then((handle) => askApproval(handle, event.proposalId, action, event.decision.reason));
    }
    if (event.type === 'question_asked') {
      void handleReady.then(async (handle) => {
        const answer = await prompter.ask(`\nThe model asks: ${event.question}\n> `);
        handle.answerQuestion(event.questionId, answer ?? '', 'cli');
      });
    }
    if (event.type === 'state' && event.state === 'paused' && event.reason.startsWith('provider unavailable')) {
      void handleReady.then(async (handle) => {
        if (!(stdin as NodeJS.ReadStream).isTTY) {
          stderr.write(`deskpilot: the run is paused (${event.reason}).\nContinue it later with: deskpilot sessions resume ${handle.runId}\n`);
          pausedExit?.(EXIT.paused);
          return;
        }
        const line = await prompter.ask(`The run is paused: ${event.reason}\nPress Enter to try again, or Ctrl-C to stop. `);
        if (line === null) pausedExit?.(EXIT.paused);
        else handle.resume();
      });
    }
  };

  const askApproval = async (handle: RunHandle, proposalId: string, action: Action | undefined, reason: string) => {
    const what = action ? describeAction(action) : proposalId;
    for (;;) {
      const line = await prompter.ask(`\nAllow: ${what}?  (${reason})\n[y]es / [n]o / [r]eject with feedback / [a]pprove all like this: `);
      let answer: ApprovalAnswer | undefined;
      if (line === null) answer = { decision: 'reject', feedback: 'no answer: the terminal input closed' };
      else if (/^y(es)?$/i.test(line)) answer = { decision: 'approve' };
      else if (/^a(ll)?$/i.test(line)) answer = { decision: 'approve_similar' };
      else if (/^n(o)?$/i.test(line)) answer = { decision: 'reject' };
      else if (/^r(eject)?$/i.test(line)) {
        const feedback = await prompter.ask('Feedback for the model: ');
        answer = { decision: 'reject', ...(feedback ? { feedback } : {}) };
      }
      if (!answer) continue;
      handle.answerApproval(proposalId, answer, 'cli');
      return;
    }
  };

  // Ctrl-C is ours from the start: before the run exists it cancels the start, after
  // that it stops the run (keys released, status stopped); a second one quits at once.
  let interrupts = 0;
  let handle: RunHandle | undefined;
  const onSigint = () => {
    interrupts += 1;
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
    const start = flags.start ?? (await import('../agent/runner.js')).startRun;
    handle = await start({ ...options, onEvent });
  } catch (error) {
    process.off('SIGINT', onSigint);
    prompter.close();
    stderr.write(`deskpilot: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.usage;
  }
  resolveHandle(handle);
  if (interrupts > 0) handle.stop('stopped with Ctrl-C');

  try {
    const running = handle;
    const outcome = await Promise.race([running.done.then((result) => ({ result })), paused.then((code) => ({ code }))]);
    if ('code' in outcome) return outcome.code;
    const { result } = outcome;
    if (result.logError) stderr.write(`deskpilot: warning: ${result.logError}\n`);
    if (result.status !== 'done') {
      stderr.write(`deskpilot: run ${result.status}${result.summary ? `: ${result.summary}` : ''}\n`);
    }
    return exitCodeFor(result.status);
  } finally {
    process.off('SIGINT', onSigint);
    prompter.close();
  }
}
