import { readFile } from 'node:fs/promises';
import { assertNever } from '../../../shared/assert-never.js';
import { cacheFilePath } from '../task/cache.js';
import { vmCommand, vmPath } from '../task/command.js';
import type { Getter } from '../task/schema.js';
import { CheckError, type EvalEnv } from './env.js';
import { VmFile } from './values.js';

/**
 * OSWorld's getters (desktop_env/evaluators/getters: file.py, general.py, info.py, misc.py)
 * over an EvalEnv: what a metric function gets as `result` or `expected`.
 *
 *   vm_file         VmFile (bytes null when the file is not there), or a list with multi+gives
 *   vm_command_line the command's stdout (null when it could not run, as OSWorld's None)
 *   list_directory  {type: "directory", name, children} (null when not a folder)
 *   rule            `rules` as the task file has it
 *   cloud_file      VmFile from <cache>/<task id>/<dest> — missing there: CheckError, the task's fault
 *   cache_file      VmFile from <cache>/<task id>/<path> — likewise
 */
export async function getValue(getter: Getter, env: EvalEnv, taskId: string): Promise<unknown> {
  switch (getter.type) {
    case 'vm_file': {
      const paths = Array.isArray(getter.path) ? getter.path : [getter.path];
      const files = await Promise.all(paths.map(async (p) => new VmFile(vmPath(p, env.home), await env.readFile(vmPath(p, env.home)))));
      return pick(files, getter.multi ? getter.gives : undefined);
    }
    case 'cloud_file': {
      const dests = Array.isArray(getter.dest) ? getter.dest : [getter.dest];
      const files = await Promise.all(dests.map((dest) => cachedFile(env, taskId, dest, 'cloud_file')));
      return pick(files, getter.multi ? getter.gives : undefined);
    }
    case 'cache_file':
      return cachedFile(env, taskId, getter.path, 'cache_file');
    case 'vm_command_line': {
      const ran = await env.run(vmCommand(getter.command, getter.shell, env.home), env.signal);
      return ran === null ? null : ran.stdout;
    }
    case 'list_directory':
      return env.listDirectory(vmPath(getter.path, env.home));
    case 'rule':
      return getter.rules;
    default:
      return assertNever(getter, 'getter');
  }
}

/** `gives` (default [0]): one file is handed over as it is, several as a list. */
function pick(files: VmFile[], gives: number[] | undefined): VmFile | VmFile[] {
  const chosen = (gives ?? [0]).map((i) => files[i]!);
  return chosen.length === 1 ? chosen[0]! : chosen;
}

async function cachedFile(env: EvalEnv, taskId: string, name: string, kind: string): Promise<VmFile> {
  if (env.fileCache === undefined) throw new CheckError(`${kind} "${name}" is read from the file cache: run with --file-cache DIR`);
  const file = cacheFilePath(env.fileCache, taskId, name);
  try {
    return new VmFile(file, await readFile(file));
  } catch (error) {
    throw new CheckError(`${kind} "${name}" is not in the file cache (${file}): ${(error as Error).message}`);
  }
}
