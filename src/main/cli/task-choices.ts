import type { RunChoices } from '../agent/index.js';
import type { ChoiceFlags } from './run-flags.js';

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
