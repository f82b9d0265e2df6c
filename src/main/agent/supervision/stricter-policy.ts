import type { PolicyMode } from '../../../shared/approvals.js';

/**
 * How strict each policy mode is: `ask` holds every action, `risky` holds the risky
 * ones, `auto` holds none (user deny rules and humanOnly checks apply in every mode).
 */
const STRICTNESS: Record<PolicyMode, number> = { auto: 0, risky: 1, ask: 2 };

/**
 * The stricter of several policy modes. Resume calls it with the policy the run's
 * log names (a file anyone with write access to the folder can edit) and the one the
 * current config or flags give: an edited `"policy":"auto"` in events.jsonl can never
 * loosen what the person set up now.
 */
export function stricterPolicy(first: PolicyMode, ...others: PolicyMode[]): PolicyMode {
  let out = first;
  for (const p of others) if (STRICTNESS[p] > STRICTNESS[out]) out = p;
  return out;
}
