import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  builtinSkillsDir,
  discoverSkills,
  listSkills,
  loadSkillsForPrompt,
  SkillError,
  UnknownSkillError,
} from '../../src/main/agent/skills/index.js';

let tmp: string;
let projectDir: string;
let userHome: string;
let builtinDir: string;

async function writeSkill(root: string, folder: string, text: string, extra: Record<string, string> = {}) {
  const dir = path.join(root, folder);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'SKILL.md'), text);
  for (const [rel, content] of Object.entries(extra)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), content);
  }
}

const skill = (name: string, description: string, body = `Body of ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'dp-skills-'));
  projectDir = path.join(tmp, 'project');
  userHome = path.join(tmp, 'home');
  builtinDir = path.join(tmp, 'builtin');
  await mkdir(projectDir, { recursive: true });
  await mkdir(userHome, { recursive: true });
  await mkdir(builtinDir, { recursive: true });
});
afterEach(async () => rm(tmp, { recursive: true, force: true }));

describe('skill discovery', () => {
  it('finds skills in all three places; project beats user beats built-in', async () => {
    await writeSkill(path.join(projectDir, '.agents/skills'), 'deploy', skill('deploy', 'Project deploy'));
    await writeSkill(path.join(userHome, '.agents/skills'), 'deploy', skill('deploy', 'User deploy'));
    await writeSkill(path.join(userHome, '.agents/skills'), 'notes', skill('notes', 'User notes'));
    await writeSkill(builtinDir, 'notes', skill('notes', 'Built-in notes'));
    await writeSkill(builtinDir, 'qa', skill('qa', 'Built-in QA'), { 'scripts/check.sh': 'echo hi', 'references/a/b.md': '# b' });

    const { skills, errors } = await listSkills({ projectDir, userHome, builtinDir });
    expect(errors).toEqual([]);
    expect(skills.map((s) => [s.name, s.source, s.description])).toEqual([
      ['deploy', 'project', 'Project deploy'],
      ['notes', 'user', 'User notes'],
      ['qa', 'builtin', 'Built-in QA'],
    ]);
    expect(skills[0]?.shadows).toEqual([{ source: 'user', file: path.join(userHome, '.agents/skills/deploy/SKILL.md') }]);

    const found = await discoverSkills({ projectDir, userHome, builtinDir });
    expect(found.skills.find((s) => s.name === 'qa')?.resources).toEqual({
      scripts: ['scripts/check.sh'],
      references: [path.join('references', 'a', 'b.md')],
      assets: [],
    });
  });

  it('selected skills reach the prompt shape {name, description, body}', async () => {
    await writeSkill(path.join(projectDir, '.agents/skills'), 'deploy', skill('deploy', 'Deploys', 'Run the deploy.\n\nCarefully.'));
    const prompt = await loadSkillsForPrompt(['deploy'], { projectDir, userHome, builtinDir });
    expect(prompt).toEqual([{ name: 'deploy', description: 'Deploys', body: 'Run the deploy.\n\nCarefully.' }]);
    await expect(loadSkillsForPrompt(['nope'], { projectDir, userHome, builtinDir })).rejects.toThrow(UnknownSkillError);
  });

  it('ships the built-in qa skill, which mentions the verdict tool', async () => {
    const [qa] = await loadSkillsForPrompt(['qa'], { projectDir, userHome, builtinDir: builtinSkillsDir() });
    expect(qa?.name).toBe('qa');
    expect(qa?.body).toContain('qa_verdict');
  });
});

describe('broken SKILL.md files', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['no front matter', '# Just markdown\n', /SKILL\.md:1: missing YAML front matter/],
    ['unclosed front matter', '---\nname: x\n', /front matter is not closed/],
    ['bad YAML', '---\nname: bad\ndescription: [oops\n---\nbody\n', /SKILL\.md:\d+: invalid YAML/],
    ['missing description', '---\nname: bad\n---\nbody\n', /"description" is required/],
    ['bad name', '---\nname: Bad Name\ndescription: d\n---\n', /SKILL\.md:2: front matter "name": name must be lowercase/],
    ['name differs from folder', '---\nname: other\ndescription: d\n---\n', /SKILL\.md:2: front matter "name: other" must match its folder name "bad"/],
  ];
  for (const [label, text, message] of cases) {
    it(`${label}: error names the file`, async () => {
      await writeSkill(path.join(projectDir, '.agents/skills'), 'bad', text);
      await writeSkill(builtinDir, 'good', skill('good', 'Fine'));
      const found = await discoverSkills({ projectDir, userHome, builtinDir });
      expect(found.skills.map((s) => s.name)).toEqual(['good']);
      expect(found.errors).toHaveLength(1);
      const error = found.errors[0];
      expect(error).toBeInstanceOf(SkillError);
      expect(error?.file).toBe(path.join(projectDir, '.agents/skills/bad/SKILL.md'));
      expect(error?.message).toMatch(message);
      // Asking for the broken skill by name surfaces the same error.
      await expect(loadSkillsForPrompt(['bad'], { projectDir, userHome, builtinDir })).rejects.toThrow(message);
    });
  }
});
