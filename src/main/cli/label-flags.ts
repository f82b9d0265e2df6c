import { InvalidArgumentError, type Command } from 'commander';
import { z } from 'zod';

/**
 * `--label key=value` (repeatable) on `run` and `replay`: labels logged with the run's
 * run_started, which `sessions list --search label:key=value` and History read.
 * `deskpilot eval` passes its own (shared/eval-labels.ts) so History groups an eval's runs.
 * The labels a run writes itself (`source`, a replay's, a virtual display's) are not
 * the caller's to set: a label naming one is refused, never silently overwritten.
 */
const RESERVED = new Set(['source', 'replayOf', 'replayRevision', 'replayMode', 'virtualDisplay']);

/** A key a search can name (`label:key=value`): a letter, then letters, digits, `_`, `.`, `-`; at most 64. */
const LabelKeySchema = z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'a label key is a letter, then letters, digits, "_", "." or "-" (at most 64)');
/** 1000 characters: a path or a title, never a payload. */
const LabelValueSchema = z.string().max(1000, 'a label value is at most 1000 characters');

/** One `key=value` as commander hands it; `previous` is the labels so far. */
export function labelArgument(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError(`expected key=value, got ${JSON.stringify(value.slice(0, 80))}`);
  const key = LabelKeySchema.safeParse(value.slice(0, at));
  if (!key.success) throw new InvalidArgumentError(key.error.issues[0]!.message);
  if (RESERVED.has(key.data)) throw new InvalidArgumentError(`the label ${key.data} is set by DeskPilot itself`);
  const text = LabelValueSchema.safeParse(value.slice(at + 1));
  if (!text.success) throw new InvalidArgumentError(text.error.issues[0]!.message);
  if (Object.hasOwn(previous, key.data)) throw new InvalidArgumentError(`the label ${key.data} is given twice`);
  return { ...previous, [key.data]: text.data };
}

export function addLabelOption(command: Command): Command {
  return command.option('--label <key=value>', 'a label logged with the run (repeatable); sessions list --search label:key=value finds it', labelArgument);
}
