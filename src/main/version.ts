import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * DeskPilot's version from its package.json, found by walking up from this module
 * (src/main/ in a checkout, out/cli/ in a build): one source of truth, no copy.
 */
export function deskpilotVersion(from: string = import.meta.url): string {
  let dir = path.dirname(fileURLToPath(from));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'deskpilot' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not here: one folder up
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}
