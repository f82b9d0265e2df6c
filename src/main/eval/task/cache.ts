import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * Where OSWorld's own file cache keeps a task's files (desktop_env/controllers/setup.py
 * `_download_setup`, getters/file.py `get_cloud_file`, desktop_env.py `_set_task_info`):
 *
 *   download step:  <cache>/<task id>/<uuid5(NAMESPACE_URL, url)>_<basename(path)>
 *   cloud_file:     <cache>/<task id>/<dest>
 *   cache_file:     <cache>/<task id>/<path>
 *
 * so a cache OSWorld filled (its `cache/` folder) serves DeskPilot as it is, with no network.
 */

/** RFC 4122 name-based UUID, version 5 (SHA-1), as Python's uuid.uuid5. */
export function uuid5(namespace: string, name: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(Buffer.from(name, 'utf8')).digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Python's uuid.NAMESPACE_URL. */
export const NAMESPACE_URL = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

/** A task's own folder of the cache; its id is checked for separators so it cannot leave the cache. */
export function taskCacheDir(cacheDir: string, taskId: string): string {
  if (taskId === '.' || taskId === '..' || /[/\\\0]/.test(taskId)) throw new Error(`task id ${JSON.stringify(taskId)} cannot name a cache folder`);
  return path.join(cacheDir, taskId);
}

/** Inside the task's cache folder, or an error: a `dest` of "../../x" must not read outside it. */
function inside(dir: string, name: string): string {
  const file = path.resolve(dir, name);
  if (!file.startsWith(path.resolve(dir) + path.sep)) throw new Error(`${JSON.stringify(name)} leaves the task's cache folder`);
  return file;
}

/** The cached copy of a download step's file. */
export function downloadCachePath(cacheDir: string, taskId: string, url: string, vmFile: string): string {
  return inside(taskCacheDir(cacheDir, taskId), `${uuid5(NAMESPACE_URL, url)}_${path.posix.basename(vmFile)}`);
}

/** A cloud_file's `dest` or a cache_file's `path` in the task's cache folder. */
export function cacheFilePath(cacheDir: string, taskId: string, name: string): string {
  return inside(taskCacheDir(cacheDir, taskId), name);
}
