import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the browser build (vite.web.config.ts → out/web) lives: --web-root, then
 * DESKPILOT_WEB_ROOT, then out/web in the package this file belongs to (found by
 * walking up to its package.json, so it works from src/ through tsx and from out/).
 */
export function defaultWebRoot(env: NodeJS.ProcessEnv = process.env, from = path.dirname(fileURLToPath(import.meta.url))): string {
  if (env.DESKPILOT_WEB_ROOT?.trim()) return path.resolve(env.DESKPILOT_WEB_ROOT);
  let dir = from;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'deskpilot') return path.join(dir, 'out', 'web');
      } catch {
        // not ours; keep walking
      }
    }
    const up = path.dirname(dir);
    if (up === dir) return path.resolve('out', 'web');
    dir = up;
  }
}
