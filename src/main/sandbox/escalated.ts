import { escalationAsks, type SandboxEscalation } from '../../shared/sandbox.js';
import { widenPolicy, type SandboxPolicy } from './policy.js';
import { resolveGrants } from './workspace.js';

/**
 * The sandbox one approved command or code block runs in (issue 30 items 6 and 9): the
 * run's `base`, widened by the escalation a person approved. The gate holds every
 * escalation for a person (policy rule "sandbox-escalation"), so reaching here means one
 * said yes to exactly these paths and the network. A grant that does not resolve (a
 * missing path, the home folder, a hidden one) is not run at all: `refused` says why, for
 * the model. No base (danger-full-access): nothing to widen.
 */
export function escalatedPolicy(base: SandboxPolicy | undefined, escalation: SandboxEscalation | undefined): { sandbox?: SandboxPolicy; refused?: string } {
  if (!base || !escalationAsks(escalation)) return base ? { sandbox: base } : {};
  try {
    return { sandbox: widenPolicy(base, escalation, resolveGrants(escalation.write ?? [])) };
  } catch (error) {
    return { refused: `not run: ${(error as Error).message}` };
  }
}
