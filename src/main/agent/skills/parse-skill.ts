import { isMap, isScalar, isSeq, parseDocument } from 'yaml';

/** Characters of YAML front matter accepted (a long description is a few hundred). */
export const MAX_FRONT_MATTER_CHARS = 64 * 1024;
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
  // Front matter is a name, a description and a few settings. Bounded before YAML sees
  // it: the yaml package's duplicate-key check is quadratic (300k keys: minutes).
  if (yamlText.length > MAX_FRONT_MATTER_CHARS) {
    throw new SkillError(file, `front matter is ${yamlText.length} characters; at most ${MAX_FRONT_MATTER_CHARS} (put long text in the body)`, 2);
  }
  // Duplicate keys are found below in one pass (a Set), not by the package.
  const doc = parseDocument(yamlText, { prettyErrors: true, uniqueKeys: false });
  const first = doc.errors[0];
  if (first) {
    // +1: the front matter starts on the file's second line.
    const line = first.linePos?.[0]?.line;
    throw new SkillError(file, `invalid YAML in front matter: ${(first.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')}`, line ? line + 1 : undefined);
  }
  const duplicate = firstDuplicateKey(doc.contents);
  if (duplicate) {
    const line = duplicate.offset !== undefined ? yamlText.slice(0, duplicate.offset).split('\n').length + 1 : undefined;
    throw new SkillError(file, `invalid YAML in front matter: map keys must be unique ("${duplicate.key}" appears twice)`, line);
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

/** The first key that repeats within any mapping of the document (linear: one Set per mapping). */
function firstDuplicateKey(node: unknown): { key: string; offset?: number } | undefined {
  if (isMap(node)) {
    const seen = new Set<string>();
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      if (seen.has(key)) return { key, offset: isScalar(pair.key) ? pair.key.range?.[0] : undefined };
      seen.add(key);
      const inner = firstDuplicateKey(pair.value);
      if (inner) return inner;
    }
  } else if (isSeq(node)) {
    for (const item of node.items) {
      const inner = firstDuplicateKey(item);
      if (inner) return inner;
    }
  }
  return undefined;
}

function lineOfKey(lines: string[], end: number, key: string): number | undefined {
  const top = key.split('.')[0] ?? key;
  for (let i = 1; i < end; i++) {
    if (lines[i]?.startsWith(`${top}:`)) return i + 1;
  }
  return undefined;
}
