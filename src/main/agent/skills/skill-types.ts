import { z } from 'zod';

/**
 * A skill in the shared Agent Skills format: a folder with SKILL.md (YAML front
 * matter + Markdown instructions) and optional scripts/, references/, assets/.
 */

/** Where a skill was found; earlier in this list wins when two share a name. */
export const SKILL_SOURCES = ['project', 'user', 'builtin'] as const;
export type SkillSource = (typeof SKILL_SOURCES)[number];

/** The spec: lowercase letters, digits and single hyphens, 1–64 characters, not starting or ending with a hyphen. */
export const SkillNameSchema = z
  .string()
  .min(1, 'name is empty')
  .max(64, 'name is longer than 64 characters')
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'name must be lowercase letters, digits and single hyphens (e.g. "pdf-forms")');

export const SkillFrontMatterSchema = z
  .object({
    name: SkillNameSchema,
    description: z.string().trim().min(1, 'description is empty').max(1024, 'description is longer than 1024 characters'),
    license: z.string().optional(),
    compatibility: z.string().max(500).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    'allowed-tools': z.union([z.string(), z.array(z.string())]).optional(),
  })
  // Other tools add their own keys; they are kept, not rejected.
  .loose();
export type SkillFrontMatter = z.infer<typeof SkillFrontMatterSchema>;

export interface SkillInfo {
  name: string;
  description: string;
  source: SkillSource;
  /** The skill's folder (absolute). */
  dir: string;
  /** Its SKILL.md (absolute). */
  file: string;
  /** The Markdown instructions after the front matter. */
  body: string;
  frontMatter: SkillFrontMatter;
  /** Files in the optional folders, relative to the skill's folder. */
  resources: { scripts: string[]; references: string[]; assets: string[] };
}

/** What the UI and `deskpilot skills list` show. */
export interface SkillSummary {
  name: string;
  description: string;
  source: SkillSource;
  file: string;
  /** Skills of the same name further down the precedence order, hidden by this one. */
  shadows: Array<{ source: SkillSource; file: string }>;
}

/** A SKILL.md that cannot be used: the message names the file (and the line when known). */
export class SkillError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
    readonly line?: number,
  ) {
    super(`${file}${line ? `:${line}` : ''}: ${detail}`);
    this.name = 'SkillError';
  }
}
