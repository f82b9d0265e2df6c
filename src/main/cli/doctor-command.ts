import type { Command } from 'commander';
import { formatReport, realProbes, runDoctor, type DoctorProbes } from '../doctor/index.js';

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

export async function doctor(flags: { json?: boolean }, probes: DoctorProbes = realProbes(), out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const report = await runDoctor(probes);
  out.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.ok ? 0 : 1;
}
