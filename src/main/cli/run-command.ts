import type { Command } from 'commander';
import path from 'node:path';
import { deskpilotHome } from '../paths.js';
import { addGroundingOption, addHarnessOption, addPolicyOptions, addProviderOptions, addSandboxOptions, positiveInt, positiveNumber, sandboxRequestFromFlags, type ChoiceFlags, type SandboxFlags } from './run-flags.js';
import { EXIT, exitWhenDrained, failWith } from './exit-codes.js';
import { terminalChoicesOf } from './task-choices.js';
import { addLabelOption } from './label-flags.js';
import { launchInTerminal } from './terminal-launch.js';
import { DEFAULT_VIRTUAL_SCREEN, virtualScreenOption, type ScreenSize } from './virtual-display-run.js';

interface RunFlags extends ChoiceFlags, SandboxFlags {
  maxSteps?: number;
  maxCost?: number;
  skill?: string[];
  json?: boolean;
  /** false with --no-agents-md. */
  agentsMd: boolean;
  virtualDisplay?: boolean;
  screenSize?: ScreenSize;
  /** --label key=value, repeatable. */
  label?: Record<string, string>;
  /** --grounder-profile: the planner-grounder harness's grounding model. */
  grounderProfile?: string;
}

/** `deskpilot run "<task>"`: one supervised run in the terminal. */
export function registerRunCommand(program: Command): void {
  const run = program
    .command('run')
    .description('run a task on this desktop; every held action is asked on the terminal')
    .argument('<task>', 'what to do, in plain language');
  addProviderOptions(run);
  addGroundingOption(run);
  addHarnessOption(run);
  addSandboxOptions(run);
  addLabelOption(run);
  addPolicyOptions(run)
    .option('--max-steps <n>', 'stop after this many model turns', positiveInt)
    .option('--max-cost <usd>', 'stop when the run has cost this much', positiveNumber)
    .option('--grounder-profile <name>', 'with --harness planner-grounder: the profile of a grounding model (UI-TARS, Qwen-VL, any vision model) for targets the accessibility tree and OCR miss (default: config grounderProfile)')
    .option('--skill <name...>', 'skills to load into the system prompt')
    .option('--json', 'print one JSON event per line on stdout')
    .option('--no-agents-md', "do not read AGENTS.md (this folder's repository, ~/.deskpilot) into the system prompt")
    .option('--virtual-display', 'Linux: run on a private virtual desktop of its own (Xvfb + openbox + a private session bus), off your screen; start apps there with the shell tool')
    .option('--screen-size <WxH>', `the virtual desktop's size (default ${DEFAULT_VIRTUAL_SCREEN.width}x${DEFAULT_VIRTUAL_SCREEN.height}; with --virtual-display)`, virtualScreenOption)
    .action(async (task: string, flags: RunFlags) => {
      await exitWhenDrained(await runCommand(task, flags));
    });
}

async function runCommand(task: string, flags: RunFlags): Promise<number> {
  if (flags.screenSize && !flags.virtualDisplay) return failWith('--screen-size is the size of a --virtual-display: give both', EXIT.usage);
  const { choices, overrides } = terminalChoicesOf(flags, { maxSteps: flags.maxSteps, maxCostUsd: flags.maxCost });
  return launchInTerminal({
    home: deskpilotHome(),
    choices,
    extras: { task, ...(flags.label ? { labels: flags.label } : {}), ...(flags.skill?.length ? { skills: flags.skill } : {}), ...(flags.agentsMd ? { agentsMd: { cwd: flags.cd ? path.resolve(flags.cd) : process.cwd() } } : {}) },
    sandbox: sandboxRequestFromFlags(flags),
    flags: { json: flags.json ?? false },
    overrides: { ...overrides, ...(flags.grounderProfile !== undefined ? { grounderProfile: flags.grounderProfile } : {}) },
    keyHint: ' (or name another variable with --api-key-env)',
    ...(flags.virtualDisplay ? { virtualScreen: flags.screenSize ?? DEFAULT_VIRTUAL_SCREEN } : {}),
  });
}
