/**
 * The seed's words for the approval policy (issue 30 item 8): `--ask-for-approval
 * untrusted | on-request | never` parsed by the run flags as `ask | risky | auto`, under
 * `--policy` and `--yes`; anything else refused by name. (That an escalation still asks
 * under `never` is escalation-gate.test's and cli-sandbox.desktop's.)
 */
import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { addPolicyOptions, policyFromFlags } from '../../src/main/cli/run-flags.js';

/** The policy `deskpilot run`'s policy flags give for `args`. */
function policyOf(args: string[]) {
  const command = addPolicyOptions(new Command())
    .exitOverride()
    .configureOutput({ writeErr: () => {} });
  command.parse(args, { from: 'user' });
  return policyFromFlags(command.opts());
}

describe('--ask-for-approval', () => {
  it.each([
    ['untrusted', 'ask'],
    ['on-request', 'risky'],
    ['never', 'auto'],
  ])('%s is policy %s', (word, policy) => {
    expect(policyOf(['--ask-for-approval', word])).toBe(policy);
  });

  it('--policy and --yes win over it; without any of the three, no policy is asked', () => {
    expect(policyOf(['--ask-for-approval', 'never', '--policy', 'ask'])).toBe('ask');
    expect(policyOf(['--ask-for-approval', 'untrusted', '--yes'])).toBe('auto');
    expect(policyOf([])).toBeUndefined();
  });

  it('another word is refused, naming the three', () => {
    expect(() => policyOf(['--ask-for-approval', 'always'])).toThrow(CommanderError);
    expect(() => policyOf(['--ask-for-approval', 'always'])).toThrow("argument 'always' is invalid. Allowed choices are untrusted, on-request, never.");
  });
});
