import { ProviderFamilySchema } from '../../shared/config.js';
import type { RunEventOf } from '../../shared/events.js';
import { openSession } from '../sessions/history.js';
import { EXIT } from './exit-codes.js';
import { launchInTerminal } from './terminal-launch.js';
import type { TerminalRunFlags } from './terminal-run.js';

/**
 * `deskpilot sessions resume <id>`: continues a paused or interrupted run in its own
 * folder with the provider, model and limits it started with, the stricter of its
 * logged policy and the configured one (base URL and key from the config and
 * environment, as for `deskpilot run`), supervised on the terminal.
 */
export async function resumeRunInTerminal(runId: string, context: { home: string }, flags: Partial<TerminalRunFlags> = {}): Promise<number> {
  const { events } = await openSession(context.home, runId);
  const started = events.find((e): e is RunEventOf<'run_started'> => e.type === 'run_started');
  if (!started) {
    process.stderr.write(`deskpilot: run ${runId} has no start event; it cannot be resumed\n`);
    return EXIT.usage;
  }
  const provider = ProviderFamilySchema.safeParse(started.provider);
  if (!provider.success) {
    process.stderr.write(`deskpilot: run ${runId} names an unknown provider "${started.provider}"; it cannot be resumed\n`);
    return EXIT.usage;
  }
  return launchInTerminal(
    context.home,
    // The logged policy can only tighten: an events.jsonl edited to "auto" gets the config's mode.
    { provider: provider.data, model: started.model, loggedPolicy: started.policy, limits: started.limits },
    { task: started.task, skills: started.skills, resumeRunId: runId },
    { json: false, ...flags },
  );
}
