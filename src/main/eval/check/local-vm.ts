import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { CheckError, type DirectoryTree, type EvalEnv } from './env.js';

/** 64 MiB: the largest end state a checker reads into memory (an XLSX of a big sheet is a few MB). */
export const MAX_CHECKED_FILE_BYTES = 64 * 1024 * 1024;

/**
 * readFile and listDirectory for a desktop on this machine (the runner's private desktops
 * share its file system). The runner adds `run` and `runSteps`, which need its desktop.
 */
export function localFiles(): Pick<EvalEnv, 'readFile' | 'listDirectory'> {
  return {
    async readFile(file) {
      let info;
      try {
        info = await stat(file);
      } catch {
        return null;
      }
      if (!info.isFile()) return null;
      if (info.size > MAX_CHECKED_FILE_BYTES) throw new CheckError(`${file} is ${info.size} bytes; a checked file is at most ${MAX_CHECKED_FILE_BYTES}`);
      return readFile(file);
    },
    async listDirectory(dir) {
      try {
        if (!(await stat(dir)).isDirectory()) return null;
      } catch {
        return null;
      }
      return listTree(dir);
    },
  };
}

/** OSWorld's `_list_dir_contents`: folders recursively, every other entry a file. */
async function listTree(dir: string): Promise<DirectoryTree> {
  const tree: DirectoryTree = { type: 'directory', name: path.basename(dir), children: [] };
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = path.join(dir, entry.name);
    const isDir = entry.isDirectory() || (entry.isSymbolicLink() && (await stat(full).then((s) => s.isDirectory(), () => false)));
    tree.children.push(isDir ? await listTree(full) : { type: 'file', name: entry.name });
  }
  return tree;
}
