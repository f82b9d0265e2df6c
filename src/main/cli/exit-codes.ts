import type { RunStatus } from '../../shared/events.js';

/** Exit codes of `deskpilot run` / `sessions resume`. */
export const EXIT = { done: 0, failed: 1, error: 1, usage: 2, limit: 3, paused: 4, stopped: 130 } as const;

export function exitCodeFor(status: RunStatus): number {
  return EXIT[status];
}
