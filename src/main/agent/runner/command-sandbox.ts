import type { Action } from '../../../shared/actions.js';
import { escalatedPolicy, type SandboxPolicy } from '../../sandbox/index.js';
import type { RunOptions } from '../run-api.js';

type ShellAction = Extract<Action, { type: 'shell' }>;

/**
 * The sandbox one approved command runs in: the run's (RunOptions.sandbox), widened by
 * the escalation a person approved (sandbox/escalated.ts, shared with the code
 * harness's blocks). A grant that does not resolve is not run: `refused` says why.
 */
export function commandSandbox(options: Pick<RunOptions, 'sandbox'>, action: Pick<ShellAction, 'escalate'>): { sandbox?: SandboxPolicy; refused?: string } {
  return escalatedPolicy(options.sandbox, action.escalate);
}
