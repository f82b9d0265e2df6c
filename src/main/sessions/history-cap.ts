import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { homePaths } from '../paths.js';
import { liveHolder } from './files.js';

/** Total bytes of the files in a folder (recursively). */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await folderBytes(full);
    else if (entry.isFile()) total += (await fsp.stat(full)).size;
  }
  return total;
}

export interface CapResult {
  removed: string[];
  bytesBefore: number;
  bytesAfter: number;
}

/**
 * Keeps session history under `capMb` (config.historyCapMb, opt-in): removes the
 * oldest runs first (run ids sort by time). Never removes a run a live process holds
 * or one listed in `keep` (the run being started).
 */
export async function enforceHistoryCap(home: string, capMb: number, options: { keep?: string[] } = {}): Promise<CapResult> {
  const sessions = homePaths(home).sessions;
  let names: string[];
  try {
    names = (await fsp.readdir(sessions, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return { removed: [], bytesBefore: 0, bytesAfter: 0 };
  }
  names.sort();
  const sizes = new Map<string, number>();
  for (const name of names) sizes.set(name, await folderBytes(path.join(sessions, name)));
  const bytesBefore = [...sizes.values()].reduce((a, b) => a + b, 0);
  const cap = capMb * 1024 * 1024;
  let total = bytesBefore;
  const removed: string[] = [];
  for (const name of names) {
    if (total <= cap) break;
    if (options.keep?.includes(name)) continue;
    const dir = path.join(sessions, name);
    if ((await liveHolder(dir)) !== undefined) continue;
    await fsp.rm(dir, { recursive: true, force: true });
    total -= sizes.get(name) ?? 0;
    removed.push(name);
  }
  return { removed, bytesBefore, bytesAfter: total };
}
