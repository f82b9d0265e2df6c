import type { RunEventOf } from '../../shared/events.js';
import { ConfigError, loadConfig } from '../config/index.js';
import { resolveRunChoices } from '../agent/runner/choices.js';
import { openSession } from '../sessions/history.js';
import { missingDisplay } from '../../os-control/display-env.js';
import { EXIT } from './exit-codes.js';
import type { TerminalRunFlags } from './terminal-run.js';

/**
 * `deskpilot sessions resume <id>`: continues a paused or interrupted run in its own
 * folder with the provider, model, policy and limits it started with (base URL and
 * key from the environment, as for `deskpilot run`), supervised on the terminal.
 */
export async function resumeRunInTerminal(runId: string, context: { home: string }, flags: Partial<TerminalRunFlags> = {}): Promise<number> {
  const { events } = await openSession(context.home, runId);
  const started = events.find((e): e is RunEventOf<'run_started'> => e.type === 'run_started');
  if (!started) {
    process.stderr.write(`deskpilot: run ${runId} has no start event; it cannot be resumed\n`);
    return EXIT.usage;
  }
  let config;
  let resolved;
  try {
    config = await loadConfig(context.home);
    const provider = started.provider as 'anthropic' | 'openai' | 'openai-compatible';
    resolved = resolveRunChoices(config, { provider, model: started.model, policy: started.policy, limits: started.limits });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`deskpilot: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  // os-control warms up while the model SDKs and the runner load.
  const noDisplay = missingDisplay();
  if (noDisplay) {
    process.stderr.write(`deskpilot: ${noDisplay}\n`);
    return EXIT.usage;
  }
  const { createComputer } = await import('../../os-control/index.js');
  const computer = createComputer();
  const warming = computer.warmUp().catch(() => undefined);
  const [{ resolveApiKey }, { runInTerminal }] = await Promise.all([
    import('../agent/providers/index.js'),
    import('./terminal-run.js'),
    import('../agent/runner.js'), // loaded here so the run starts at once
  ]);
  const { apiKey, envName } = resolveApiKey(resolved.profile);
  if (!apiKey) {
    process.stderr.write(`deskpilot: no API key: set ${envName ?? 'the API key variable'}\n`);
    return EXIT.usage;
  }
  await warming;
  return runInTerminal(
    {
      task: started.task,
      profile: resolved.profile,
      apiKey,
      policy: resolved.policy,
      limits: resolved.limits,
      config,
      computer,
      home: context.home,
      skills: started.skills,
      resumeRunId: runId,
    },
    { json: false, ...flags },
  );
}
