import type { Command } from 'commander';

/**
 * `deskpilot skills list` and `deskpilot skills show <name>`. A broken SKILL.md is
 * reported with its file and line, and the command exits with 2.
 */
export function registerSkillsCommand(program: Command): void {
  const skills = program.command('skills').description('Agent Skills (SKILL.md) from .agents/skills, ~/.agents/skills and the built-in ones');
  skills
    .command('list')
    .description('list the skills a run can use (project > user > built-in)')
    .option('--json', 'print JSON')
    .action(async (flags: { json?: boolean }) => {
      process.exitCode = await skillsList(flags);
    });
  skills
    .command('show')
    .description("print a skill's instructions as the model gets them")
    .argument('<name>')
    .action(async (name: string) => {
      process.exitCode = await skillsShow(name);
    });
}

export async function skillsList(flags: { json?: boolean }, out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  // Skills (and yaml) load when a skills command runs, not at CLI start-up.
  const { listSkills } = await import('../agent/skills/index.js');
  const { skills, errors } = await listSkills();
  if (flags.json) {
    out.write(`${JSON.stringify({ skills, errors }, null, 2)}\n`);
  } else {
    if (!skills.length) out.write('No skills found.\n');
    for (const s of skills) {
      out.write(`${s.name}  [${s.source}]  ${s.description}\n    ${s.file}${s.shadows.length ? `  (overrides ${s.shadows.map((h) => h.source).join(', ')})` : ''}\n`);
    }
  }
  for (const e of errors) err.write(`deskpilot skills: invalid skill: ${e.message}\n`);
  return errors.length ? 2 : 0;
}

export async function skillsShow(name: string, out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const { loadSkillsForPrompt, SkillError, UnknownSkillError } = await import('../agent/skills/index.js');
  try {
    const [skill] = await loadSkillsForPrompt([name]);
    if (skill) out.write(`# ${skill.name}\n${skill.description}\n\n${skill.body}\n`);
    return 0;
  } catch (error) {
    if (error instanceof SkillError || error instanceof UnknownSkillError) {
      err.write(`deskpilot skills: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
