import { loadTask, TaskFileError } from '../eval/task/index.js';
import { resolveSuite, SuiteError, taskSet, type SuiteSource } from '../eval/suite/suite-dir.js';
import { runnableTask } from '../eval/run/runnable.js';
import type { EvalFlags } from './eval-command.js';
import { EvalRefusal } from './eval-refusal.js';

type RunnableTask = ReturnType<typeof runnableTask>;

/**
 * Step 1 of `deskpilot eval`: the tasks — where they come from, each file loaded (a
 * malformed one is refused naming it), no id twice, then --set and --task. Throws
 * EvalRefusal with what to fix.
 */
export async function evalTasks(source: string, flags: Pick<EvalFlags, 'fileCache' | 'set' | 'task'>): Promise<{ suite: SuiteSource; tasks: RunnableTask[] }> {
  const suite = suiteErrorsRefused(() => resolveSuite(source));
  if (suite.files.length === 0) throw new EvalRefusal(`${suite.tasksDir}: no task files (*.json) there`);
  const loaded: RunnableTask[] = [];
  for (const file of suite.files) {
    try {
      loaded.push(runnableTask(await loadTask(file), flags.fileCache));
    } catch (error) {
      if (error instanceof TaskFileError) throw new EvalRefusal(`malformed task file: ${error.message}`);
      throw error;
    }
  }
  const seen = new Map<string, string>();
  for (const t of loaded) {
    const other = seen.get(t.id);
    if (other) throw new EvalRefusal(`two task files have the id ${JSON.stringify(t.id)}: ${other} and ${t.file}`);
    seen.set(t.id, t.file);
  }
  let tasks = loaded;
  if (flags.set) {
    const ids = suiteErrorsRefused(() => taskSet(suite, flags.set!));
    const unknown = [...ids].filter((id) => !seen.has(id));
    if (unknown.length) throw new EvalRefusal(`set ${flags.set} names tasks that are not in ${suite.tasksDir}: ${unknown.join(', ')}`);
    tasks = tasks.filter((t) => ids.has(t.id));
  }
  const named = flags.task;
  if (named?.length) {
    const unknown = named.filter((id) => !seen.has(id));
    if (unknown.length) throw new EvalRefusal(`no such task in ${suite.tasksDir}: ${unknown.join(', ')}`);
    tasks = tasks.filter((t) => named.includes(t.id));
  }
  return { suite, tasks };
}

/** A suite folder or set the person must fix is a refusal in its own words. */
function suiteErrorsRefused<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof SuiteError) throw new EvalRefusal(error.message);
    throw error;
  }
}
