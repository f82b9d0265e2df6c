import { existsSync } from 'node:fs';
import path from 'node:path';
import type { EvalMode } from '../eval/run/record.js';
import { readEvalRun, RESULTS_FILE, type EvalRunFile } from '../eval/run/results-file.js';
import { shardLabel } from '../qa/shard.js';
import { defaultOutDir, emptyOrMissing, type EvalFlags } from './eval-command.js';
import { EvalRefusal } from './eval-refusal.js';

/**
 * Step 3 of `deskpilot eval`: the out-dir — a new (empty) one, or with --resume the
 * earlier eval there, which must be of the same mode and shard. Throws EvalRefusal.
 */
export async function evalOutDir(mode: EvalMode, flags: Pick<EvalFlags, 'outDir' | 'resume' | 'shard'>, home: string): Promise<{ outDir: string; earlier: EvalRunFile | undefined }> {
  const outDir = path.resolve(flags.outDir ?? defaultOutDir(home));
  if (!flags.resume) {
    if (!emptyOrMissing(outDir)) throw new EvalRefusal(`--out-dir ${outDir} is not empty: give a new folder, or --resume to go on with the eval there`);
    return { outDir, earlier: undefined };
  }
  const file = path.join(outDir, RESULTS_FILE);
  if (!existsSync(file)) throw new EvalRefusal(`--resume: ${outDir} has no ${RESULTS_FILE} to go on from`);
  let earlier: EvalRunFile;
  try {
    earlier = await readEvalRun(file);
  } catch (error) {
    throw new EvalRefusal(`--resume: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (earlier.mode !== mode) throw new EvalRefusal(`--resume: the eval in ${outDir} ran in ${earlier.mode} mode, this one is ${mode}`);
  if ((earlier.shard ?? '') !== (flags.shard ? shardLabel(flags.shard) : '')) throw new EvalRefusal(`--resume: the eval in ${outDir} is shard ${earlier.shard ?? '(all)'}; give the same --shard`);
  return { outDir, earlier };
}
