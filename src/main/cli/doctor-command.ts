import type { Command } from 'commander';
// The doctor (and through it the provider SDKs) loads only when `doctor` runs.
import type { DoctorProbes } from '../doctor/index.js';

/** `deskpilot doctor [--json]`: one line per prerequisite with its fix; exit 1 when a required one is missing. */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('check what DeskPilot needs on this machine (display, tools, fonts, permissions, keys, model servers)')
    .option('--json', 'print the checks as JSON')
    .action(async (flags: { json?: boolean }) => {
      process.exitCode = await doctor(flags);
    });
}

export async function doctor(flags: { json?: boolean }, probes?: DoctorProbes, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const { formatReport, realProbes, runDoctor } = await import('../doctor/index.js');
  const report = await runDoctor(probes ?? realProbes());
  out.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.ok ? 0 : 1;
}
