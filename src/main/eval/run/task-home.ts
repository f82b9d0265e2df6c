import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DesktopRecord, reapOrphanedDesktops } from '../../../os-control/desktop-record.js';
import { stopProcessesWithEnv } from '../../process-tree.js';

/**
 * An eval task's HOME, kept as a virtual desktop is (os-control/desktop-record.ts): a
 * private folder `deskpilot-eval-task-XXXXXX` under the temp folder holds the record naming
 * the eval that made it (pid + start time) and the HOME itself, `home/` — so the HOME the
 * task's apps and checker see holds nothing of ours.
 *
 * An eval that ends normally removes it at the task's end (task-run.ts). One killed with
 * SIGKILL cannot: the next eval to start reaps the folders whose owner is gone — first the
 * processes still carrying that HOME (an app's helper, a shell's background child), then the
 * folder — and never one whose owner still runs (another eval of this user, mid-task).
 * HOMEs made before this record existed (`deskpilot-eval-home-*`) name no owner and are left.
 */
export const TASK_FOLDER_PREFIX = 'deskpilot-eval-task-';

export interface TaskHome {
  /** The task's HOME. */
  home: string;
  /** Removes the record's folder and the HOME in it (after the task's processes are stopped). */
  remove(): Promise<void>;
}

export function createTaskHome(parent = tmpdir()): TaskHome {
  const record = DesktopRecord.create(parent, TASK_FOLDER_PREFIX);
  const home = homeIn(record.dir);
  mkdirSync(home, { mode: 0o700 });
  // Retries: a Chromium still writing its profile made one removal fail with ENOTEMPTY.
  return { home, remove: () => rm(record.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }) };
}

/** The task folders of evals of this user that died without removing them, reaped; their HOMEs. */
export async function reapOrphanedTaskHomes(parent = tmpdir(), uid = process.getuid?.() ?? -1, graceMs = 2_000): Promise<string[]> {
  const reaped = await reapOrphanedDesktops(parent, uid, graceMs, {
    prefix: TASK_FOLDER_PREFIX,
    beforeRemove: (dir) => stopProcessesWithEnv(`HOME=${homeIn(dir)}`, graceMs),
  });
  return reaped.map((r) => homeIn(r.dir));
}

function homeIn(dir: string): string {
  return path.join(dir, 'home');
}
