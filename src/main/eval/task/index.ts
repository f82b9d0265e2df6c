/**
 * `deskpilot eval`'s task format and checkers (issue 32): the one entry the runner uses.
 *
 *   loadTask(file)        → {ok: true, task} | {ok: false, skip} ; malformed → TaskFileError
 *   evaluate(task, env)   → {score 0–1, detail}                   ; cannot judge → throws
 *   vmCommand / vmPath    how "the VM" reads a command and a path (setup steps and getters alike)
 *   downloadCachePath     where a download step's URL is found in --file-cache DIR
 */
export { loadTask, parseTask, TaskFileError, MAX_TASK_FILE_BYTES, type LoadResult } from './load.js';
export {
  CONFIG_STEP_TYPES,
  GETTER_TYPES,
  FUNC_NAMES,
  type Check,
  type CommandSpec,
  type ConfigStep,
  type ConfigStepType,
  type EvalTask,
  type Evaluator,
  type FuncName,
  type Getter,
} from './schema.js';
export { vmCommand, vmPath, shlexSplit, CommandSyntaxError, type VmCommand } from './command.js';
export { downloadCachePath, cacheFilePath, taskCacheDir, uuid5 } from './cache.js';
export { evaluate } from '../check/evaluate.js';
export { localFiles, MAX_CHECKED_FILE_BYTES } from '../check/local-vm.js';
export { CheckError, type CheckOutcome, type DirectoryTree, type EvalEnv, type VmRunResult } from '../check/env.js';
