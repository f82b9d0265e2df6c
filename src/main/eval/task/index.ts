/**
 * `deskpilot eval`'s task format (issue 32): the one entry the runner uses. The checkers
 * are check/'s (`evaluate` in check/evaluate.ts), which reads this folder's schema: this
 * file does not re-export them, so the two folders do not import each other.
 *
 *   loadTask(file)        → {ok: true, task} | {ok: false, skip} ; malformed → TaskFileError
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
