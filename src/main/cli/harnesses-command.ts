import type { Command } from 'commander';
import { HARNESS_NAMES, HARNESSES } from '../../shared/harnesses.js';
import { EXIT } from './exit-codes.js';

/**
 * `deskpilot harnesses`: each harness a model can be run in (shared/harnesses.ts), the
 * provider families whose wire carries it, the models it was made for and its source.
 * Choose one with `--harness NAME` or `harness` in a profile; unset, the model's family
 * decides.
 */
export function registerHarnessesCommand(program: Command): void {
  program
    .command('harnesses')
    .description('list the harnesses (how a model is asked to act), the model families each fits and its source')
    .option('--json', 'print them as JSON')
    .action((flags: { json?: boolean }) => {
      process.stdout.write(flags.json ? `${JSON.stringify(HARNESS_NAMES.map((name) => HARNESSES[name]), null, 2)}\n` : harnessesText());
      process.exitCode = EXIT.done;
    });
}

export function harnessesText(): string {
  const lines: string[] = [];
  for (const name of HARNESS_NAMES) {
    const h = HARNESSES[name];
    lines.push(`${name}  (${h.families.join(', ')})`, `  fits:   ${h.fits}`, `  acts:   ${h.summary}`, `  source: ${h.source}`, '');
  }
  lines.push('Choose with --harness NAME (run, sessions resume) or "harness" in a profile; unset, the model\'s family decides.');
  return `${lines.join('\n')}\n`;
}
