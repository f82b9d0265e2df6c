/**
 * What `run` and `replay` hand launchInTerminal from their command lines
 * (terminalChoicesOf, the one builder both call): the flags parsed by commander as each
 * command declares them, and the choices and config overrides that come out. A flag the
 * command does not have adds no key (a replay never names a grounding or a harness).
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addGroundingOption, addHarnessOption, addPolicyOptions, addProviderOptions, type ChoiceFlags } from '../../src/main/cli/run-flags.js';
import { terminalChoicesOf } from '../../src/main/cli/task-choices.js';

/** The flags of `args` as a command with run's (or replay's) choice options parses them. */
function flagsOf(args: string[], like: 'run' | 'replay'): ChoiceFlags {
  let command = addProviderOptions(new Command(like).exitOverride().configureOutput({ writeErr: () => {} }));
  if (like === 'run') command = addHarnessOption(addGroundingOption(command));
  command = addPolicyOptions(command);
  command.parse(args, { from: 'user' });
  return command.opts<ChoiceFlags>();
}

const EVERY_FLAG = ['--provider', 'openai', '--model', 'gpt-5', '--base-url', 'http://127.0.0.1:9/v1', '--api-key-env', 'MY_KEY', '--profile', 'work', '--display', ':7', '--request-timeout', '30'];

describe('terminalChoicesOf', () => {
  it("gives run's flags as its choices, its limits and the config overrides", () => {
    const flags = flagsOf([...EVERY_FLAG, '--grounding', 'elements', '--harness', 'code', '--yes'], 'run');
    expect(terminalChoicesOf(flags, { maxSteps: 12, maxCostUsd: 0.5 })).toStrictEqual({
      choices: {
        profile: 'work',
        provider: 'openai',
        model: 'gpt-5',
        baseUrl: 'http://127.0.0.1:9/v1',
        apiKeyEnv: 'MY_KEY',
        grounding: 'elements',
        harness: 'code',
        policy: 'auto',
        limits: { maxSteps: 12, maxCostUsd: 0.5 },
      },
      overrides: { displayId: ':7', requestTimeoutSeconds: 30 },
    });
  });

  it("gives replay's flags the same way, with no grounding or harness key (replay has neither flag)", () => {
    const { choices, overrides } = terminalChoicesOf(flagsOf([...EVERY_FLAG, '--ask-for-approval', 'untrusted'], 'replay'), { maxSteps: 8 });
    // Strict: a key set to undefined would count (toEqual passes over it).
    expect(choices).toStrictEqual({ profile: 'work', provider: 'openai', model: 'gpt-5', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'MY_KEY', policy: 'ask', limits: { maxSteps: 8 } });
    expect(overrides).toStrictEqual({ displayId: ':7', requestTimeoutSeconds: 30 });
  });

  it('without flags, nothing is chosen: config.json decides (the policy, display and timeout stay unset)', () => {
    const { choices, overrides } = terminalChoicesOf(flagsOf([], 'run'), { maxSteps: undefined, maxCostUsd: undefined });
    expect(choices.policy).toBeUndefined();
    expect(choices.provider).toBeUndefined();
    expect(choices).not.toHaveProperty('grounding');
    expect(choices).not.toHaveProperty('harness');
    expect(overrides).toEqual({ displayId: undefined, requestTimeoutSeconds: undefined });
  });
});
