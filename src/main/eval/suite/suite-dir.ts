import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * A suite is a folder:
 *
 *   <suite>/tasks/<id>.json              the tasks, OSWorld's format (eval/task)
 *   <suite>/reference/<id>/trajectory.json  each task's reference solution: a trajectory
 *                                        `deskpilot replay --file` runs without a model
 *   <suite>/reference/<id>.json          …or, for a task that cannot be done, the answer a
 *                                        correct agent gives: {"claim": "infeasible"}
 *   <suite>/anti-reference/<id>.json     a plausible wrong end state: shell commands run
 *                                        after the task's setup, and the claim beside it
 *   <suite>/sets.json                    named subsets: {"ci": ["id", …]}
 *
 * Two suites ship in resources/eval/ (the npm package's `files`, the app's
 * extraResources): `builtin`, over small Debian apps (CI runs it), and `extended`, over
 * LibreOffice Calc and Writer — opt-in, because LibreOffice is ~300 MB to install and a
 * minute to start at load 30 on 2 cores. Any folder of task JSON files runs too; it has
 * references only when it is laid out like this.
 */
export const BUILTIN_SUITE = 'builtin';
export const EXTENDED_SUITE = 'extended';
export const SHIPPED_SUITES = [BUILTIN_SUITE, EXTENDED_SUITE] as const;
export type ShippedSuite = (typeof SHIPPED_SUITES)[number];

const isShippedSuite = (name: string): name is ShippedSuite => (SHIPPED_SUITES as readonly string[]).includes(name);

/** The shipped suite a folder belongs to, for the first progress line. */
export function shippedSuiteOf(tasksDir: string): ShippedSuite | undefined {
  return SHIPPED_SUITES.find((name) => tasksDir.startsWith(builtinSuiteDir(name) + path.sep));
}

export function builtinSuiteDir(name: ShippedSuite = BUILTIN_SUITE): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  // From source (src/main/eval/suite) and from a bundle (out/cli) the package root is a different number of levels up.
  for (let i = 0; i < 8; i++) {
    const candidate = path.join(dir, 'resources', 'eval', name);
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const packaged = (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath;
  return packaged ? path.join(packaged, 'eval', name) : path.resolve('resources', 'eval', name);
}

export interface SuiteSource {
  /** The folder the task files come from (the first progress line names it: task files are code). */
  tasksDir: string;
  /** The task files (absolute), sorted. */
  files: string[];
  /** The suite's root when it has references and sets; undefined for a bare folder or one file. */
  root?: string;
}

/** "builtin" or "extended", a suite folder, a folder of task files or one task file. */
export function resolveSuite(source: string): SuiteSource {
  const target = isShippedSuite(source) ? builtinSuiteDir(source) : path.resolve(source);
  if (!existsSync(target)) throw new SuiteError(`${source}: no such task file or folder`);
  if (statSync(target).isFile()) return { tasksDir: path.dirname(target), files: [target] };
  const tasks = path.join(target, 'tasks');
  if (existsSync(tasks) && statSync(tasks).isDirectory()) return { tasksDir: tasks, files: jsonFiles(tasks), root: target };
  return { tasksDir: target, files: jsonFiles(target) };
}

function jsonFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSorted(d)) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && entry.name.endsWith('.json')) out.push(full);
    }
  };
  walk(dir);
  return out;
}

function readdirSorted(dir: string) {
  return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export class SuiteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SuiteError';
  }
}

const SetsSchema = z.record(z.string().regex(/^[a-z0-9-]+$/), z.array(z.string().min(1)));

/** The task ids of a named set (`--set ci`), or a SuiteError naming the sets there are. */
export function taskSet(suite: SuiteSource, name: string): Set<string> {
  const file = suite.root ? path.join(suite.root, 'sets.json') : undefined;
  if (!file || !existsSync(file)) throw new SuiteError(`--set ${name}: ${suite.tasksDir} has no sets (a suite's sets.json names them)`);
  const parsed = SetsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new SuiteError(`${file}: ${parsed.error.issues[0]?.message ?? 'not a map of set names to task ids'}`);
  const ids = parsed.data[name];
  if (!ids) throw new SuiteError(`--set ${name}: no such set in ${file} (there are: ${Object.keys(parsed.data).join(', ') || 'none'})`);
  return new Set(ids);
}

/** A task's reference solution: a trajectory to replay, or the claim a correct agent makes. */
export type Reference = { kind: 'trajectory'; file: string } | { kind: 'claim'; claim: 'infeasible' };

const ClaimReferenceSchema = z.object({ claim: z.literal('infeasible'), why: z.string().optional() }).strict();

export function referenceOf(suite: SuiteSource, taskId: string): Reference | string {
  if (!suite.root) return `${suite.tasksDir} is not a suite folder with references (tasks/, reference/)`;
  const trajectory = path.join(suite.root, 'reference', safeId(taskId), 'trajectory.json');
  if (existsSync(trajectory)) return { kind: 'trajectory', file: trajectory };
  const claimFile = path.join(suite.root, 'reference', `${safeId(taskId)}.json`);
  if (existsSync(claimFile)) {
    const parsed = ClaimReferenceSchema.safeParse(JSON.parse(readFileSync(claimFile, 'utf8')));
    if (!parsed.success) throw new SuiteError(`${claimFile}: ${parsed.error.issues[0]?.message ?? 'not a reference'}`);
    return { kind: 'claim', claim: parsed.data.claim };
  }
  return `task ${taskId} has no reference solution in ${path.join(suite.root, 'reference')}`;
}

const AntiReferenceSchema = z
  .object({
    /** Shell commands (sh -c, in the task's HOME, on its desktop) run after the task's setup: they make the wrong end state. */
    commands: z.array(z.string().min(1)),
    /** What the imagined agent claims: "done" (it says it succeeded) by default. */
    claim: z.enum(['done', 'infeasible']).default('done'),
    /** Why this end state is wrong, for a person reading the suite. */
    why: z.string().min(1),
  })
  .strict();
export type AntiReference = z.infer<typeof AntiReferenceSchema>;

export function antiReferenceOf(suite: SuiteSource, taskId: string): AntiReference | string {
  if (!suite.root) return `${suite.tasksDir} is not a suite folder with anti-references (tasks/, anti-reference/)`;
  const file = path.join(suite.root, 'anti-reference', `${safeId(taskId)}.json`);
  if (!existsSync(file)) return `task ${taskId} has no anti-reference in ${path.dirname(file)}`;
  const parsed = AntiReferenceSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SuiteError(`${file}: ${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'not an anti-reference'}`);
  }
  return parsed.data;
}

function safeId(id: string): string {
  if (id === '.' || id === '..' || /[/\\\0]/.test(id)) throw new SuiteError(`task id ${JSON.stringify(id)} cannot name a file`);
  return id;
}
