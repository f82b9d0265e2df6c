/** Agent Skills: SKILL.md folders from the project, the user and DeskPilot itself. */
export { discoverSkills, listSkills, loadSkillDir, type DiscoveredSkills } from './discover-skills.js';
export { loadSkillsForPrompt, toPrompt, UnknownSkillError } from './skills-for-prompt.js';
export { builtinSkillsDir, skillRoots, type SkillRoots } from './skill-dirs.js';
export { parseSkillMarkdown } from './parse-skill.js';
export { SkillError, SKILL_SOURCES, type SkillInfo, type SkillSource, type SkillSummary } from './skill-types.js';
