import type { Command } from 'commander';

/** `deskpilot eval merge <dirs...> --out-dir DIR`: the shards' results.json as one (eval/run/merge.ts). */
export function registerEvalMergeCommand(evalCommand: Command): void {
  evalCommand
    .command('merge')
    .description("combine the results.json of an eval's shards (--shard i/n) into one")
    .argument('<dirs...>', "each shard's --out-dir")
    .requiredOption('--out-dir <dir>', 'where the merged results.json goes')
    .action(async (dirs: string[], flags: { outDir: string }) => {
      const { mergeEvalDirs } = await import('../eval/run/merge.js');
      let code: number;
      try {
        const merged = await mergeEvalDirs(dirs, flags.outDir);
        process.stdout.write(`merged ${dirs.length} shard(s), ${merged.results} result(s): ${merged.file}\n`);
        code = 0;
      } catch (error) {
        process.stderr.write(`deskpilot eval merge: ${error instanceof Error ? error.message : String(error)}\n`);
        code = 2;
      }
      process.exit(code);
    });
}

/**
 * `deskpilot eval compare A B`: what changed from eval A to eval B (each a results.json or
 * the --out-dir holding one). Exit 1 when a task newly fails (a regression gate for CI), 0 otherwise, 2 for bad input.
 */
export function registerEvalCompareCommand(evalCommand: Command): void {
  evalCommand
    .command('compare')
    .description('what changed between two evals: tasks newly failing or passing, cost and step changes (exit 1 when a task newly fails)')
    .argument('<a>', 'the earlier eval: its results.json or --out-dir')
    .argument('<b>', 'the later eval: its results.json or --out-dir')
    .action(async (a: string, b: string) => {
      const { existsSync, statSync } = await import('node:fs');
      const path = await import('node:path');
      const { compareResults, readResultsFile, renderComparison } = await import('../eval/report/index.js');
      const fileOf = (p: string) => (existsSync(p) && statSync(p).isDirectory() ? path.join(p, 'results.json') : p);
      let code: number;
      try {
        const comparison = compareResults(await readResultsFile(fileOf(a)), await readResultsFile(fileOf(b)));
        process.stdout.write(renderComparison(comparison));
        code = comparison.newlyFailing.length > 0 ? 1 : 0;
      } catch (error) {
        process.stderr.write(`deskpilot eval compare: ${error instanceof Error ? error.message : String(error)}\n`);
        code = 2;
      }
      process.exit(code);
    });
}
