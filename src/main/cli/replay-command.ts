import path from 'node:path';
import type { Command } from 'commander';
import type { SecretWanted } from '../agent/replay/secrets-wanted.js';
import { deskpilotHome } from '../paths.js';
import { runDir } from '../sessions/history.js';
import { EXIT, exitWhenDrained, failWith } from './exit-codes.js';
import { addPolicyOptions, addProviderOptions, type ChoiceFlags } from './run-flags.js';
import { terminalChoicesOf } from './task-choices.js';
import { resolveRunRef } from './run-ref.js';
import { canAskHidden, readHidden } from './secret-prompt.js';
import { launchInTerminal } from './terminal-launch.js';
import { addLabelOption } from './label-flags.js';
import { shownOneLine } from './terminal-text.js';

interface ReplayFlags extends ChoiceFlags {
  strict?: boolean;
  heal?: boolean;
  file?: string;
  json?: boolean;
  /** --label key=value, repeatable. */
  label?: Record<string, string>;
}

/**
 * `deskpilot replay <id> [--strict | --heal]` and `deskpilot replay --file <trajectory.json>`:
 * runs a finished run's trajectory again without the model (agent/replay). Every action
 * passes the gate like any run's (--policy, --yes). Exit codes are `run`'s: 0 replayed,
 * 1 diverged (--strict: the report is in the replay's run folder) or the healed run failed.
 */
export function registerReplayCommand(program: Command): void {
  const replay = program
    .command('replay')
    .description('run a finished run again without the model: --strict stops at the first difference, --heal lets the model repair that step')
    .argument('[id]', 'the run to replay: its id, a unique prefix of one, or "last"')
    .option('--strict', 'stop at the first step whose screen or target differs (default)')
    .option('--heal', 'hand a step that differs to the model with its recorded intent, then go on; writes the healed trajectory')
    .option('--file <trajectory>', 'replay this trajectory file (deskpilot sessions export --format trajectory) instead of a run');
  addProviderOptions(replay);
  addLabelOption(replay);
  addPolicyOptions(replay)
    .option('--json', 'print one JSON event per line on stdout')
    .action(async (ref: string | undefined, flags: ReplayFlags) => {
      await exitWhenDrained(await replayCommand(ref, flags));
    });
}

async function replayCommand(ref: string | undefined, flags: ReplayFlags): Promise<number> {
  if (flags.strict && flags.heal) return failWith('give --strict or --heal, not both', EXIT.usage);
  if ((ref === undefined) === (flags.file === undefined)) return failWith('give a run id or --file <trajectory>, one of them\nsee deskpilot replay --help', EXIT.usage);
  const mode = flags.heal ? 'heal' : 'strict';
  const home = deskpilotHome();
  // OCR, sharp and the runner load only for a replay.
  const replay = await import('../agent/replay/index.js');
  let source;
  try {
    source = flags.file !== undefined ? await replay.loadTrajectoryFile(flags.file) : await replay.trajectoryOfRunDir(runDir(home, await resolveRunRef(home, ref!)));
  } catch (error) {
    return failWith(error instanceof Error ? error.message : String(error), EXIT.usage);
  }
  if (source.trajectory.steps.length === 0) return failWith(`run ${source.trajectory.runId} did nothing that can be replayed`, EXIT.usage);
  const secrets = await askSecrets(replay.secretsWanted(source.trajectory, process.env));
  let handle: Awaited<ReturnType<typeof replay.startReplay>> | undefined;
  const code = await launchInTerminal({
    home,
    // A replay's steps are the trajectory's; healing may add a few model turns per step.
    ...terminalChoicesOf(flags, { maxSteps: source.trajectory.steps.length * 3 + 5 }),
    extras: { task: source.trajectory.task, ...(flags.label ? { labels: flags.label } : {}) },
    flags: {
      json: flags.json ?? false,
      start: async (options) => (handle = await replay.startReplay(options, { surface: 'cli', source, mode, ...(secrets ? { secrets } : {}) })),
    },
    keyless: mode === 'strict',
  });
  if (!handle) return code;
  const outcome = await handle.replayed;
  const { stats } = outcome;
  process.stderr.write(
    `deskpilot: replay of ${source.trajectory.runId}: ${stats.replayed} of ${source.trajectory.steps.length} steps replayed, ${stats.healed.length} healed, ${stats.modelCalls} model calls${Object.keys(stats.rules).length ? ` (targets found by ${Object.entries(stats.rules).map(([rule, n]) => `${rule} ${n}`).join(', ')})` : ''}\n`,
  );
  if (outcome.divergence) {
    const d = outcome.divergence;
    process.stderr.write(
      `deskpilot: diverged at step ${d.step} of ${d.of}: ${shownOneLine(d.message)}\n  report: ${path.join(handle.dir, d.files.markdown)}${d.files.sideBySide ? `\n  expected vs seen: ${path.join(handle.dir, d.files.sideBySide)}` : ''}\n`,
    );
  }
  if (outcome.healed) process.stderr.write(`deskpilot: healed trajectory (revision ${outcome.healed.revision}): ${outcome.healed.file}\n`);
  return code;
}

/**
 * Asks the person at the terminal, before the replay starts, for each secret its steps
 * type that the environment does not hold (item 28.6), with echo off (secret-prompt.ts).
 * Asked up front, not mid-run: the approval prompter reads the same stdin once the run
 * starts. Nothing is asked without a terminal (a pipe, CI): such a step diverges, naming
 * its variable. An empty answer gives nothing, and the step diverges the same way.
 */
async function askSecrets(wanted: SecretWanted[]): Promise<Record<string, string> | undefined> {
  if (wanted.length === 0 || !canAskHidden(process.stdin, process.stderr)) return undefined;
  const given: Record<string, string> = {};
  for (const { env, index, intent } of wanted) {
    const shown = shownOneLine(intent);
    const what = shown ? ` ("${shown.length > 80 ? `${shown.slice(0, 79)}…` : shown}")` : '';
    const value = await readHidden(`deskpilot: step ${index + 1}${what} types a secret that was masked when recorded, and ${env} is not set.\n  Type it (not shown; Enter with nothing to skip): `, process.stdin, process.stderr);
    if (value) given[env] = value;
  }
  return Object.keys(given).length ? given : undefined;
}
