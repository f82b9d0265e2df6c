import type { Command } from 'commander';
import { missingDisplay } from '../../os-control/display-env.js';
import { deskpilotHome } from '../paths.js';
import { EXIT, exitWhenDrained, failWith } from './exit-codes.js';
import { shownOneLine } from './terminal-text.js';
// The constant only: the recorder itself (sharp, the accessibility reader) loads inside the action.
import { DEFAULT_STOP_KEY } from '../agent/record/stop-key.js';

/**
 * `deskpilot record "<task>"`: records a person doing the task (agent/record) into a
 * session that `deskpilot replay <id>` runs again, and a draft SKILL.md beside it. The
 * stop key (default Pause) or Ctrl-C ends the recording; what was done so far is saved.
 */
export function registerRecordCommand(program: Command): void {
  program
    .command('record')
    .description('record yourself doing a task: a replayable session and a draft SKILL.md (stop with the Pause key)')
    .argument('<task>', 'what the demonstration does, in plain language')
    .option('--stop-key <keysym>', 'the key that ends the recording (an X keysym name)', DEFAULT_STOP_KEY)
    .option('--display <id>', 'the display to record (default: config displayId, else the primary)')
    .action(async (task: string, flags: { stopKey: string; display?: string }) => {
      await exitWhenDrained(await recordCommand(task, flags));
    });
}

async function recordCommand(task: string, flags: { stopKey: string; display?: string }): Promise<number> {
  const noDisplay = missingDisplay();
  if (noDisplay) return failWith(noDisplay, EXIT.environment);
  const [{ createComputer }, { recordDemonstration }] = await Promise.all([import('../../os-control/index.js'), import('../agent/record/record.js')]);
  const computer = createComputer();
  await computer.warmUp();
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  try {
    const result = await recordDemonstration({
      task,
      computer,
      home: deskpilotHome(),
      stopKey: flags.stopKey,
      ...(flags.display !== undefined ? { displayId: flags.display } : {}),
      signal: stop.signal,
      onReady: (runId) => process.stderr.write(`recording ${shownOneLine(JSON.stringify(task))} as run ${runId}: do the task now; press ${flags.stopKey} to stop\n`),
      onAction: (what) => process.stderr.write(`  ${shownOneLine(what)}\n`),
    });
    process.stderr.write(`recorded ${result.steps} actions; replay with: deskpilot replay ${result.runId}\ndraft skill: ${result.skillFile}\n`);
    process.stdout.write(`${result.runId}\n`);
    return EXIT.done;
  } catch (error) {
    return failWith(`recording failed: ${error instanceof Error ? error.message : String(error)}`, EXIT.environment);
  }
}
