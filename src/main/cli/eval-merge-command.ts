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
