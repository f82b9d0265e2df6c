import { parseDocument } from 'yaml';
import { SkillError, SkillFrontMatterSchema, type SkillFrontMatter } from './skill-types.js';

/** Split SKILL.md text into validated front matter and body; every problem names the file and line. */
export function parseSkillMarkdown(text: string, file: string): { frontMatter: SkillFrontMatter; body: string } {
  const source = text.replace(/^\uFEFF/, '');
  const lines = source.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') {
    throw new SkillError(file, 'missing YAML front matter: the file must start with a line "---"', 1);
  }
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === '---');
  if (end < 0) throw new SkillError(file, 'front matter is not closed: no second "---" line', 1);

  const yamlText = lines.slice(1, end).join('\n');
  const doc = parseDocument(yamlText, { prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    // +1: the front matter starts on the file's second line.
    const line = first.linePos?.[0]?.line;
    throw new SkillError(file, `invalid YAML in front matter: ${(first.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')}`, line ? line + 1 : undefined);
  }
  const data: unknown = doc.toJS();
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new SkillError(file, 'front matter must be a YAML mapping with "name" and "description"', 2);
  }
  const parsed = SkillFrontMatterSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path.map(String).join('.') ?? '';
    const line = key ? lineOfKey(lines, end, key) : undefined;
    const message = issue?.code === 'invalid_type' && issue.input === undefined ? `"${key}" is required` : `${key ? `"${key}": ` : ''}${issue?.message ?? 'invalid front matter'}`;
    throw new SkillError(file, `front matter ${message}`, line);
  }
  return { frontMatter: parsed.data, body: lines.slice(end + 1).join('\n').trim() };
}

function lineOfKey(lines: string[], end: number, key: string): number | undefined {
  const top = key.split('.')[0] ?? key;
  for (let i = 1; i < end; i++) {
    if (lines[i]?.startsWith(`${top}:`)) return i + 1;
  }
  return undefined;
}
