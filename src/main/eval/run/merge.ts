import path from 'node:path';
import { readEvalRun, RESULTS_FILE, writeEvalRun } from './results-file.js';

/**
 * `deskpilot eval merge`: the results of an eval's shards as one file, or a refusal that
 * says why (numbered, checked in this order):
 *   1. a folder holds no readable results.json
 *   2. a file is not a shard (it ran without --shard)
 *   3. the shards ran in different modes (model, reference, anti-reference)
 *   4. the shards split the tasks differently (2/3 with 1/4)
 *   5. a shard is given twice, or one is missing
 *   6. two shards hold the same cell (they overlap: not one eval's shards)
 * The merged file lists every planned cell and every result, in the shards' order.
 */
export async function mergeEvalDirs(dirs: readonly string[], outDir: string): Promise<{ file: string; results: number }> {
  if (dirs.length === 0) throw new Error('give the --out-dir of each shard');
  // 1.
  const files = await Promise.all(dirs.map(async (dir) => ({ dir, file: await readEvalRun(path.join(dir, RESULTS_FILE)) })));
  // 2.
  const shards = files.map(({ dir, file }) => {
    if (!file.shard) throw new Error(`${dir}: its results are of a whole eval, not a shard (--shard i/n)`);
    const [index, total] = file.shard.split('/').map(Number) as [number, number];
    return { dir, file, index, total };
  });
  const first = shards[0]!;
  for (const s of shards) {
    // 3.
    if (s.file.mode !== first.file.mode) throw new Error(`${s.dir} ran in ${s.file.mode} mode, ${first.dir} in ${first.file.mode}`);
    // 4.
    if (s.total !== first.total) throw new Error(`${s.dir} is shard ${s.file.shard}, ${first.dir} is ${first.file.shard}: not the same split`);
  }
  // 5.
  const byIndex = new Map<number, string>();
  for (const s of shards) {
    const other = byIndex.get(s.index);
    if (other) throw new Error(`shard ${s.file.shard} is given twice: ${other} and ${s.dir}`);
    byIndex.set(s.index, s.dir);
  }
  const missing = Array.from({ length: first.total }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length) throw new Error(`shard(s) ${missing.map((i) => `${i}/${first.total}`).join(', ')} missing`);
  // 6.
  const owner = new Map<string, string>();
  for (const s of shards) {
    for (const key of s.file.planned) {
      const other = owner.get(key);
      if (other) throw new Error(`${key} is in two shards (${other} and ${s.dir}): they are not one eval's shards`);
      owner.set(key, s.dir);
    }
  }
  const sorted = [...shards].sort((a, b) => a.index - b.index);
  const results = sorted.flatMap((s) => s.file.results);
  const file = writeEvalRun(
    outDir,
    {
      tasksDir: first.file.tasksDir,
      mode: first.file.mode,
      planned: sorted.flatMap((s) => s.file.planned),
      deskpilotVersion: first.file.deskpilotVersion,
      startedAt: sorted.map((s) => s.file.startedAt).sort()[0]!,
      ...(sorted.every((s) => s.file.finishedAt) ? { finishedAt: sorted.map((s) => s.file.finishedAt!).sort().at(-1)! } : {}),
    },
    results,
  );
  return { file, results: results.length };
}
