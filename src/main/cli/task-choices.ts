import type { RunChoices } from '../agent/index.js';
import { policyFromFlags, type ChoiceFlags } from './run-flags.js';
import type { ConfigOverrides } from './terminal-launch.js';

/**
 * The model choices of a serving command (`deskpilot mcp` for run_task, `deskpilot acp`):
 * its flags as the RunChoices each task is resolved with (resolveRunChoices, the same
 * resolver `run` and `qa` use), and the check made before anything is served.
 */
export function taskChoicesOf(flags: ChoiceFlags): Omit<RunChoices, 'policy'> {
  return {
    profile: flags.profile,
    provider: flags.provider,
    model: flags.model,
    baseUrl: flags.baseUrl,
    apiKeyEnv: flags.apiKeyEnv,
    ...(flags.harness !== undefined ? { harness: flags.harness } : {}),
  };
}

/**
 * Why the tasks could not start with these choices, checked before serving when a
 * --harness was given: a harness the provider's wire cannot carry (or a UI-TARS model in
 * hybrid) is a usage error now (exit 2), not a failure of the first task an editor or
 * client sends. Without --harness nothing is checked here, as before: the config is read
 * again for each task, and the session's desktop tools need no model.
 */
export async function taskChoicesProblem(home: string, choices: Omit<RunChoices, 'policy'>, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (choices.harness === undefined) return undefined;
  const [{ ConfigError, loadConfig }, { resolveRunChoices }] = await Promise.all([import('../config/index.js'), import('../agent/index.js')]);
  try {
    resolveRunChoices(await loadConfig(home), choices, env);
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
}

/**
 * What `run` and `replay` hand launchInTerminal from their flags: the model choices
 * (taskChoicesOf, and --grounding where the command has it), the policy the flags ask
 * for, the command's own limits, and the settings --display and --request-timeout put
 * over config.json. One builder, so the two commands cannot drift apart in what a shared
 * flag means.
 */
export function terminalChoicesOf(flags: ChoiceFlags, limits: RunChoices['limits']): { choices: RunChoices; overrides: ConfigOverrides } {
  return {
    choices: { ...taskChoicesOf(flags), ...(flags.grounding !== undefined ? { grounding: flags.grounding } : {}), policy: policyFromFlags(flags), limits },
    overrides: { displayId: flags.display, requestTimeoutSeconds: flags.requestTimeout },
  };
}
