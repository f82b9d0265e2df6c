import { readCappedText } from '../../read-capped.js';
import path from 'node:path';
import type { Rect } from '../../../shared/actions.js';
import { TRAJECTORY_FILE, TrajectorySchema, type Trajectory } from '../../../shared/trajectory.js';
import { warmUpDecoding } from '../../../os-control/screen-match.js';
import { writePrivateFile } from '../../private-files.js';
import { readFileInRun } from '../../sessions/files.js';
import { launchRun, type RunHandle, type RunOptions, type RunResult, type Surface } from '../index.js';
import type { ModelCall } from '../transcript.js';
import { deriveTrajectory, trajectoryOfRun } from './derive.js';
import { REPLAY_LABELS } from './labels.js';
import { writeDivergenceReport, type DivergenceReport } from './report.js';
import { ReplayProvider, type ReplayMode, type ReplayStats } from './replay-provider.js';

export { deriveTrajectory, trajectoryOfRun, textUnder, PATCH_SIZE } from './derive.js';
export { exportTrajectory } from './export.js';
export { ReplayProvider, SCREEN_MATCH, type Divergence, type ReplayMode, type ReplayStats } from './replay-provider.js';
export { findTarget, type TargetLookup, type TargetRule } from './find-target.js';
export { DIVERGENCE_FILES, divergenceMarkdown, type DivergenceReport } from './report.js';
export { REPLAY_LABELS, REPLAY_CALL_PREFIX } from './labels.js';
export { secretsWanted, type SecretWanted } from './secrets-wanted.js';

/** A trajectory and the folder its relative file names (screens, patches) resolve in. */
export interface LoadedTrajectory {
  trajectory: Trajectory;
  /** The folder of the trajectory file (a run folder, or an export). */
  dir: string;
}

/** The trajectory of a run folder (derived from its events when not cached). */
export async function trajectoryOfRunDir(dir: string): Promise<LoadedTrajectory> {
  return { trajectory: await trajectoryOfRun(dir), dir };
}

/**
 * A trajectory holds steps and the paths of their screenshots, not the images: a
 * 1,000-step recording is a few MiB, so 64 MiB is no trajectory.
 */
export const MAX_TRAJECTORY_BYTES = 64 * 1024 * 1024;

/** A trajectory file (`deskpilot sessions export --format trajectory`, or a run folder's trajectory.json), checked with its schema. */
export async function loadTrajectoryFile(file: string): Promise<LoadedTrajectory> {
  const full = path.resolve(file);
  let json: unknown;
  try {
    json = JSON.parse(await readCappedText(full, { maxBytes: MAX_TRAJECTORY_BYTES, what: 'a trajectory file' }));
  } catch (error) {
    throw new Error(`${file} is not a trajectory file: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const parsed = TrajectorySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file} is not a valid trajectory: ${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`);
  }
  return { trajectory: parsed.data, dir: path.dirname(full) };
}

export interface ReplayOptions {
  /** Who asked for the replay (`deskpilot replay`: cli; a QA case from its cache: qa), logged as the run's source. */
  surface: Surface;
  source: LoadedTrajectory;
  mode: ReplayMode;
  /** The calls that end a replay that reached the recorded final screen (replay-provider.ts endCalls). */
  endCalls?: () => ModelCall[];
  /**
   * Secrets a person gave for the trajectory's secretRef variables (secrets-wanted.ts), by
   * variable name; looked up before the environment. Never logged: each is told to the
   * log's scrubber before the step that types it is returned.
   */
  secrets?: Readonly<Record<string, string>>;
}

export interface ReplayHandle extends RunHandle {
  readonly provider: ReplayProvider;
  /** The run's result once the healed trajectory (when the model healed a step) is written. */
  readonly replayed: Promise<ReplayOutcome>;
}

export interface ReplayOutcome {
  result: RunResult;
  stats: ReplayStats;
  /** Set when a strict replay diverged. */
  divergence?: DivergenceReport;
  /** Set when the model healed a step and the run succeeded: the new trajectory's file and revision. */
  healed?: { file: string; revision: number };
}

/**
 * Replays a trajectory as a run (replay-provider.ts): started like any run, through the
 * front door (agent/index.ts launchRun) with the replay as its driver, so it gets the
 * supervised gate, control and takeover watch of every run, and the policy and the
 * approval queue decide every replayed action. `options.task` and the labels are the
 * trajectory's; the profile is the healing model's (unused in strict mode).
 */
export async function startReplay(options: RunOptions, replay: ReplayOptions): Promise<ReplayHandle> {
  const { trajectory, dir } = replay.source;
  // While the run starts (~140 ms to its first screenshot), not inside the first step.
  void warmUpDecoding();
  const readTrajectoryFile = (relativePath: string) => readFileInRun(dir, relativePath);
  let provider: ReplayProvider | undefined;
  let divergence: DivergenceReport | undefined;
  let runRegions: readonly Rect[] = [];
  const { onEvent, onDelta, ...request } = options;
  const handle = await launchRun(
    {
      ...request,
      surface: replay.surface,
      // No model looks at a strict replay's screenshots: no element list or marks each step
      // (a tree read, ~100–250 ms); the gate still reads the tree when a rule or a person needs it.
      ...(replay.mode === 'strict' ? { profile: { ...options.profile, grounding: 'pixels' as const } } : {}),
      task: trajectory.task,
      // A strict replay's own trajectory would be its source's: no targets to read. A healing one is the next revision.
      readTargets: replay.mode === 'heal',
      labels: {
        ...options.labels,
        [REPLAY_LABELS.of]: trajectory.runId,
        [REPLAY_LABELS.revision]: String(trajectory.revision),
        [REPLAY_LABELS.mode]: replay.mode,
      },
      driver: (runOptions, run) => {
        provider = new ReplayProvider({
          trajectory,
          mode: replay.mode,
          computer: runOptions.computer,
          readFile: readTrajectoryFile,
          ...(replay.mode === 'heal' ? { healer: run.model() } : {}),
          ...(replay.endCalls ? { endCalls: replay.endCalls } : {}),
          ...(replay.secrets ? { env: { ...process.env, ...replay.secrets } } : {}),
          markSecret: (value) => run.log.markSecret(value),
          onDivergence: async (d) => {
            divergence = await writeDivergenceReport(run.log, trajectory, d, readTrajectoryFile, runRegions);
          },
        });
        // The secret regions the run stores its latest screenshot with: a divergence's seen screen is that screenshot.
        run.log.subscribe((event) => {
          if (event.type === 'observation') runRegions = event.secretRegions ?? [];
        });
        return provider;
      },
    },
    { ...(onEvent ? { onEvent } : {}), ...(onDelta ? { onDelta } : {}) },
  );
  const made = provider!;
  const replayed = handle.done.then(async (result): Promise<ReplayOutcome> => {
    const outcome: ReplayOutcome = { result, stats: made.stats, ...(divergence ? { divergence } : {}) };
    if (result.status !== 'done' || made.stats.healed.length === 0) return outcome;
    // The healed run's own trajectory is the new version (its steps: replayed, then healed by the model).
    const healed = await deriveTrajectory(handle.dir);
    const file = path.join(handle.dir, TRAJECTORY_FILE);
    await writePrivateFile(file, `${JSON.stringify(healed, null, 2)}\n`);
    return { ...outcome, healed: { file, revision: healed.revision } };
  });
  return Object.assign(handle, { provider: made, replayed });
}
