import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { errorText } from '../../../shared/error-text.js';
import { STOP_WITH_PARENT_VAR, stopProcessesWithEnv } from '../../process-tree.js';
import { AgentProcess, type AgentOutcome } from './agent-process.js';
import { DesktopShell } from './desktop-shell.js';
import { createTaskHome, type TaskHome } from './task-home.js';
import { decideStatus, type StatusOutcome } from './status.js';

/**
 * One task, one run, on a desktop of its own — as named steps:
 *   1. a fresh virtual desktop (the QA workers' desktop: Xvfb + openbox + a private session bus)
 *   2. a HOME of its own (an empty folder; the XDG folders under it; kept with a record of its owner, task-home.ts)
 *   3. the task's setup steps, run as the person on that desktop (a failure is an error, not the agent's)
 *   4. the agent: the model's run (`deskpilot run --policy auto --json`), the reference
 *      (`deskpilot replay --file`), or nothing (an anti-reference's setup made the end state)
 *   5. the checker, on the end state the agent left
 *   6. everything stopped: the apps, the desktop, the HOME removed
 *   7. the status (status.ts decideStatus)
 */

/** What the runner needs of a loaded task: the task module (eval/task) supplies it. */
export interface RunnableTask {
  id: string;
  instruction: string;
  /** Why this runner cannot run it (an unsupported setup step, getter or func), or undefined. */
  unsupported?: string;
  /** Runs the task's setup steps on `shell` (the person's desktop), throwing a clear error on a failed one. */
  setup(shell: DesktopShell, signal: AbortSignal): Promise<void>;
  /** The checker's score 0–1 on the end state and why; `claim` is the agent's own (for `infeasible`). Throws when it cannot judge. */
  check(shell: DesktopShell, claim: AgentOutcome['claim'], signal: AbortSignal): Promise<{ score: number; detail: string }>;
}

/** How the agent part of a task run is done. */
export type AgentPlan =
  /** A model's run: the argv after `deskpilot` (run … --policy auto --json …). */
  | { kind: 'run'; args: string[] }
  /** The reference trajectory replayed without a model. */
  | { kind: 'replay'; args: string[] }
  /** No agent: these commands make the end state (an anti-reference), and this claim is recorded. */
  | { kind: 'none'; commands: string[]; claim: AgentOutcome['claim'] };

export interface DesktopHandle {
  display: string;
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

export interface TaskRunDeps {
  startDesktop(): Promise<DesktopHandle>;
  /** Starts `deskpilot <args>` with this environment and cwd, stdout a JSON event stream. */
  spawnDeskpilot(args: string[], env: NodeJS.ProcessEnv, cwd: string): ChildProcess;
  /** DESKPILOT_HOME for the runs (config, profiles, where their sessions are kept). */
  deskpilotHome: string;
  /** Set in the run's environment so `run --virtual-display` knows it is already on its desktop. */
  onVirtualDisplayVar: string;
  onSpend?: (usd: number) => void;
  /** Said once the agent has started (for the progress line). */
  onAgentStart?: () => void;
  /** A problem after the verdict that does not change it (a task's HOME that could not be removed). */
  warn?: (text: string) => void;
}

/**
 * Where a task run's time went, seconds per phase (issue 32: the overhead per task, cut by
 * phase): the desktop's start, the setup steps (of which `windowWait` waited for windows:
 * an app's start to its first mapped window), the agent, the checker, the stop of
 * everything. A phase not reached is absent.
 */
export interface TaskPhases {
  desktop?: number;
  setup?: number;
  windowWait?: number;
  agent?: number;
  check?: number;
  stop?: number;
}

export interface TaskRunOutcome extends StatusOutcome {
  agent?: AgentOutcome;
  /** The agent's own claim (an anti-reference's is its file's): recorded beside the checker's verdict. */
  claim: AgentOutcome['claim'];
  seconds: number;
  /** Setup + check, the runner's own time per task (the bench's overhead). */
  overheadSeconds: number;
  phases?: TaskPhases;
}

export async function runTaskOnce(task: RunnableTask, plan: AgentPlan, deps: TaskRunDeps, signal: AbortSignal): Promise<TaskRunOutcome> {
  const started = Date.now();
  let overheadMs = 0;
  const phases: TaskPhases = {};
  const timed = async <T>(phase: keyof TaskPhases, part: () => Promise<T>): Promise<T> => {
    const start = Date.now();
    try {
      return await part();
    } finally {
      phases[phase] = (Date.now() - start) / 1000;
    }
  };
  const finish = (input: Parameters<typeof decideStatus>[0], agent?: AgentOutcome): TaskRunOutcome => ({
    ...decideStatus({ ...input, ...(signal.aborted ? { interrupted: interruptReason(signal) } : {}) }),
    ...(agent ? { agent } : {}),
    claim: agent ? agent.claim : plan.kind === 'none' ? plan.claim : 'none',
    seconds: (Date.now() - started) / 1000,
    overheadSeconds: overheadMs / 1000,
    // The stop (6.) runs after the verdict is made: `phases` is this object, filled in by then.
    phases,
  });
  if (task.unsupported) return finish({ skipped: task.unsupported });
  if (signal.aborted) return finish({});

  // 1.
  let desktop: DesktopHandle;
  try {
    desktop = await timed('desktop', () => deps.startDesktop());
  } catch (error) {
    return finish({ runnerError: `no virtual desktop: ${errorText(error)}` });
  }
  let taskHome: TaskHome | undefined;
  let shell: DesktopShell | undefined;
  try {
    // 2.
    taskHome = createTaskHome();
    const { home } = taskHome;
    const env = personEnv(desktop, home, deps);
    shell = new DesktopShell(env, home);
    // 3.
    const setupStart = Date.now();
    try {
      await task.setup(shell, signal);
      if (plan.kind === 'none') for (const command of plan.commands) await shell.run(command);
    } catch (error) {
      return finish({ setupError: errorText(error) });
    } finally {
      overheadMs += Date.now() - setupStart;
      phases.setup = (Date.now() - setupStart) / 1000;
      phases.windowWait = shell.windowWaitMs / 1000;
    }
    if (signal.aborted) return finish({});
    // 4.
    let agent: AgentOutcome | undefined;
    if (plan.kind !== 'none') {
      deps.onAgentStart?.();
      agent = await timed('agent', () => runAgent(plan.args, env, agentWorkspace(home), deps, signal));
      if (signal.aborted) return finish({}, agent);
      if (agent.askedPerson || agent.status === undefined || agent.status === 'error') return finish({ agent }, agent);
    }
    // 5.
    const checkStart = Date.now();
    let check: { score: number; detail: string } | { error: string };
    try {
      check = await task.check(shell, agent ? agent.claim : plan.kind === 'none' ? plan.claim : 'none', signal);
    } catch (error) {
      check = { error: errorText(error) };
    } finally {
      overheadMs += Date.now() - checkStart;
      phases.check = (Date.now() - checkStart) / 1000;
    }
    return finish({ check, ...(agent ? { agent } : {}) }, agent);
  } catch (error) {
    // The runner's own part (the HOME, the agent's process) failed: this task's error, never the eval's end.
    return finish({ runnerError: errorText(error) });
  } finally {
    // 6.
    await timed('stop', () => stopEverything(desktop, shell, taskHome, deps));
  }
}

/**
 * The task's end: its apps, whatever carries its HOME, its desktop, then the HOME itself.
 * Each part is tried whatever the one before did, and a failure is a warning: the verdict
 * is made, and the eval's other tasks still run (a Chromium still writing its profile made
 * the HOME's removal fail with ENOTEMPTY and ended a whole eval with exit 7).
 */
async function stopEverything(desktop: DesktopHandle, shell: DesktopShell | undefined, taskHome: TaskHome | undefined, deps: TaskRunDeps): Promise<void> {
  const attempt = async (what: string, part: () => Promise<unknown>) => {
    try {
      await part();
    } catch (error) {
      deps.warn?.(`${what}: ${errorText(error)}`);
    }
  };
  if (shell) await attempt("could not stop the task's apps", () => shell.stopAll());
  // What left its group (a browser's helpers, a daemonised child, an app the agent's own
  // shell started) still carries the task's HOME.
  if (taskHome) await attempt(`could not stop the processes of the task's home folder ${taskHome.home}`, () => stopProcessesWithEnv(`HOME=${taskHome.home}`));
  await attempt(`could not stop the task's virtual desktop ${desktop.display}`, () => desktop.stop());
  if (taskHome) await attempt(`could not remove the task's home folder ${taskHome.home}`, () => taskHome.remove());
}

/**
 * The person on the task's desktop: its display and bus, a HOME of its own with the XDG
 * folders under it (an app's settings and recent files start empty and stay there),
 * settings kept in memory (no dconf writes between tasks).
 *
 * GTK 4 apps draw with GTK's cairo renderer unless the desktop's environment names one: Xvfb
 * has no GPU, so GTK 4's default GL renderer runs in Mesa's software rasteriser and compiles
 * its shaders on the CPU at every start — gnome-calculator's first window took 7.1 s with it
 * and 3.6 s with cairo (median of 2 each, load ~27, 2 cores). The same widgets and theme are
 * drawn; GTK 3 apps (mousepad, gedit, thunar, the widget factory) never read it.
 */
function personEnv(desktop: DesktopHandle, home: string, deps: TaskRunDeps): NodeJS.ProcessEnv {
  return {
    ...desktop.env,
    GSK_RENDERER: desktop.env.GSK_RENDERER ?? 'cairo',
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    GSETTINGS_BACKEND: 'memory',
    DESKPILOT_HOME: deps.deskpilotHome,
    [deps.onVirtualDisplayVar]: desktop.display,
  };
}

/**
 * The agent's run as a child. Its stdin is closed: with --policy auto nothing is asked,
 * and whatever still would be (ask_user, an escalation, a provider safety check) finds the
 * input ended and stops the run at once (terminal-run.ts INPUT_ENDED) — it never hangs.
 * An interruption sends the child SIGINT (it stops its run, releases keys, exits 130).
 */
async function runAgent(args: string[], env: NodeJS.ProcessEnv, cwd: string, deps: TaskRunDeps, signal: AbortSignal): Promise<AgentOutcome> {
  const child = deps.spawnDeskpilot(args, { ...env, [STOP_WITH_PARENT_VAR]: String(process.pid) }, cwd);
  const process_ = new AgentProcess(child, deps.onSpend);
  const onAbort = () => {
    if (child.exitCode === null) child.kill('SIGINT');
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await process_.exited;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * The folder the agent's run starts in and is its sandbox's workspace: a folder inside the
 * task's HOME (the sandbox refuses a home folder as a workspace). The agent's own shell
 * commands may write there only; the task's apps, run as the person, write anywhere in HOME.
 */
function agentWorkspace(home: string): string {
  const dir = path.join(home, 'agent-workspace');
  mkdirSync(dir, { recursive: true });
  return dir;
}

function interruptReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : 'the eval was interrupted';
}
