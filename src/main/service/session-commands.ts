import { deleteSession, listSessions, openSession, runDir } from '../sessions/history.js';
import { mediaTypeOf, readFileInRun, resolveInRun } from '../sessions/files.js';
import { errorText } from './bridge-errors.js';
import type { CommandHandlers } from './command-handlers.js';
import { openEvalReport } from './eval-report.js';
import { exportForBridge, type ImageRedactor, type TrajectoryExporter } from './export-run.js';
import { BridgeError, type BridgeService, type ServiceHost } from './types.js';

/** What the history commands need of the service. */
export interface SessionDeps {
  home: string;
  host: ServiceHost | undefined;
  /** The run active now: it may not be deleted. */
  activeRunId: () => string | undefined;
  exportTrajectory: TrajectoryExporter | undefined;
  redactImage: ImageRedactor | undefined;
}

/** The past runs: list, open, delete, export, and an eval's report. */
export function sessionCommands(deps: SessionDeps): CommandHandlers<'sessions.list' | 'sessions.open' | 'sessions.delete' | 'sessions.export' | 'eval.report'> {
  const { home } = deps;
  /** A run that cannot be read, found or written is `not_found`, with the reason. */
  const notFound = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw new BridgeError('not_found', errorText(error));
    }
  };
  return {
    'sessions.list': async (input) => ({
      sessions: (await listSessions(home, input.query ? { query: input.query } : {})).map(({ summaryText: _summary, ...s }) => s),
    }),
    'sessions.open': async (input) => notFound(async () => ({ events: (await openSession(home, input.runId)).events })),
    'sessions.delete': async (input) => {
      if (deps.activeRunId() === input.runId) throw new BridgeError('conflict', 'this run is active; stop it first');
      await notFound(() => deleteSession(home, input.runId));
      return {};
    },
    'sessions.export': async (input) => notFound(() => exportForBridge(home, input, deps.exportTrajectory, deps.redactImage)),
    'eval.report': async (input) => openEvalReport(home, input.runId, deps.host?.openPath?.bind(deps.host)),
  };
}

/** A file of a past run, for the page (its screenshots): a path that leaves the run's folder is `invalid`, a missing file `not_found`. */
export async function readRunFile(home: string, runId: string, relativePath: string): ReturnType<BridgeService['readRunFile']> {
  let dir: string;
  try {
    dir = runDir(home, runId);
    resolveInRun(dir, relativePath);
  } catch (error) {
    throw new BridgeError('invalid', errorText(error));
  }
  try {
    return { data: await readFileInRun(dir, relativePath), mediaType: mediaTypeOf(relativePath) };
  } catch {
    throw new BridgeError('not_found', `no file ${relativePath} in run ${runId}`);
  }
}
