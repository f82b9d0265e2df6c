import type { ModelTurn } from '../providers/types.js';
import type { RunContext, RunEnding, SeenObservation } from './context.js';

/**
 * A reply that looks like an action but cannot be read is never the end of a run
 * (issue 14 class 6: a UI-TARS `Action：` reply used to end as "done", exit 0, nothing
 * done). The model is told what was wrong, with the expected format, up to
 * UNREADABLE_RETRIES times in a row; the next unreadable reply ends the run as an
 * error, with the raw reply in the log.
 */
export const UNREADABLE_RETRIES = 2;
/** Longest raw reply quoted into the log's error event (the full reply is in model_text's providerState). */
const RAW_IN_LOG = 4_000;

export type UnreadableVerdict = { kind: 'readable' } | { kind: 'retry'; correction: string } | { kind: 'end'; ending: RunEnding };

/** Judges one turn, counts the streak and logs an unreadable reply with its raw text. */
export function judgeReply(ctx: RunContext, turn: ModelTurn): UnreadableVerdict {
  if (!turn.unreadable) {
    ctx.unreadableStreak = 0;
    return { kind: 'readable' };
  }
  const streak = (ctx.unreadableStreak ?? 0) + 1;
  ctx.unreadableStreak = streak;
  const raw = rawReply(turn);
  const last = streak > UNREADABLE_RETRIES;
  ctx.emit({
    type: 'error',
    message:
      `the model's reply could not be read (${streak} of ${UNREADABLE_RETRIES + 1} in a row): ${turn.unreadable}\n` +
      `raw reply: ${raw.length > RAW_IN_LOG ? `${raw.slice(0, RAW_IN_LOG)}…` : raw}`,
    fatal: last,
  });
  if (last) {
    return { kind: 'end', ending: { status: 'error', summary: `the model's reply could not be read ${streak} times in a row: ${turn.unreadable}`, errorCause: 'model' } };
  }
  return { kind: 'retry', correction: `Your last reply could not be read, so nothing was done: ${turn.unreadable}. Look at the screenshot and answer again in that format.` };
}

/** Tells the model what was wrong: a user message with the fresh screenshot (or after the calls' error results). */
export function tellModel(ctx: RunContext, correction: string, seen: SeenObservation, answeredWithImage: boolean): void {
  ctx.transcript.push({ role: 'user', text: correction, ...(answeredWithImage ? {} : { image: seen.image }) });
}

/** The reply as the model wrote it: OpenAI-compatible providers keep it in providerState.raw. */
function rawReply(turn: ModelTurn): string {
  const state = turn.assistant.providerState as { raw?: unknown } | undefined;
  return typeof state?.raw === 'string' ? state.raw : turn.assistant.text;
}
