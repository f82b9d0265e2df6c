import { ProviderFamilySchema } from '../../shared/config.js';
import type { RunEventOf } from '../../shared/events.js';
import { openSession } from '../sessions/history.js';
import { EXIT } from './exit-codes.js';
import { launchInTerminal } from './terminal-launch.js';
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
  const provider = ProviderFamilySchema.safeParse(started.provider);
  if (!provider.success) {
    process.stderr.write(`deskpilot: run ${runId} names an unknown provider "${started.provider}"; it cannot be resumed\n`);
    return EXIT.usage;
  }
  return launchInTerminal(
    context.home,
    { provider: provider.data, model: started.model, policy: started.policy, limits: started.limits },
    { task: started.task, skills: started.skills, resumeRunId: runId },
    { json: false, ...flags },
  );
}
