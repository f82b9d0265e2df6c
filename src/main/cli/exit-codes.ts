import type { RunStatus } from '../../shared/events.js';
import type { RunErrorCause } from '../agent/run-api.js';
import { assertNever } from '../../shared/assert-never.js';

/**
 * Exit codes of `deskpilot run` and `deskpilot sessions resume` — the one table (the
 * README's "Exit codes" repeats it). Scripts branch on these, so a code never changes
 * meaning: 3 and 4 kept theirs when 5–7 were added.
 */
export const EXIT = {
  /** The model finished the task and said it succeeded. */
  done: 0,
  /** The model could not do the task (it gave up or refused, or its replies could not be read even after it was told the expected format). */
  failed: 1,
  /** A usage error: bad command line, config or input; no terminal to ask in an asking policy; an unknown display id. */
  usage: 2,
  /** A limit ended the run (steps, cost, wall time). */
  limit: 3,
  /** The run is paused (the model provider was unavailable) and can be resumed later. */
  paused: 4,
  /** The model provider refused the request (401/403 key, unknown model, bad request) or never answered within the request timeout. */
  provider: 5,
  /** The environment is missing something: no X display, a missing program or prerequisite. */
  environment: 6,
  /** DeskPilot itself failed (a bug): please report it with the run's folder. */
  internal: 7,
  /** Stopped: Ctrl-C, `q` at a prompt, or the terminal input ended while a question waited. */
  stopped: 130,
} as const;

export type ExitName = keyof typeof EXIT;

/** The exit code for how a run ended; an `error` ending is told apart by its cause. */
export function exitCodeFor(status: RunStatus, cause?: RunErrorCause): number {
  switch (status) {
    case 'done':
      return EXIT.done;
    case 'failed':
      return EXIT.failed;
    case 'limit':
      return EXIT.limit;
    case 'stopped':
      return EXIT.stopped;
    case 'error':
      switch (cause) {
        case 'provider':
          return EXIT.provider;
        case 'model':
          return EXIT.failed;
        case 'environment':
          return EXIT.environment;
        case 'internal':
        case undefined:
          return EXIT.internal;
        default:
          return assertNever(cause, 'run error cause');
      }
  }
}

/** Says why on stderr (`deskpilot: …`) and gives the exit code to leave with. */
export function failWith(message: string, code: number): number {
  process.stderr.write(`deskpilot: ${message}\n`);
  return code;
}

/**
 * Leaves with the command's code once stdout has drained. Explicitly: native input and
 * capture handles (and a run's sockets) can keep Node alive after the command is done.
 */
export async function exitWhenDrained(code: number): Promise<never> {
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  process.exit(code);
}
