import { randomBytes } from 'node:crypto';

/**
 * Run ids sort by time as plain strings ("20261130-041500-ab12"): the history lists
 * newest first by sorting folder names, without opening any file.
 */
export function newRunId(now: Date = new Date()): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const date = `${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}`;
  const time = `${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}`;
  return `${date}-${time}-${randomBytes(2).toString('hex')}`;
}

/** A run id names a folder: no separators, no dots at the start, nothing a path could escape with. */
export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function assertRunId(runId: string): string {
  if (!RUN_ID_PATTERN.test(runId)) throw new Error(`not a valid run id: ${JSON.stringify(runId)}`);
  return runId;
}
