import { z } from 'zod';

/**
 * OSWorld's task format (xlang-ai/OSWorld: evaluation_examples/examples/<app>/<id>.json,
 * read by desktop_env/desktop_env.py and desktop_env/controllers/setup.py), as far as
 * DeskPilot runs it. One JSON object per task:
 *
 *   { id, instruction, config: [{type, parameters}], evaluator: {func, result, expected,
 *     options, conj, postconfig}, ...snapshot, source, related_apps (kept, not needed) }
 *
 * Two kinds of "no": a file that is not a task (a missing id, a step without its command,
 * a func list longer than its result list) is *malformed* — loading it throws, naming the
 * file and the field. A well-formed task that needs something DeskPilot does not do (a
 * Chrome tab step, a getter of an Ubuntu VM's settings, a metric we have no port of) is
 * *skipped*, with that reason, never run, passed or failed.
 *
 * Parameter objects of the supported steps are strict: setup.py calls
 * `_<type>_setup(**parameters)`, so a key it does not name is a TypeError there too.
 */

/** A command as OSWorld's server takes it: argv list, or one string (shlex-split unless `shell`). */
export const CommandSchema = z.union([z.string().min(1, 'must not be empty'), z.array(z.string()).min(1, 'must not be empty')]);
export type CommandSpec = z.infer<typeof CommandSchema>;

const WindowParams = z
  .object({
    window_name: z.string().min(1, 'must not be empty'),
    /** OSWorld: the title equals window_name (else it contains it). */
    strict: z.boolean().optional(),
    /** OSWorld: match the WM_CLASS instead of the title. */
    by_class: z.boolean().optional(),
  })
  .strict();

const ExecuteParams = z
  .object({
    command: CommandSchema,
    shell: z.boolean().optional(),
    /** OSWorld writes the command's stdout/stderr to this file of its cache dir (skipped: unsupported). */
    stdout: z.string().optional(),
    stderr: z.string().optional(),
    /** OSWorld repeats the command until one of these holds (skipped: unsupported). */
    until: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** The setup steps DeskPilot runs, in OSWorld's own shapes (`type` + `parameters`). */
export const ConfigStepSchema = z.discriminatedUnion('type', [
  /** Start a program and do not wait for it (OSWorld: /setup/launch, Popen). */
  z.object({ type: z.literal('launch'), parameters: z.object({ command: CommandSchema, shell: z.boolean().optional() }).strict() }),
  /** Run a command to its end (OSWorld: /setup/execute; 120 s limit there). */
  z.object({ type: z.literal('execute'), parameters: ExecuteParams }),
  /** OSWorld's alias of execute. */
  z.object({ type: z.literal('command'), parameters: ExecuteParams }),
  /** Open a local file with its default application (OSWorld: /setup/open_file). */
  z.object({ type: z.literal('open'), parameters: z.object({ path: z.string().min(1, 'must not be empty') }).strict() }),
  z.object({ type: z.literal('sleep'), parameters: z.object({ seconds: z.number().nonnegative().max(3600) }).strict() }),
  z.object({ type: z.literal('activate_window'), parameters: WindowParams }),
  z.object({ type: z.literal('close_window'), parameters: WindowParams }),
  /**
   * Put files on the desktop. DeskPilot never downloads: each URL is looked up in the file
   * cache (`--file-cache DIR`) where OSWorld's own cache keeps it (task/cache.ts).
   */
  z.object({
    type: z.literal('download'),
    parameters: z
      .object({ files: z.array(z.object({ url: z.string().min(1, 'must not be empty'), path: z.string().min(1, 'must not be empty') }).strict()).min(1, 'must not be empty') })
      .strict(),
  }),
]);
export type ConfigStep = z.infer<typeof ConfigStepSchema>;
export type ConfigStepType = ConfigStep['type'];
export const CONFIG_STEP_TYPES: readonly ConfigStepType[] = ['launch', 'execute', 'command', 'open', 'sleep', 'activate_window', 'close_window', 'download'];

/** Any step as the file has it; supported types are then parsed with ConfigStepSchema. */
export const RawStepSchema = z.object({ type: z.string().min(1, 'must not be empty'), parameters: z.record(z.string(), z.unknown()).default({}) }).loose();

const PathOrPaths = z.union([z.string().min(1, 'must not be empty'), z.array(z.string().min(1, 'must not be empty')).min(1)]);
const Gives = z.array(z.number().int().nonnegative()).min(1).optional();

/** The getters DeskPilot supports (OSWorld: desktop_env/evaluators/getters, `get_<type>`). */
export const GetterSchema = z.discriminatedUnion('type', [
  /** A file on the desktop; `multi` takes lists of path and dest, `gives` picks which reach the func. */
  z
    .object({
      type: z.literal('vm_file'),
      path: PathOrPaths,
      dest: PathOrPaths.optional(),
      multi: z.boolean().optional(),
      gives: Gives,
      time_suffix: z.boolean().optional(),
      time_format: z.string().optional(),
    })
    .strict(),
  /** A command's standard output on the desktop (OSWorld: /execute → "output"). */
  z.object({ type: z.literal('vm_command_line'), command: CommandSchema, shell: z.boolean().optional() }).strict(),
  /** A directory as OSWorld's /list_directory tree: {type: "directory", name, children}. */
  z.object({ type: z.literal('list_directory'), path: z.string().min(1, 'must not be empty') }).strict(),
  /** A literal in the task file: the func gets `rules` as it is. */
  z.object({ type: z.literal('rule'), rules: z.unknown() }).loose(),
  /** A reference file by URL, read from the file cache as `<cache>/<task id>/<dest>`. */
  z.object({ type: z.literal('cloud_file'), path: PathOrPaths, dest: PathOrPaths, multi: z.boolean().optional(), gives: Gives }).strict(),
  /** A file of the task's cache folder: `<cache>/<task id>/<path>`. */
  z.object({ type: z.literal('cache_file'), path: z.string().min(1, 'must not be empty') }).strict(),
]);
export type Getter = z.infer<typeof GetterSchema>;
export type GetterType = Getter['type'];
export const GETTER_TYPES: readonly GetterType[] = ['vm_file', 'vm_command_line', 'list_directory', 'rule', 'cloud_file', 'cache_file'];

/** A getter as the file has it. `{}` and null mean "none", as in desktop_env.py (`if exp else None`). */
export const RawGetterSchema = z.object({ type: z.string().min(1, 'must not be empty') }).loose();

/** The metric functions DeskPilot has ports of (OSWorld: desktop_env/evaluators/metrics). */
export const FUNC_NAMES = [
  'exact_match',
  'check_include_exclude',
  'compare_text_file',
  'literal_match',
  'fuzzy_match',
  'is_in_list',
  'check_direct_json_object',
  'compare_table',
] as const;
export type FuncName = (typeof FUNC_NAMES)[number];

/** The options each func takes (its keyword arguments in OSWorld; an unknown one is a TypeError there). */
export const FuncOptionsSchemas = {
  exact_match: z.object({}).strict(),
  check_include_exclude: z.object({}).strict(),
  compare_text_file: z.object({ ignore_blanks: z.boolean().optional(), ignore_case: z.boolean().optional() }).strict(),
  literal_match: z.object({ type: z.enum(['str', 'list']).optional(), ignore_case: z.boolean().optional() }).strict(),
  fuzzy_match: z.object({}).strict(),
  is_in_list: z.object({}).strict(),
  check_direct_json_object: z.object({}).strict(),
  compare_table: z.object({ rules: z.array(z.object({ type: z.string().min(1) }).loose()).min(1, 'must not be empty') }).strict(),
} satisfies Record<FuncName, z.ZodType>;
export type FuncOptions = { [F in FuncName]: z.infer<(typeof FuncOptionsSchemas)[F]> };

/** One func with its inputs: a member of a func list, or the whole evaluator. */
export type Check = {
  [F in FuncName]: {
    func: F;
    /** Where the result comes from; null: OSWorld calls the func with None. */
    result: Getter | null;
    /** Where the expectation comes from; null: the func is called without it. */
    expected: Getter | null;
    options: FuncOptions[F];
  };
}[FuncName];

export type Evaluator =
  /** The task cannot be done: the agent must end it as infeasible (fail, or finish with success false). */
  | { kind: 'infeasible'; postconfig: ConfigStep[] }
  /** Func list: `and` — any 0 scores 0, else the mean; `or` — any 1 scores 1, else the max. One func: its score. */
  | { kind: 'checks'; conj: 'and' | 'or'; checks: Check[]; postconfig: ConfigStep[] };

/** A task ready to run: everything in it is supported. */
export interface EvalTask {
  id: string;
  instruction: string;
  /** The file it was read from (absolute): task files are code, the runner names their folder. */
  file: string;
  /** OSWorld's `source` (where the task came from), when given. */
  source?: string;
  relatedApps: string[];
  config: ConfigStep[];
  evaluator: Evaluator;
}

/** The top level of a task file; unknown keys (snapshot, trajectory, proxy, …) are allowed. */
export const RawTaskSchema = z
  .object({
    id: z.string().min(1, 'must not be empty').max(200),
    instruction: z.string().min(1, 'must not be empty').max(20_000),
    source: z.string().optional(),
    related_apps: z.array(z.string()).optional(),
    config: z.array(RawStepSchema).default([]),
    evaluator: z
      .object({
        func: z.union([z.string().min(1, 'must not be empty'), z.array(z.string().min(1, 'must not be empty')).min(1, 'must not be empty')]),
        conj: z.enum(['and', 'or']).optional(),
        result: z.union([RawGetterSchema, z.object({}).strict(), z.array(RawGetterSchema.or(z.object({}).strict()).nullable())]).optional(),
        expected: z.union([RawGetterSchema, z.object({}).strict(), z.array(RawGetterSchema.or(z.object({}).strict()).nullable())]).optional(),
        options: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()).nullable())]).optional(),
        postconfig: z.array(RawStepSchema).optional(),
      })
      .loose(),
  })
  .loose();
export type RawTask = z.infer<typeof RawTaskSchema>;
