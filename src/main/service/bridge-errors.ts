import { ConfigError } from '../config/index.js';
import { BridgeError } from './types.js';

/** The first contract issue of a message, for an error a person can act on. */
export function issueText(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0];
  if (!issue) return 'invalid';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${issue.path.map(String).join('.') || '(message)'}: ${issue.message}${more}`;
}

/** Runs config work; a config.json the person must fix comes back as an `invalid` command, not an internal error. */
export async function withConfigErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ConfigError) throw new BridgeError('invalid', error.message);
    throw error;
  }
}

/** An error's words, whatever was thrown. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
