import type { AgentToolName } from '../providers/types.js';
import type { RunOptions } from '../run-api.js';

/**
 * The tools a run offers besides the computer: finish and ask_user always, the shell
 * (always gated as risky), whatever the caller adds, and its custom tools.
 */
export function offeredTools(options: Pick<RunOptions, 'extraTools' | 'customTools'>): AgentToolName[] {
  const tools = new Set<AgentToolName>(['finish', 'ask_user', 'shell', ...(options.extraTools ?? [])]);
  for (const name of Object.keys(options.customTools ?? {}) as AgentToolName[]) tools.add(name);
  return [...tools];
}
