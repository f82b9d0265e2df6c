import path from 'node:path';
import { sleep } from '../../../shared/abort.js';
import { assertNever } from '../../../shared/assert-never.js';
import { downloadCachePath } from '../task/cache.js';
import { vmCommand, vmPath, type VmCommand } from '../task/command.js';
import type { CommandSpec, ConfigStep } from '../task/schema.js';
import type { DesktopShell } from './desktop-shell.js';
import { WindowWatch, type WindowMatch } from './window-watch.js';

/**
 * A task's setup steps (OSWorld's `config`, and `postconfig` before the check), run as the
 * person on the task's desktop: its DISPLAY, its bus, its HOME. A step that fails throws
 * an error naming it; the task is then an error, never the agent's failure.
 *
 * Windows are waited for, not slept on: `activate_window` and `close_window` wait up to
 * WINDOW_WAIT_MS for a matching window to be mapped (an app launched one step before is
 * often ~1–3 s from its window at a load of 8 on 2 cores), where OSWorld's tasks put a
 * `sleep` after a launch and hope. The wait reads X's own events on a connection of its own
 * (window-watch.ts), not a poll. 60 s (not measured as needed: headroom for loads of ~30 on
 * 2 cores, where one CLI test run in four saw an unexplained error); a program that cannot
 * start, or an `open` that xdg-open says it cannot do, fails at once (launchFailures), so the long wait is paid only by a window that never comes.
 */
export const WINDOW_WAIT_MS = 60_000;

export interface SetupContext {
  shell: DesktopShell;
  signal: AbortSignal;
  /** `download`: the task's id and the file cache (`--file-cache DIR`), when one was given. */
  taskId: string;
  fileCache?: string;
}

export async function runSetupSteps(steps: readonly ConfigStep[], context: SetupContext): Promise<void> {
  for (const [index, step] of steps.entries()) {
    if (context.signal.aborted) return;
    try {
      await runStep(step, context);
    } catch (error) {
      throw new Error(`step ${index + 1} (${step.type}): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  if (context.shell.launchFailures.length) throw new Error(`a launched program could not start or open its file: ${context.shell.launchFailures.join('; ')}`);
}

async function runStep(step: ConfigStep, { shell, signal, taskId, fileCache }: SetupContext): Promise<void> {
  switch (step.type) {
    case 'launch':
      shell.launch(argv(step.parameters.command, step.parameters.shell, shell));
      return;
    case 'execute':
    case 'command':
      await shell.run(argv(step.parameters.command, step.parameters.shell, shell), 120_000);
      return;
    case 'open':
      shell.launch(['xdg-open', vmPath(step.parameters.path, shell.home)], { opener: true });
      return;
    case 'sleep':
      await sleep(step.parameters.seconds * 1000, signal);
      return;
    case 'activate_window':
      return withWatch(shell, signal, async (watch) => {
        const id = await waitForWindow(shell, watch, step.parameters, signal);
        if (!(await watch.activate(id, ACTIVATE_WAIT_MS, signal, FAILURE_CHECK_MS))) await shell.run(['xdotool', 'windowactivate', '--sync', id], ACTIVATE_WAIT_MS);
      });
    case 'close_window':
      return withWatch(shell, signal, async (watch) => {
        const id = await waitForWindow(shell, watch, step.parameters, signal);
        await shell.run(['xdotool', 'windowclose', id], 10_000);
      });
    case 'download':
      for (const file of step.parameters.files) {
        if (!fileCache) throw new Error(`${file.url}: DeskPilot never downloads; give the file cache that holds it (--file-cache DIR)`);
        const cached = downloadCachePath(fileCache, taskId, file.url, file.path);
        const target = vmPath(file.path, shell.home);
        await shell.run(['mkdir', '-p', '--', path.dirname(target)]);
        await shell.run(['cp', '--', cached, target]);
      }
      return;
    default:
      return assertNever(step, 'setup step');
  }
}

/** OSWorld's reading of a command (task/command.ts vmCommand) as the argv to start. */
function argv(command: CommandSpec, shell: boolean | undefined, on: DesktopShell): readonly string[] {
  return vmArgv(vmCommand(command, shell, on.home));
}

/** A VmCommand as argv: a shell script is `sh -c script $0 $1…`, as Python's subprocess runs a list with shell=True. */
export function vmArgv(command: VmCommand): readonly string[] {
  return command.shell ? ['/bin/sh', '-c', command.script, ...command.args] : command.argv;
}

/** Checked at every X change and at least this often (ms): a launched program that failed (it makes no X event), the deadline. */
const FAILURE_CHECK_MS = 250;
/** The window manager's activation of a mapped window: ms on an idle machine; 10 s as xdotool's step had. */
const ACTIVATE_WAIT_MS = 10_000;

/** A window step's X connection to the task's desktop (window-watch.ts), closed when the step ends. */
async function withWatch(shell: DesktopShell, signal: AbortSignal, step: (watch: WindowWatch) => Promise<void>): Promise<void> {
  let watch: WindowWatch | undefined;
  try {
    watch = await WindowWatch.open(shell.env, signal);
    await step(watch);
  } catch (error) {
    // Ctrl-C during the wait: said as such, whether it came during the connect or the wait (not "no window within 60 s").
    if (signal.aborted) throw new Error('stopped while waiting for a window', { cause: error });
    throw error;
  } finally {
    watch?.close();
  }
}

async function waitForWindow(shell: DesktopShell, watch: WindowWatch, match: WindowMatch, signal: AbortSignal): Promise<string> {
  const start = Date.now();
  try {
    return await findWindow(shell, watch, match, signal);
  } finally {
    shell.windowWaitMs += Date.now() - start;
  }
}

async function findWindow(shell: DesktopShell, watch: WindowWatch, match: WindowMatch, signal: AbortSignal): Promise<string> {
  const deadline = Date.now() + WINDOW_WAIT_MS;
  const failed = () => shell.launchFailures.length > 0;
  const id = await watch.find(match, () => signal.aborted || failed() || Date.now() > deadline, FAILURE_CHECK_MS);
  if (id !== undefined) return id;
  if (failed()) throw new Error(`a launched program could not start or open its file: ${shell.launchFailures.join('; ')}`);
  throw new Error(`no window ${match.by_class ? 'of class' : 'titled'} "${match.window_name}" appeared within ${WINDOW_WAIT_MS / 1000} s`);
}
