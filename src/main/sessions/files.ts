import { closeSync, constants, fchmodSync, openSync, promises as fs, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE, writePrivateFile } from '../private-files.js';

/** Names of the files a run folder holds besides its screenshots. */
export const SUMMARY_FILE = 'summary.json';
export const LOCK_FILE = 'run.lock';

/** Resolves a path relative to a run folder; refuses anything that would leave it. */
export function resolveInRun(dir: string, relativePath: string): string {
  if (!relativePath || path.isAbsolute(relativePath) || relativePath.includes('\0')) {
    throw new Error(`not a file of the run: ${JSON.stringify(relativePath)}`);
  }
  const root = path.resolve(dir);
  const full = path.resolve(root, relativePath);
  if (full === root || !full.startsWith(root + path.sep)) throw new Error(`not a file of the run: ${JSON.stringify(relativePath)}`);
  return full;
}

/**
 * Reads a file of a run folder, refusing what is not really inside it: a path that
 * leaves the folder, a symlink (anywhere on the way) that points out of it, and
 * anything that is not a regular file (a FIFO would hang the reader, /dev/zero would
 * never end). Checked on the real path, then opened without following a last-moment
 * symlink (O_NOFOLLOW) and re-checked on the open descriptor.
 */
export async function readFileInRun(dir: string, relativePath: string): Promise<Buffer> {
  const handle = await openFileInRun(dir, relativePath);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The checks of readFileInRun, then the open descriptor, for a caller that reads it in pieces (the event log); the caller closes it. */
export async function openFileInRun(dir: string, relativePath: string): Promise<fs.FileHandle> {
  const full = resolveInRun(dir, relativePath);
  const [realDir, realFull] = await Promise.all([fs.realpath(dir), fs.realpath(full)]);
  if (!realFull.startsWith(realDir + path.sep)) throw new Error(`not a file of the run (a link out of it): ${JSON.stringify(relativePath)}`);
  const handle = await fs.open(realFull, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`not a regular file of the run: ${JSON.stringify(relativePath)}`);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Writes a file whole or not at all (temp file + rename), so a crash never leaves half an image or summary. */
export async function writeFileAtomic(file: string, data: Buffer | string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writePrivateFile(tmp, data);
  await fs.rename(tmp, file);
}

/**
 * writeFileAtomic done on the calling thread, for the screenshots a step writes before it
 * goes on (run-log.ts writeFile). Each awaited fs call is a trip through libuv's pool and
 * back, and the async version makes six per file (open, write, close, chmod, rename, plus
 * the folder's mkdir): a step's image and thumbnail took 7 ms at load 2–13 and 20 ms at
 * load ~15 that way (bench/agent.bench.ts, 2026-12-05). Here the event loop is held 0.1 ms
 * for 30 KB, 0.4 ms for 300 KB and 3.4 ms for 1.5 MB (page cache, load ~17), where the
 * async version took 0.4, 0.6 and 20.7 ms; the event log already writes each line
 * synchronously (run-log.ts append).
 */
export function writeFileAtomicSync(file: string, data: Buffer | string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', PRIVATE_FILE_MODE);
  try {
    // A temp file a killed writer left keeps its old mode through open: set it.
    fchmodSync(fd, PRIVATE_FILE_MODE);
    // writeFileSync on a descriptor loops until every byte is written.
    writeFileSync(fd, data);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/** Media type of a run file by extension (for the bridge and the HTML report). */
export function mediaTypeOf(file: string): string {
  switch (path.extname(file).toLowerCase()) {
    case '.png':
      return 'image/png';
    case '.jpg':
    case '.jpeg':
      return 'image/jpeg';
    case '.webp':
      return 'image/webp';
    case '.gif':
      return 'image/gif';
    case '.json':
    case '.jsonl':
      return 'application/json';
    default:
      return 'application/octet-stream';
  }
}

/** True when a process with this id exists (signal 0 checks without sending anything). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid in a run's lock file, if a live process holds the run. */
export async function liveHolder(dir: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await fs.readFile(path.join(dir, LOCK_FILE), 'utf8'), 10);
    return processAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}
