import type { RunEvent, RunEventInput } from '../../shared/events.js';
import type { Driver } from './driver.js';
import type { RunHandle, RunOptions } from './run-api.js';
import type { DepsFactory } from './runner/context.js';
import type { FileRunLog } from '../sessions/run-log.js';

/**
 * The front door to the agent (issue 29 item 1). Every surface starts a run here —
 * the desktop app and `deskpilot serve` (service/bridge-service.ts), `deskpilot run` and
 * `resume` and the eval runner's runs (cli/terminal-run.ts), QA workers
 * (cli/qa-command.ts, qa-parallel.ts), `deskpilot mcp` (run_task and the client-driven
 * session), `deskpilot acp`, `deskpilot replay` and QA's cached replays (agent/replay,
 * a driver of its own) — so each one passes the same start: the gate with the config's
 * rules, the log's scrubber, the one describer, the run's sandbox (runner/start-run.ts's
 * ten steps). Outside `agent/`, lint refuses imports of the
 * runner itself (eslint.config.js): what a surface needs of the agent's start is here.
 *
 * This file stays light: the CLI imports it at start for `resolveRunChoices`, and the
 * runner (with os-control, whose nut.js binds to the X display when first loaded) loads
 * only when a run starts or `loadRunner` asks for it.
 */

/** Where a run was asked for: logged as its `source` label (History finds `source:mcp`). */
export const SURFACES = ['app', 'serve', 'cli', 'qa', 'mcp', 'acp'] as const;
export type Surface = (typeof SURFACES)[number];

/** What the person or client asked for, and with what (everything of RunOptions but where its events go). */
export interface RunRequest extends Omit<RunOptions, 'onEvent' | 'onDelta'> {
  surface: Surface;
  /**
   * Who proposes the actions, when not the profile's model: the MCP client of a
   * `deskpilot mcp` session answers the turns itself (ClientAsModel). The run keeps
   * exactly the supervision of a model run (gate, control, takeover watch).
   */
  driver?: (options: RunOptions, run: DriverRun) => Driver;
}

/** What a driver may use of the run it drives, given when the run starts (its log exists then). */
export interface DriverRun {
  /** The run's log: a secret told to it is masked everywhere it writes; a replay's divergence report goes into its folder. */
  log: FileRunLog;
  /** The profile's own model, as a run without a driver would use it (a replay's healer). */
  model(): Driver;
}

/** Where a run's events and streamed text go (the surface's view of it). */
export type RunHost = Pick<RunOptions, 'onEvent' | 'onDelta'>;

/** Starts one run (or resumes one: `resumeRunId`) and returns its handle at once; `done` resolves when it ends. */
export async function launchRun(request: RunRequest, host: RunHost = {}): Promise<RunHandle> {
  const [{ startRunWith }, { createDefaultDeps, createRunProvider, createSupervisedDeps }] = await loadRunner();
  const { surface, driver, ...rest } = request;
  const options: RunOptions = {
    ...rest,
    // The surface is said once, by the door; a caller's own `source` (none today) is kept.
    labels: { source: surface, ...rest.labels },
    ...(host.onEvent ? { onEvent: host.onEvent } : {}),
    ...(host.onDelta ? { onDelta: host.onDelta } : {}),
  };
  const deps: DepsFactory = driver
    ? (o, emit: (event: RunEventInput) => RunEvent, log) => createSupervisedDeps(o, emit, driver(o, { log, model: () => createRunProvider(o) }))
    : createDefaultDeps;
  return startRunWith(options, deps);
}

/** Loads the runner ahead of the first run (the terminal does it while it asks for the key), so the run starts at once. */
export function loadRunner() {
  return Promise.all([import('./runner/start-run.js'), import('./runner/deps.js')]);
}

/**
 * `launchRun` for a caller that holds whole RunOptions (its hooks included) and lets a
 * test pass another starter: the bridge service, the terminal run, the QA runner.
 */
export function launcherFor(surface: Surface): (options: RunOptions) => Promise<RunHandle> {
  return ({ onEvent, onDelta, ...request }) => launchRun({ ...request, surface }, { ...(onEvent ? { onEvent } : {}), ...(onDelta ? { onDelta } : {}) });
}

export type { RunErrorCause, RunHandle, RunOptions, RunResult } from './run-api.js';
export type { Driver, DriverTurnRequest } from './driver.js';
export { resolveRunChoices, type RunChoices } from './runner/choices.js';
export { decideKeyDestination } from './runner/key-destination.js';
