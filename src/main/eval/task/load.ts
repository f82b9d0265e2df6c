import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import {
  CONFIG_STEP_TYPES,
  ConfigStepSchema,
  FUNC_NAMES,
  FuncOptionsSchemas,
  GETTER_TYPES,
  GetterSchema,
  RawTaskSchema,
  type Check,
  type ConfigStep,
  type EvalTask,
  type Evaluator,
  type FuncName,
  type Getter,
  type RawTask,
} from './schema.js';
import { assertNever } from '../../../shared/assert-never.js';
import { TABLE_RULE_TYPES, TableRuleSchema } from './table-rules.js';

/** A task file that is not a task: names the file and the field, so a person can fix it. */
export class TaskFileError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly detail: string,
  ) {
    super(`${file}: ${field}: ${detail}`);
    this.name = 'TaskFileError';
  }
}

export type LoadResult =
  | { ok: true; task: EvalTask }
  /** Well-formed, but needs something DeskPilot does not do: listed in the report with `skip`. */
  | { ok: false; id: string; file: string; instruction: string; skip: string };

/** 1 MiB: OSWorld's largest task files are a few KB; a bigger one is not a task file. */
export const MAX_TASK_FILE_BYTES = 1024 * 1024;

/**
 * Reads one OSWorld task file. Malformed → throws TaskFileError (file + field); a part
 * DeskPilot does not support → `{ok: false, skip}` naming the part; else the task.
 */
export async function loadTask(file: string): Promise<LoadResult> {
  const absolute = path.resolve(file);
  let size: number;
  try {
    size = (await stat(absolute)).size;
  } catch (error) {
    throw new TaskFileError(absolute, '(file)', `cannot be read: ${(error as Error).message}`);
  }
  if (size > MAX_TASK_FILE_BYTES) throw new TaskFileError(absolute, '(file)', `is ${size} bytes; a task file is at most ${MAX_TASK_FILE_BYTES}`);
  const text = await readFile(absolute, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TaskFileError(absolute, '(file)', `is not JSON: ${(error as Error).message}`);
  }
  return parseTask(json, absolute);
}

/** The same for JSON already read (the runner's built-in suite, tests). */
export function parseTask(json: unknown, file: string): LoadResult {
  const raw = parse(RawTaskSchema, json, file, '');
  const reader = new TaskReader(file);
  const config = reader.steps(raw.config, 'config');
  const evaluator = reader.evaluator(raw.evaluator);
  if (reader.skips.length > 0) {
    const shown = reader.skips.slice(0, 3).join('; ');
    const more = reader.skips.length > 3 ? `; … and ${reader.skips.length - 3} more` : '';
    return { ok: false, id: raw.id, file, instruction: raw.instruction, skip: shown + more };
  }
  const task: EvalTask = { id: raw.id, instruction: raw.instruction, file, relatedApps: raw.related_apps ?? [], config, evaluator };
  if (raw.source !== undefined) task.source = raw.source;
  return { ok: true, task };
}

function fieldName(prefix: string, issuePath: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of issuePath) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out || '(top level)';
}

function parse<S extends z.ZodType>(schema: S, value: unknown, file: string, field: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new TaskFileError(file, fieldName(field, issue.path), issue.message);
}

type RawEvaluator = RawTask['evaluator'];
type RawGetterSlot = NonNullable<RawEvaluator['result']>;

/** Parts of OSWorld commands that only its Ubuntu VM has. */
function vmOnlyCommand(command: unknown): string | undefined {
  const text = Array.isArray(command) ? command.join(' ') : String(command);
  if (text.includes('pyautogui')) return "drives the screen with pyautogui inside OSWorld's VM";
  if (text.includes('/home/user/')) return "names OSWorld's /home/user inside a command (paths are mapped to the desktop's HOME, commands are not)";
  return undefined;
}

class TaskReader {
  readonly skips: string[] = [];
  constructor(private readonly file: string) {}

  private malformed(field: string, detail: string): never {
    throw new TaskFileError(this.file, field, detail);
  }

  steps(raw: RawTask['config'], field: string): ConfigStep[] {
    const steps: ConfigStep[] = [];
    raw.forEach((step, i) => {
      const at = `${field}[${i}]`;
      if (!(CONFIG_STEP_TYPES as readonly string[]).includes(step.type)) {
        this.skips.push(`${at}: setup step "${step.type}" is not supported`);
        return;
      }
      const parsed = parse(ConfigStepSchema, { type: step.type, parameters: step.parameters }, this.file, at);
      if ((parsed.type === 'execute' || parsed.type === 'command') && (parsed.parameters.until || parsed.parameters.stdout || parsed.parameters.stderr)) {
        this.skips.push(`${at}: ${parsed.type} with until/stdout/stderr (OSWorld's polling and cache output) is not supported`);
      }
      if (parsed.type === 'launch' || parsed.type === 'execute' || parsed.type === 'command') {
        const vmOnly = vmOnlyCommand(parsed.parameters.command);
        if (vmOnly) this.skips.push(`${at}: the command ${vmOnly}`);
      }
      steps.push(parsed);
    });
    return steps;
  }

  evaluator(raw: RawEvaluator): Evaluator {
    const postconfig = this.steps(raw.postconfig ?? [], 'evaluator.postconfig');
    const funcs = typeof raw.func === 'string' ? [raw.func] : raw.func;
    if (raw.func === 'infeasible') return { kind: 'infeasible', postconfig };
    if (funcs.includes('infeasible')) this.malformed('evaluator.func', '"infeasible" is a whole evaluator, not a member of a func list');
    const list = Array.isArray(raw.func);
    const results = this.slots(raw.result, funcs.length, list, 'evaluator.result');
    const expecteds = this.slots(raw.expected, funcs.length, list, 'evaluator.expected');
    const options = this.optionSlots(raw.options, funcs.length, list);
    const checks: Check[] = [];
    funcs.forEach((func, i) => {
      const at = (field: string) => (list ? `evaluator.${field}[${i}]` : `evaluator.${field}`);
      if (!(FUNC_NAMES as readonly string[]).includes(func)) {
        this.skips.push(`${at('func')}: metric "${func}" is not supported`);
        return;
      }
      const check = this.check(func as FuncName, results[i]!, expecteds[i]!, options[i]!, at);
      if (check) checks.push(check);
    });
    return { kind: 'checks', conj: raw.conj ?? 'and', checks, postconfig };
  }

  /** result/expected as one slot per func: a list for a func list, one getter otherwise; `{}`/null/absent → null. */
  private slots(raw: RawGetterSlot | undefined, count: number, list: boolean, field: string): Array<Record<string, unknown> | null> {
    if (raw === undefined) return Array.from({ length: count }, () => null);
    if (Array.isArray(raw)) {
      if (!list) this.malformed(field, 'is a list but func is a single name');
      if (raw.length === 0) return Array.from({ length: count }, () => null);
      if (raw.length !== count) this.malformed(field, `has ${raw.length} entries for ${count} funcs`);
      return raw.map((slot) => (slot && 'type' in slot ? slot : null));
    }
    if (list && 'type' in raw) this.malformed(field, `must be a list of ${count} getters, one per func`);
    const one = 'type' in raw ? raw : null;
    return Array.from({ length: count }, () => one);
  }

  private optionSlots(raw: RawEvaluator['options'], count: number, list: boolean): Array<Record<string, unknown>> {
    if (raw === undefined) return Array.from({ length: count }, () => ({}));
    if (Array.isArray(raw)) {
      if (!list) this.malformed('evaluator.options', 'is a list but func is a single name');
      if (raw.length !== count) this.malformed('evaluator.options', `has ${raw.length} entries for ${count} funcs`);
      return raw.map((o) => o ?? {});
    }
    if (list) this.malformed('evaluator.options', `must be a list of ${count} option objects, one per func`);
    return [raw];
  }

  private getter(raw: Record<string, unknown> | null, field: string): Getter | null | 'skip' {
    if (raw === null) return null;
    const type = String(raw.type);
    if (!(GETTER_TYPES as readonly string[]).includes(type)) {
      this.skips.push(`${field}: getter "${type}" is not supported`);
      return 'skip';
    }
    const getter = parse(GetterSchema, raw, this.file, field);
    if (getter.type === 'vm_file' && getter.time_suffix) {
      this.skips.push(`${field}: vm_file with time_suffix (a file name from today's date) is not supported`);
      return 'skip';
    }
    if ((getter.type === 'vm_file' || getter.type === 'cloud_file') && !getter.multi && (Array.isArray(getter.path) || Array.isArray(getter.dest))) {
      this.malformed(field, 'path and dest are lists only with "multi": true');
    }
    if ((getter.type === 'vm_file' || getter.type === 'cloud_file') && getter.multi) {
      const paths = Array.isArray(getter.path) ? getter.path : [getter.path];
      const dests = getter.dest === undefined ? paths : Array.isArray(getter.dest) ? getter.dest : [getter.dest];
      if (paths.length !== dests.length) this.malformed(field, `has ${paths.length} paths for ${dests.length} dests`);
      const outside = (getter.gives ?? [0]).find((g) => g >= paths.length);
      if (outside !== undefined) this.malformed(`${field}.gives`, `${outside} is not the index of one of its ${paths.length} files`);
    }
    if (getter.type === 'vm_command_line') {
      const vmOnly = vmOnlyCommand(getter.command);
      if (vmOnly) {
        this.skips.push(`${field}: the command ${vmOnly}`);
        return 'skip';
      }
    }
    return getter;
  }

  private check(func: FuncName, rawResult: Record<string, unknown> | null, rawExpected: Record<string, unknown> | null, rawOptions: Record<string, unknown>, at: (field: string) => string): Check | null {
    const result = this.getter(rawResult, at('result'));
    const expected = this.getter(rawExpected, at('expected'));
    if (result === 'skip' || expected === 'skip') return null;
    if (result === null) this.malformed(at('result'), `is required: ${func} reads the end state from it`);
    const options = parse(FuncOptionsSchemas[func], rawOptions, this.file, at('options'));
    if (func === 'compare_table') {
      let supported = true;
      (options as { rules: Array<{ type: string }> }).rules.forEach((rule, r) => {
        if (!(TABLE_RULE_TYPES as readonly string[]).includes(rule.type)) {
          this.skips.push(`${at('options')}.rules[${r}]: compare_table rule "${rule.type}" is not supported`);
          supported = false;
        } else parse(TableRuleSchema, rule, this.file, `${at('options')}.rules[${r}]`);
      });
      if (!supported) return null;
    }
    this.requireInputs(func, result, expected, at);
    return { func, result, expected, options } as Check;
  }

  /** What each func reads from its inputs (its Python body would raise on anything else). */
  private requireInputs(func: FuncName, result: Getter, expected: Getter | null, at: (field: string) => string): void {
    const isFile = (g: Getter | null) => g !== null && (g.type === 'vm_file' || g.type === 'cloud_file' || g.type === 'cache_file');
    const oneFile = (g: Getter | null) => isFile(g) && !((g!.type === 'vm_file' || g!.type === 'cloud_file') && g!.multi && (g!.gives ?? [0]).length > 1);
    const rules = (field: string): Record<string, unknown> => {
      if (expected?.type !== 'rule') this.malformed(at('expected'), `${func} needs a "rule" expectation`);
      const value = expected.rules;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) this.malformed(`${at('expected')}.rules`, 'must be an object');
      if (field && !(field in value)) this.malformed(`${at('expected')}.rules.${field}`, `is required by ${func}`);
      return value as Record<string, unknown>;
    };
    switch (func) {
      case 'exact_match':
      case 'is_in_list':
        rules('expected');
        return;
      case 'fuzzy_match':
        if (typeof rules('expected').expected !== 'string') this.malformed(`${at('expected')}.rules.expected`, 'must be a string');
        return;
      case 'check_include_exclude': {
        const value = rules('');
        for (const key of ['include', 'exclude'] as const) {
          const list = value[key];
          if (list !== undefined && (!Array.isArray(list) || list.some((s) => typeof s !== 'string'))) this.malformed(`${at('expected')}.rules.${key}`, 'must be a list of strings');
        }
        return;
      }
      case 'check_direct_json_object': {
        const value = rules('expected');
        if (typeof value.expected !== 'object' || value.expected === null || Array.isArray(value.expected)) this.malformed(`${at('expected')}.rules.expected`, 'must be an object');
        if (value.expect_in_result !== undefined && typeof value.expect_in_result !== 'boolean') this.malformed(`${at('expected')}.rules.expect_in_result`, 'must be true or false');
        return;
      }
      case 'literal_match':
        if (expected === null) this.malformed(at('expected'), 'is required by literal_match');
        return;
      case 'compare_text_file':
        if (!oneFile(result)) this.malformed(at('result'), 'compare_text_file reads one file: vm_file, cloud_file or cache_file');
        if (!oneFile(expected)) this.malformed(at('expected'), 'compare_text_file compares with one file: vm_file, cloud_file or cache_file');
        return;
      case 'compare_table':
        if (!oneFile(result)) this.malformed(at('result'), 'compare_table reads one file: vm_file, cloud_file or cache_file');
        if (expected !== null && !oneFile(expected)) this.malformed(at('expected'), 'compare_table compares with one file: vm_file, cloud_file or cache_file');
        return;
      default:
        assertNever(func, 'func');
    }
  }
}
