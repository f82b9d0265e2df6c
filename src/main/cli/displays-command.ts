import type { Command } from 'commander';
import { loadConfig, ConfigError } from '../config/index.js';
import { deskpilotHome } from '../paths.js';
import { missingDisplay } from '../../os-control/display-env.js';
import { EXIT } from './exit-codes.js';

/**
 * `deskpilot displays`: the displays a run can watch (the ids `--display` and config
 * `displayId` take), the primary one marked, and whether the configured id matches.
 */
export function registerDisplaysCommand(program: Command): void {
  program
    .command('displays')
    .description('list the displays a run can watch (ids for --display and config displayId)')
    .option('--json', 'print JSON')
    .action(async (flags: { json?: boolean }) => {
      process.exitCode = await displaysCommand(flags);
    });
}

export async function displaysCommand(flags: { json?: boolean }, out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const noDisplay = missingDisplay();
  if (noDisplay) {
    err.write(`deskpilot: ${noDisplay}\n`);
    return EXIT.environment;
  }
  let configured: string | undefined;
  try {
    configured = (await loadConfig(deskpilotHome())).displayId;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    err.write(`deskpilot: ${error.message}\n`);
    return EXIT.usage;
  }
  const { listDisplays, describeDisplay } = await import('../../os-control/displays.js');
  const { ToolMissingError } = await import('../../os-control/exec.js');
  let displays;
  try {
    displays = await listDisplays();
  } catch (error) {
    err.write(`deskpilot: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof ToolMissingError ? EXIT.environment : EXIT.internal;
  }
  if (flags.json) {
    out.write(`${JSON.stringify(displays, null, 2)}\n`);
  } else {
    for (const d of displays) out.write(`${describeDisplay(d)}${d.id === configured ? '  ← config displayId' : ''}\n`);
  }
  if (configured !== undefined && !displays.some((d) => d.id === configured)) {
    err.write(`deskpilot: config displayId ${JSON.stringify(configured)} matches no display; runs will refuse to start until it does\n`);
    return EXIT.usage;
  }
  return EXIT.done;
}
