import type { VmCommand } from '../task/command.js';
import type { ConfigStep } from '../task/schema.js';

/**
 * "The VM" a checker reads: the task's own desktop (its HOME, its DISPLAY). The runner
 * builds one per task run; the checkers see nothing else, so they are tested against
 * hand-made end states through the same interface.
 */
export interface EvalEnv {
  /** The desktop's HOME: "~", relative paths and OSWorld's /home/user map here (task/command.ts vmPath). */
  home: string;
  /** `--file-cache DIR` (OSWorld's cache layout, task/cache.ts); undefined without the flag. */
  fileCache: string | undefined;
  /** A file of the desktop, by absolute path; null when there is none (or it is not a regular file). */
  readFile(file: string): Promise<Buffer | null>;
  /** A folder as OSWorld's /list_directory tree; null when it is not a folder. */
  listDirectory(dir: string): Promise<DirectoryTree | null>;
  /**
   * Runs a command on the desktop as the person (HOME, DISPLAY of the task) to its end and
   * returns its output whatever its exit status, as OSWorld's /execute does; null when it
   * could not be started or ran past its limit (OSWorld: the getter returns None).
   */
  run(command: VmCommand, signal?: AbortSignal): Promise<VmRunResult | null>;
  /** Runs setup steps (the evaluator's postconfig) the way the runner runs a task's config. */
  runSteps(steps: ConfigStep[], signal?: AbortSignal): Promise<void>;
  /**
   * The agent ended the run saying the task cannot be done: `fail("why")`, or `finish`
   * with success false (OSWorld: the last action was FAIL).
   */
  agentSaidInfeasible: boolean;
  signal?: AbortSignal;
}

export interface VmRunResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
}

/** OSWorld's /list_directory answer (desktop_env/server/main.py `_list_dir_contents`). */
export type DirectoryTree = { type: 'directory'; name: string; children: Array<DirectoryTree | { type: 'file'; name: string }> };

/** What a checker decided: OSWorld's number (0–1) and one sentence on why. */
export interface CheckOutcome {
  score: number;
  detail: string;
}

/**
 * A checker could not judge for a reason that is not the agent's: a reference file missing
 * from the file cache, an expected workbook that does not open. The runner records the
 * task as an error (never a failure of the agent) and the eval goes on.
 */
export class CheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckError';
  }
}
