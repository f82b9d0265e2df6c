import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { mkdirPrivate, writePrivateFile } from '../private-files.js';

/**
 * `deskpilot qa --replay`: the last passing trajectory of each case, keyed by the case's
 * identity (shard.ts caseId: a hash of the app's launch and window, the case's name,
 * steps and expectations) — so any change to the case's text, or to its app, finds no
 * entry and the model runs it again. One small JSON file per case under
 * $DESKPILOT_HOME/qa/replay-cache/, read as untrusted input (zod).
 */
export const ReplayCacheEntrySchema = z
  .object({
    caseId: z.string().regex(/^[0-9a-f]{16}$/),
    caseName: z.string(),
    /** The run folder whose trajectory passed (a model run, or a healed replay: the next revision). */
    runDir: z.string().min(1),
    runId: z.string().min(1),
    /** Epoch ms of the passing run. */
    at: z.number(),
    /** The shard (`--shard i/n`) whose run passed, as every output of a sharded run says it; absent: the whole plan. */
    shard: z.object({ index: z.number().int().positive(), total: z.number().int().positive() }).strict().optional(),
  })
  .strict();
export type ReplayCacheEntry = z.infer<typeof ReplayCacheEntrySchema>;

export function replayCacheFile(home: string, caseId: string): string {
  return path.join(home, 'qa', 'replay-cache', `${caseId}.json`);
}

/** The case's entry, or undefined when there is none or it does not parse (then the model runs the case). */
export async function readReplayCache(home: string, caseId: string): Promise<ReplayCacheEntry | undefined> {
  let text: string;
  try {
    text = await readFile(replayCacheFile(home, caseId), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = ReplayCacheEntrySchema.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.caseId === caseId ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function writeReplayCache(home: string, entry: ReplayCacheEntry): Promise<void> {
  const file = replayCacheFile(home, entry.caseId);
  await mkdirPrivate(path.dirname(file));
  await writePrivateFile(file, `${JSON.stringify(ReplayCacheEntrySchema.parse(entry), null, 2)}\n`);
}
