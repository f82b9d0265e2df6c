import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** The built renderer (vite.web.config.ts output), served read-only from one folder. */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export function mediaTypeOf(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Resolves a URL path inside root; null when it would leave it or is not a file. */
export async function resolveStatic(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const rel = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const full = path.resolve(root, rel);
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  try {
    // A symlink inside the build may point anywhere (/etc/passwd, ~/.ssh): what is
    // served is decided by where the file really is, not by the name it was asked by.
    const [realRoot, realFull] = await Promise.all([realpath(root), realpath(full)]);
    if (!realFull.startsWith(realRoot + path.sep)) return null;
    const s = await stat(realFull);
    return s.isFile() ? realFull : null;
  } catch {
    return null;
  }
}

export async function readStatic(file: string): Promise<Buffer> {
  return readFile(file);
}
