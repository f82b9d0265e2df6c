/**
 * The QA and skills commands as a user runs them, registered the way src/main/cli.ts
 * does (registerQaCommand / registerSkillsCommand), without depending on which other
 * commands the CLI has. Spawned by the tests with `node --import tsx`.
 */
import { Command } from 'commander';
import { registerQaCommand } from '../../src/main/cli/qa-command.js';
import { registerSkillsCommand } from '../../src/main/cli/skills-command.js';

const program = new Command().name('deskpilot');
registerQaCommand(program);
registerSkillsCommand(program);
await program.parseAsync(process.argv);
