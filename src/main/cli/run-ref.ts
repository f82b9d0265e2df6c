import { promises as fsp } from 'node:fs';
import { homePaths } from '../paths.js';
import { RUN_ID_PATTERN } from '../sessions/run-id.js';

/** A run reference a person typed that names no run, or more than one. */
export class RunRefError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunRefError';
  }
}

/** How many candidates an "ambiguous" message names before "…". */
const MAX_NAMED = 5;

/**
 * The run a person means by `ref` in `sessions show/export/rm/resume`: a whole run id,
 * `last` (the newest run: ids sort by time), or a prefix of exactly one run id
 * (`20261201-0315`). Throws RunRefError naming the candidates otherwise.
 */
export async function resolveRunRef(home: string, ref: string): Promise<string> {
  const ids = await runIds(home);
  if (ref === 'last') {
    const newest = ids.at(-1);
    if (!newest) throw new RunRefError('there are no runs yet');
    return newest;
  }
  if (!RUN_ID_PATTERN.test(ref)) throw new RunRefError(`not a valid run id: ${JSON.stringify(ref)}`);
  if (ids.includes(ref)) return ref;
  const matches = ids.filter((id) => id.startsWith(ref));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new RunRefError(`no run matches ${JSON.stringify(ref)} (deskpilot sessions list shows them)`);
  const named = matches.slice(-MAX_NAMED).reverse().join(', ');
  throw new RunRefError(`${JSON.stringify(ref)} matches ${matches.length} runs (${named}${matches.length > MAX_NAMED ? ', …' : ''}); give more of the id`);
}

async function runIds(home: string): Promise<string[]> {
  try {
    const entries = await fsp.readdir(homePaths(home).sessions, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory() && RUN_ID_PATTERN.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
