import type { Action } from '../../../shared/actions.js';
import { escalationAsks } from '../../../shared/sandbox.js';
import { resolveGrants, widenPolicy, type SandboxPolicy } from '../../sandbox/index.js';
import type { RunOptions } from '../run-api.js';

type ShellAction = Extract<Action, { type: 'shell' }>;

/**
 * The sandbox one approved command runs in: the run's (RunOptions.sandbox), widened by
 * the escalation a person approved — the gate holds every escalation for a person
 * (policy rule "sandbox-escalation"), so reaching here means one said yes to exactly
 * these paths and the network. A grant that does not resolve (a missing path, the home
 * folder, a hidden one) is not run at all: `refused` says why, for the model.
 */
export function commandSandbox(options: Pick<RunOptions, 'sandbox'>, action: Pick<ShellAction, 'escalate'>): { sandbox?: SandboxPolicy; refused?: string } {
  const base = options.sandbox;
  if (!base || !escalationAsks(action.escalate)) return base ? { sandbox: base } : {};
  try {
    return { sandbox: widenPolicy(base, action.escalate, resolveGrants(action.escalate.write ?? [])) };
  } catch (error) {
    return { refused: `not run: ${(error as Error).message}` };
  }
}
