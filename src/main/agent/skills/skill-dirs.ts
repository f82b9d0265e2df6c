import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SkillSource } from './skill-types.js';

export interface SkillRoots {
  /** The project whose `.agents/skills/` is searched; default: the working directory. */
  projectDir?: string;
  /** The user's home, whose `.agents/skills/` is searched; default: os.homedir(). */
  userHome?: string;
  /** DeskPilot's built-in skills; default: resources/skills/ of this install. */
  builtinDir?: string;
}

/**
 * The built-in skills ship in `resources/skills/` at the package root. From source
 * (tsx, vitest) and from a bundle (out/main) the root is a different number of levels
 * up, so walk up until the folder is found.
 */
export function builtinSkillsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = path.join(dir, 'resources', 'skills');
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // Packaged app: electron-builder puts extra resources next to app.asar.
  const packaged = (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath;
  return packaged ? path.join(packaged, 'skills') : path.resolve('resources', 'skills');
}

/** The three folders in precedence order: project > user > built-in. */
export function skillRoots(roots: SkillRoots = {}): Array<{ source: SkillSource; dir: string }> {
  return [
    { source: 'project', dir: path.resolve(roots.projectDir ?? process.cwd(), '.agents', 'skills') },
    { source: 'user', dir: path.join(roots.userHome ?? os.homedir(), '.agents', 'skills') },
    { source: 'builtin', dir: roots.builtinDir ?? builtinSkillsDir() },
  ];
}
