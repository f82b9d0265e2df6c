import type { Config } from '../../shared/config.js';
import type { RunOptions } from '../agent/run-api.js';
import { resolveRunChoices, type RunChoices } from '../agent/runner/choices.js';
import { ConfigError, loadConfig } from '../config/index.js';
import { missingDisplay } from '../../os-control/display-env.js';
import { EXIT } from './exit-codes.js';
import type { TerminalRunFlags } from './terminal-run.js';

/** What `run` and `sessions resume` add to the resolved choices. */
export type LaunchExtras = Omit<RunOptions, 'profile' | 'apiKey' | 'policy' | 'limits' | 'config' | 'computer' | 'home' | 'onEvent' | 'onDelta'>;

/**
 * The common start of a run supervised on the terminal (`deskpilot run`, `deskpilot
 * sessions resume`): config and choices (a bad config is exit 2 with its message),
 * the X display, the API key, then the run. os-control warms up while the model SDKs
 * and the runner load; they load only now, so `deskpilot --help` stays quick.
 */
export async function launchInTerminal(
  home: string,
  choices: RunChoices,
  extras: LaunchExtras,
  flags: TerminalRunFlags,
  keyHint = '',
): Promise<number> {
  let config: Config;
  let resolved;
  try {
    config = await loadConfig(home);
    resolved = resolveRunChoices(config, choices);
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message);
    throw error;
  }
  const noDisplay = missingDisplay();
  if (noDisplay) return fail(noDisplay);
  const { createComputer } = await import('../../os-control/index.js');
  const computer = createComputer();
  const warming = computer.warmUp().catch(() => undefined);
  const [{ resolveApiKey }, { runInTerminal }] = await Promise.all([
    import('../agent/providers/index.js'),
    import('./terminal-run.js'),
    import('../agent/runner.js'), // loaded here so the run starts at once
  ]);
  const { apiKey, envName } = resolveApiKey(resolved.profile);
  if (!apiKey) return fail(`no API key: set ${envName ?? 'the API key variable'}${keyHint}`);
  await warming;
  return runInTerminal(
    { ...extras, profile: resolved.profile, apiKey, policy: resolved.policy, limits: resolved.limits, config, computer, home },
    flags,
  );
}

function fail(message: string): number {
  process.stderr.write(`deskpilot: ${message}\n`);
  return EXIT.usage;
}
