import type { SkillForPrompt } from '../system-prompt.js';
import { discoverSkills } from './discover-skills.js';
import type { SkillRoots } from './skill-dirs.js';
import { SkillError, type SkillInfo } from './skill-types.js';

/** A requested skill does not exist (the message lists the ones that do). */
export class UnknownSkillError extends Error {
  constructor(
    readonly skill: string,
    readonly available: string[],
  ) {
    super(`unknown skill "${skill}"; available: ${available.length ? available.join(', ') : '(none)'}`);
    this.name = 'UnknownSkillError';
  }
}

/**
 * The selected skills in the shape the system prompt takes. A requested skill that
 * is missing or whose SKILL.md is broken is an error (a run must not silently lose
 * its instructions); broken skills nobody asked for do not matter here.
 */
export async function loadSkillsForPrompt(names: readonly string[], roots: SkillRoots = {}): Promise<SkillForPrompt[]> {
  if (names.length === 0) return [];
  const found = await discoverSkills(roots);
  const byName = new Map(found.skills.map((s) => [s.name, s]));
  return names.map((name) => {
    const skill = byName.get(name);
    if (skill) return toPrompt(skill);
    const broken = found.errors.find((e) => e.file.includes(`/${name}/`) || e.file.includes(`\\${name}\\`));
    if (broken) throw broken;
    throw new UnknownSkillError(name, [...byName.keys()]);
  });
}

/** The body, plus where the skill's folder is so the model can refer to its scripts and references. */
export function toPrompt(skill: SkillInfo): SkillForPrompt {
  const files = [...skill.resources.scripts, ...skill.resources.references, ...skill.resources.assets];
  const extra = files.length ? `\n\nFiles of this skill (in ${skill.dir}): ${files.join(', ')}` : '';
  return { name: skill.name, description: skill.description, body: `${skill.body}${extra}` };
}

export { SkillError };
