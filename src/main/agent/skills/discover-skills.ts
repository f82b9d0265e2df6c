import { readdir, stat } from 'node:fs/promises';
import { readCappedText } from '../../read-capped.js';
import path from 'node:path';
import { parseSkillMarkdown } from './parse-skill.js';
import { skillRoots, type SkillRoots } from './skill-dirs.js';
import { SkillError, type SkillInfo, type SkillSource, type SkillSummary } from './skill-types.js';

const RESOURCE_DIRS = ['scripts', 'references', 'assets'] as const;

/** A SKILL.md is instructions for the model, sent with every request of a run that uses it: 1 MiB is no skill. */
export const MAX_SKILL_BYTES = 1024 * 1024;

/** Read and validate one skill folder (the one holding SKILL.md). */
export async function loadSkillDir(dir: string, source: SkillSource): Promise<SkillInfo> {
  const file = path.join(dir, 'SKILL.md');
  let text: string;
  try {
    text = await readCappedText(file, { maxBytes: MAX_SKILL_BYTES, what: 'a SKILL.md' });
  } catch (error) {
    throw new SkillError(file, `cannot read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { frontMatter, body } = parseSkillMarkdown(text, file);
  const folder = path.basename(dir);
  if (frontMatter.name !== folder) {
    throw new SkillError(file, `front matter "name: ${frontMatter.name}" must match its folder name "${folder}"`, lineOf(text, 'name:'));
  }
  const resources = { scripts: [] as string[], references: [] as string[], assets: [] as string[] };
  for (const sub of RESOURCE_DIRS) resources[sub] = await listFiles(dir, sub);
  return { name: frontMatter.name, description: frontMatter.description, source, dir, file, body, frontMatter, resources };
}

export interface DiscoveredSkills {
  /** One per name, the winner by precedence (project > user > built-in), sorted by name. */
  skills: SkillInfo[];
  /** Same-name skills hidden by a winner. */
  shadowed: SkillInfo[];
  /** SKILL.md files that could not be used; each names its file. */
  errors: SkillError[];
}

export async function discoverSkills(roots: SkillRoots = {}): Promise<DiscoveredSkills> {
  const winners = new Map<string, SkillInfo>();
  const shadowed: SkillInfo[] = [];
  const errors: SkillError[] = [];
  for (const root of skillRoots(roots)) {
    for (const dir of await skillFolders(root.dir)) {
      try {
        const skill = await loadSkillDir(dir, root.source);
        if (winners.has(skill.name)) shadowed.push(skill);
        else winners.set(skill.name, skill);
      } catch (error) {
        errors.push(error instanceof SkillError ? error : new SkillError(path.join(dir, 'SKILL.md'), String(error)));
      }
    }
  }
  const skills = [...winners.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { skills, shadowed, errors };
}

/** What the UI (through the bridge service) and the CLI list. */
export async function listSkills(roots: SkillRoots = {}): Promise<{ skills: SkillSummary[]; errors: Array<{ file: string; message: string }> }> {
  const found = await discoverSkills(roots);
  return {
    skills: found.skills.map((s) => ({
      name: s.name,
      description: s.description,
      source: s.source,
      file: s.file,
      shadows: found.shadowed.filter((h) => h.name === s.name).map((h) => ({ source: h.source, file: h.file })),
    })),
    errors: found.errors.map((e) => ({ file: e.file, message: e.message })),
  };
}

async function skillFolders(root: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return []; // A missing skills folder is normal.
  }
  const dirs: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(root, entry.name);
    const isDir = entry.isDirectory() || (entry.isSymbolicLink() && (await stat(full).catch(() => undefined))?.isDirectory());
    if (!isDir) continue;
    if (await stat(path.join(full, 'SKILL.md')).catch(() => undefined)) dirs.push(full);
  }
  return dirs;
}

async function listFiles(dir: string, sub: string): Promise<string[]> {
  const base = path.join(dir, sub);
  try {
    const entries = await readdir(base, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
      .sort();
  } catch {
    return [];
  }
}

function lineOf(text: string, prefix: string): number | undefined {
  const index = text.split(/\r?\n/).findIndex((l) => l.startsWith(prefix));
  return index >= 0 ? index + 1 : undefined;
}
