import { Command } from 'commander';
import { pathToFileURL } from 'node:url';
import { registerServeCommand } from './server/command.js';
import { registerDoctorCommand } from './cli/doctor-command.js';
import { resumeRunInTerminal } from './cli/resume-run.js';
import { registerQaCommand } from './cli/qa-command.js';
import { registerRunCommand } from './cli/run-command.js';
import { registerSessionsCommand } from './cli/sessions-command.js';
import { registerSkillsCommand } from './cli/skills-command.js';

/**
 * The command line: plain Node, no Electron. `deskpilot run` is here; the other
 * areas register their commands (sessions, qa, skills, serve).
 */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('deskpilot')
    .description('A supervised computer-use agent: a model proposes mouse and keyboard actions, you approve them.')
    .showHelpAfterError()
    // A command line that does not parse is a usage error: exit 2 (help and version exit 0).
    .exitOverride((error) => {
      process.exit(error.exitCode === 1 && error.code.startsWith('commander.') ? 2 : error.exitCode);
    });
  registerRunCommand(program);
  registerSessionsCommand(program, {
    resume: async (runId, context) => {
      const code = await resumeRunInTerminal(runId, context);
      // Native input/capture handles can keep Node alive after the run.
      await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
      process.exit(code);
    },
  });
  registerQaCommand(program);
  registerSkillsCommand(program);
  registerServeCommand(program);
  registerDoctorCommand(program);
  return program;
}

export async function main(argv: readonly string[] = process.argv): Promise<void> {
  await buildProgram().parseAsync([...argv]);
}

// Run when executed directly (bin/deskpilot.js, tsx src/main/cli.ts), not when imported.
const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`deskpilot: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
