import { Command } from 'commander';
import { pathToFileURL } from 'node:url';
import { registerServeCommand } from './server/command.js';
import { EXIT } from './cli/exit-codes.js';
import { installBlockOcr } from './agent/harness/code/block-ocr.js';
import { registerDisplaysCommand } from './cli/displays-command.js';
import { registerDoctorCommand } from './cli/doctor-command.js';
import { registerEvalCommand } from './cli/eval-command.js';
import { registerAcpCommand } from './cli/acp-command.js';
import { registerMcpCommand } from './cli/mcp-command.js';
import { registerInspectCommand } from './cli/inspect-command.js';
import { registerGroundCommand } from './cli/ground-command.js';
import { registerHarnessesCommand } from './cli/harnesses-command.js';
import { registerQaCommand } from './cli/qa-command.js';
import { registerRecordCommand } from './cli/record-command.js';
import { registerReplayCommand } from './cli/replay-command.js';
import { registerRunCommand } from './cli/run-command.js';
import { DEFAULT_VIRTUAL_SCREEN, onVirtualDisplay, runOnVirtualDisplay, virtualScreenOption } from './cli/virtual-display-run.js';
import { registerSessionsCommand } from './cli/sessions-command.js';
import { registerSkillsCommand } from './cli/skills-command.js';
import { deskpilotVersion } from './version.js';
import { stopWithParent } from './process-tree.js';

/**
 * The command line: plain Node, no Electron. `deskpilot run` is here; the other
 * areas register their commands (sessions, qa, skills, serve, displays, inspect).
 */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('deskpilot')
    .description('A supervised computer-use agent: a model proposes mouse and keyboard actions, you approve them.')
    .version(deskpilotVersion(), '-V, --version', 'print the version')
    // A command line that does not parse is a usage error: exit 2 (help and version exit 0).
    .exitOverride((error) => {
      process.exit(error.exitCode === 1 && error.code.startsWith('commander.') ? 2 : error.exitCode);
    });
  registerRunCommand(program);
  registerSessionsCommand(program, {
    resume: async (runId, context) => {
      // Loaded on use: the CLI starts without zod, the SDKs, sharp or the server
      // (`deskpilot --help` in ~0.1 s of CPU; test/cli/startup-imports.test.ts).
      const { resumeRunInTerminal } = await import('./cli/resume-run.js');
      const code = await resumeRunInTerminal(runId, context);
      // Native input/capture handles can keep Node alive after the run.
      await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
      process.exit(code);
    },
  });
  registerQaCommand(program);
  registerEvalCommand(program);
  registerReplayCommand(program);
  registerRecordCommand(program);
  registerSkillsCommand(program);
  registerServeCommand(program, {
    defaultSize: DEFAULT_VIRTUAL_SCREEN,
    parseSize: virtualScreenOption,
    isOnVirtualDisplay: () => onVirtualDisplay(),
    run: runOnVirtualDisplay,
  });
  registerDisplaysCommand(program);
  registerHarnessesCommand(program);
  registerInspectCommand(program);
  registerGroundCommand(program);
  registerDoctorCommand(program);
  registerMcpCommand(program);
  registerAcpCommand(program);
  pointUsageErrorsAtHelp(program);
  return program;
}

/**
 * A usage error prints its one line and where help is ("see deskpilot run --help"),
 * not the whole help text. Set on every command after all are registered.
 */
function pointUsageErrorsAtHelp(command: Command, names: string[] = []): void {
  const path = [...names, command.name()];
  command.showHelpAfterError(`see ${path.join(' ')} --help`);
  for (const sub of command.commands) pointUsageErrorsAtHelp(sub, path);
}

export async function main(argv: readonly string[] = process.argv): Promise<void> {
  // Started by deskpilot eval and the eval is gone: nobody reads our output any more, and the
  // run must still stop as Ctrl-C stops it (keys released, run_ended logged), not end at the
  // first write to the dead pipe.
  let parentGone = false;
  // `deskpilot sessions list | head` closes the pipe early: that is not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (parentGone) return;
      if (error.code === 'EPIPE') process.exit(EXIT.done);
      throw error;
    });
  }
  // This process ships tesseract.js: a code block's OCR lookups load it on first use (never at startup, startup-imports.test).
  installBlockOcr({
    readWords: async (image, options) => (await import('./agent/resolve/ocr-words.js')).ocrWords(image, options),
    textOnScreen: async (...args) => (await import('./agent/tools/find-text.js')).textOnScreen(...args),
  });
  // Started by deskpilot eval: a run ends with the eval, even a killed one (process-tree.ts).
  stopWithParent(() => {
    parentGone = true;
    process.kill(process.pid, 'SIGINT');
  });
  await buildProgram().parseAsync([...argv]);
}

// Run when executed directly (bin/deskpilot.js, tsx src/main/cli.ts), not when imported.
const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`deskpilot: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT.internal;
  });
}
