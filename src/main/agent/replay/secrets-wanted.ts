import type { Trajectory } from '../../../shared/trajectory.js';
import { maskedText } from './derive.js';

/** One secret a replay will need: the variable its steps name, and the first step that types it. */
export interface SecretWanted {
  env: string;
  /** Index into trajectory.steps. */
  index: number;
  /** That step's recorded intent (the model's words, scrubbed when logged): what the person is asked for. */
  intent: string;
}

/**
 * The secrets a replay of `trajectory` will type and `env` does not hold: each masked
 * step's secretRef variable, once, in the order the steps type them. A masked step with
 * no secretRef is not here: nothing names what to ask for, so it diverges (replay-provider.ts unmask).
 */
export function secretsWanted(trajectory: Trajectory, env: NodeJS.ProcessEnv): SecretWanted[] {
  const wanted = new Map<string, SecretWanted>();
  trajectory.steps.forEach((step, index) => {
    for (const { action, secretRef } of step.actions) {
      if (!secretRef || !maskedText(action) || env[secretRef.env] || wanted.has(secretRef.env)) continue;
      wanted.set(secretRef.env, { env: secretRef.env, index, intent: step.intent });
    }
  });
  return [...wanted.values()];
}
