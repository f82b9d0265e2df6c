import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * DESKPILOT_HOME holds screenshots of the desktop, everything typed, the model's
 * reasoning and config: only its owner may read it. Folders 700, files 600, set
 * explicitly (chmod) so no umask, and no file an older version wrote 644, loosens it.
 */

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** mkdir -p with every folder it creates set to 700. */
export async function mkdirPrivate(dir: string): Promise<void> {
  const first = await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  // mkdir's mode is filtered by the umask: chmod each folder mkdir made, from `dir` up
  // to the first one. Folders that were already there are not ours to change here (the
  // home is repaired by repairPrivateHome; an export's target folder is the person's).
  if (!first) return;
  const top = path.resolve(first);
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    await fs.chmod(at, PRIVATE_DIR_MODE);
    if (at === top || path.dirname(at) === at) break;
  }
}

/** Writes a new file (or replaces one) readable by its owner only. */
export async function writePrivateFile(file: string, data: Buffer | string): Promise<void> {
  await fs.writeFile(file, data, { mode: PRIVATE_FILE_MODE });
  // An existing file keeps its old mode through writeFile: set it.
  await fs.chmod(file, PRIVATE_FILE_MODE);
}

const repaired = new Map<string, Promise<number>>();

/**
 * Once per process and home: the home and everything in it to 700/600 (a home made by
 * an older DeskPilot had run folders 755 and screenshots 644). Symlinks are left alone
 * (chmod would follow them out of the home). Returns how many modes were changed.
 */
export function repairPrivateHome(home: string): Promise<number> {
  const key = path.resolve(home);
  let job = repaired.get(key);
  if (!job) {
    job = repairTree(key);
    repaired.set(key, job);
    // A failed repair (home not there yet) is tried again next time.
    job.catch(() => repaired.delete(key));
  }
  return job;
}

/** What DeskPilot keeps in its home; nothing else there is touched (DESKPILOT_HOME may be a shared folder by mistake). */
const HOME_ENTRIES = ['config.json', 'secrets.json', 'sessions', 'logs'];

async function repairTree(root: string): Promise<number> {
  let changed = 0;
  const fix = async (p: string): Promise<'dir' | 'file' | 'other'> => {
    const st = await fs.lstat(p);
    if (st.isSymbolicLink() || !(st.isDirectory() || st.isFile())) return 'other';
    const want = st.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
    if ((st.mode & 0o777) !== want) {
      await fs.chmod(p, want);
      changed += 1;
    }
    return st.isDirectory() ? 'dir' : 'file';
  };
  const walk = async (p: string): Promise<void> => {
    if ((await fix(p)) !== 'dir') return;
    for (const entry of await fs.readdir(p)) await walk(path.join(p, entry));
  };
  // The home folder itself, unless it is a folder that is not DeskPilot's to close
  // (the user's home, /, the temp folder).
  const shared = new Set([os.homedir(), os.tmpdir(), path.parse(root).root].map((d) => path.resolve(d)));
  try {
    const st = await fs.lstat(root);
    if (!st.isDirectory()) return 0;
    if (!shared.has(root) && (st.mode & 0o777) !== PRIVATE_DIR_MODE) {
      await fs.chmod(root, PRIVATE_DIR_MODE);
      changed += 1;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  for (const name of HOME_ENTRIES) {
    try {
      await walk(path.join(root, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return changed;
}
