import { evaluate } from '../check/evaluate.js';
import { localFiles } from '../check/local-vm.js';
import type { EvalEnv } from '../check/env.js';
import type { EvalTask, LoadResult } from '../task/index.js';
import type { DesktopShell } from './desktop-shell.js';
import { runSetupSteps, vmArgv } from './setup-steps.js';
import type { RunnableTask } from './task-run.js';

/**
 * A loaded task as the runner runs it: its config steps through the one step runner
 * (setup-steps.ts), its checker (eval/check evaluate) over "the VM" — the task's own
 * desktop and HOME. A task the loader skipped carries its reason and never starts a desktop.
 */
export function runnableTask(loaded: LoadResult, fileCache: string | undefined): RunnableTask & { file: string } {
  if (!loaded.ok) {
    return {
      id: loaded.id,
      instruction: loaded.instruction,
      file: loaded.file,
      unsupported: loaded.skip,
      setup: () => Promise.reject(new Error(`skipped: ${loaded.skip}`)),
      check: () => Promise.reject(new Error(`skipped: ${loaded.skip}`)),
    };
  }
  const task = loaded.task;
  return {
    id: task.id,
    instruction: task.instruction,
    file: task.file,
    setup: (shell, signal) => runSetupSteps(task.config, { shell, signal, taskId: task.id, ...(fileCache ? { fileCache } : {}) }),
    check: (shell, claim, signal) => evaluate(task, evalEnv(task, shell, claim, fileCache, signal)),
  };
}

function evalEnv(task: EvalTask, shell: DesktopShell, claim: 'done' | 'infeasible' | 'none', fileCache: string | undefined, signal: AbortSignal): EvalEnv {
  return {
    home: shell.home,
    fileCache,
    ...localFiles(),
    run: (command) => shell.exec(vmArgv(command)),
    runSteps: (steps, stepSignal) => runSetupSteps(steps, { shell, signal: stepSignal ?? signal, taskId: task.id, ...(fileCache ? { fileCache } : {}) }),
    agentSaidInfeasible: claim === 'infeasible',
    signal,
  };
}
