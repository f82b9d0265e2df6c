import type { ToolResultLogSchema } from '../../../shared/events.js';
import type { z } from 'zod';
import { ToolMissingError } from '../../../os-control/exec.js';
import { pruneImages } from '../context.js';
import { addUsage, costOf } from '../pricing.js';
import { ProviderRequestError, ProviderTimeoutError, ProviderUnavailableError, type ModelTurn } from '../providers/types.js';
import { callRecord, type ToolResultItem, type TranscriptItem } from '../transcript.js';
import { isAbortError, throwIfAborted } from '../../../shared/abort.js';
import { formatCost } from '../../../shared/usage-text.js';
import type { RunErrorCause } from '../run-api.js';
import type { RunContext, RunEnding, SeenObservation } from './context.js';
import { executeTurn } from './execute.js';
import { mayTypePassword, maskTypedPasswords } from './turn-secrets.js';
import { TurnStream } from './turn-stream.js';
import { observeScreen } from './observe.js';
import { attachFreshImage } from './resume.js';
import { judgeReply, tellModel } from './unreadable.js';
import { blockOcr } from '../harness/code/block-ocr.js';
import { screenWords, withoutImages } from '../harness/planner/text-only.js';

/** What the model is told instead of being sent the same pixels again. */
export const SCREEN_UNCHANGED = 'The screen did not change.';

/** Longest the runner waits for the screen to settle after acting. */
const SETTLE_MAX_MS = 3_000;

/**
 * The loop of one run: observe → model turn → each proposed action validated, gated,
 * executed → settle → observe … until the model is done, a limit is hit, or the run
 * is stopped. Returns how the run ended; never throws for a model's or the network's
 * misbehaviour (those become events), only the caller's bugs escape.
 */
export async function runLoop(ctx: RunContext): Promise<RunEnding> {
  const { control } = ctx;
  try {
    ctx.emit({ type: 'state', state: 'running', reason: '' });
    let seen = await firstLook(ctx);
    // The step's fsync runs while the model thinks; it must be done before anything acts.
    let synced = startSync(ctx);
    for (;;) {
      const limit = limitReached(ctx);
      if (limit) {
        await synced;
        return limit;
      }
      await waitIfPaused(ctx);
      const turn = await modelTurn(ctx, seen);
      await synced;
      if (!turn) continue; // paused after an outage and resumed: ask again
      const verdict = judgeReply(ctx, turn);
      const ending = verdict.kind === 'end' ? verdict.ending : verdict.kind === 'retry' ? undefined : turnEnding(turn);
      ctx.transcript.push(turn.assistant);
      const outcome = verdict.kind === 'end' ? { results: [], acted: false } : await executeTurn(ctx, turn.assistant, seen);
      ctx.step += 1;
      if (outcome.ending || ending) {
        await ctx.log.sync();
        return outcome.ending ?? ending!;
      }
      const correction = verdict.kind === 'retry' ? verdict.correction : undefined;
      seen = await lookAfter(ctx, outcome.results, outcome.acted, correction);
      if (correction !== undefined) tellModel(ctx, correction, seen, outcome.results.length > 0);
      synced = startSync(ctx);
    }
  } catch (error) {
    if (isAbortError(error) || control.signal.aborted) {
      return ctx.pendingEnding ?? { status: 'stopped', summary: control.stopReason ?? stopReason(control.signal) };
    }
    const message = error instanceof Error ? error.message : String(error);
    ctx.emit({ type: 'error', message, fatal: true });
    return { status: 'error', summary: message, errorCause: errorCauseOf(error) };
  }
}

/** Which side failed, for the caller's exit code: the model server's refusal or silence, or anything else. */
function errorCauseOf(error: unknown): RunErrorCause {
  const cause = error instanceof Error ? error.cause : undefined;
  if (error instanceof ProviderTimeoutError || error instanceof ProviderRequestError || cause instanceof ProviderRequestError) return 'provider';
  // A helper program the desktop needs (xdotool, xclip …) is not installed.
  if (error instanceof ToolMissingError || cause instanceof ToolMissingError) return 'environment';
  return 'internal';
}

/** The first screenshot: with the task on a new run, replacing the last image on a resumed one. */
async function firstLook(ctx: RunContext): Promise<SeenObservation> {
  const seen = await observeScreen(ctx);
  if (ctx.transcript.length === 0) ctx.transcript.push({ role: 'user', text: ctx.task, image: seen.image });
  else attachFreshImage(ctx.transcript, seen.image);
  return seen;
}

async function waitIfPaused(ctx: RunContext): Promise<void> {
  if (!ctx.control.paused) return;
  // The control emits the paused/running state events itself.
  await ctx.control.waitWhilePaused(ctx.control.signal);
}

/**
 * One model turn with streaming, retries reported as events, and accounting. On an
 * outage (retries exhausted) the run pauses with the reason and returns undefined
 * once someone resumes it.
 */
async function modelTurn(ctx: RunContext, seen: SeenObservation): Promise<ModelTurn | undefined> {
  const { record } = seen;
  const keep = ctx.options.config.context;
  let turn: ModelTurn;
  // Live text leaves through the same scrubber as the log (a key the model echoes, a typed
  // secret); a turn that may type a password is sent once its calls are checked (turn-stream.ts).
  const { onDelta } = ctx.options;
  const deltas = onDelta ? new TurnStream((text) => ctx.log.scrubText(text), onDelta, mayTypePassword(ctx, seen)) : undefined;
  try {
    turn = await ctx.provider.turn(
      {
        system: ctx.system({ width: record.image.width, height: record.image.height }),
        transcript: await textOnly(ctx, withElementList(pruneImages(ctx.transcript, { keepImages: keep.keepImages, pruneStep: keep.pruneStep }), seen), seen),
        observation: record,
        ...(seen.screenPixels ? { screen: seen.screenPixels } : {}),
        tools: ctx.tools.specs,
      },
      ctx.control.signal,
      {
        onDelta: (text, kind) => deltas?.push(text, kind),
        onRetry: (info) =>
          ctx.emit({ type: 'error', message: `model request failed (attempt ${info.attempt}): ${info.error}; retrying`, retryInMs: info.delayMs, fatal: false }),
      },
    );
  } catch (error) {
    deltas?.drop();
    if (isAbortError(error) || ctx.control.signal.aborted) throw error;
    if (error instanceof ProviderUnavailableError) {
      const reason = `provider unavailable: ${error.message}`;
      ctx.emit({ type: 'error', message: reason, fatal: false });
      ctx.control.pause(reason);
      await ctx.log.sync();
      await waitIfPaused(ctx);
      return undefined;
    }
    if (error instanceof ProviderRequestError) throw new Error(`the model request was refused: ${error.message}`, { cause: error });
    throw error;
  }
  throwIfAborted(ctx.control.signal);

  const cost = costOf(turn.usage, ctx.price);
  const usage = addUsage(ctx.total, turn.usage, cost);
  ctx.total = usage.total;
  ctx.emit({ type: 'usage', step: ctx.step, stepUsage: usage.step, total: usage.total });
  const { assistant } = turn;
  await maskTypedPasswords(ctx, assistant, seen);
  deltas?.end();
  if (assistant.thinking) ctx.emit({ type: 'model_text', step: ctx.step, text: assistant.thinking, kind: 'thinking' });
  ctx.emit({
    type: 'model_text',
    step: ctx.step,
    text: assistant.text,
    kind: 'text',
    assistant: {
      calls: assistant.calls.map(callRecord),
      ...(assistant.thinking ? { thinking: assistant.thinking } : {}),
      ...(assistant.providerState !== undefined ? { providerState: assistant.providerState } : {}),
      stopReason: turn.stopReason,
    },
  });
  return turn;
}

/**
 * The element list of the screenshot the model is about to act on, after everything
 * else and for this request only (issue 16: with the latest screenshot only; an older
 * list would name ids that no longer resolve).
 */
function withElementList(transcript: TranscriptItem[], seen: SeenObservation): TranscriptItem[] {
  const text = seen.grounding?.list?.text;
  return text ? [...transcript, { role: 'user', text, transient: true }] : transcript;
}

/** A model without vision (profile `vision: false`) is sent no image: the element list above and the screen's OCR words instead (harness/planner/text-only.ts). */
async function textOnly(ctx: RunContext, transcript: TranscriptItem[], seen: SeenObservation): Promise<TranscriptItem[]> {
  if (ctx.options.profile.vision !== false) return transcript;
  const words = await screenWords(seen.image, blockOcr()?.readWords, ctx.control.signal);
  return [...withoutImages(transcript), { role: 'user', text: words, transient: true }];
}

/** A turn without tool calls ends the run: the model says it is done, refused, or ran out of tokens. */
function turnEnding(turn: ModelTurn): RunEnding | undefined {
  if (turn.assistant.calls.length > 0) return undefined;
  const text = turn.assistant.text.trim();
  switch (turn.stopReason) {
    case 'refusal':
      return { status: 'failed', summary: text || 'the model refused the task' };
    case 'max_tokens':
      return { status: 'error', summary: 'the model ran out of output tokens before proposing an action', errorCause: 'provider' };
    default:
      return { status: 'done', summary: text };
  }
}

/** After acting: let the screen settle, then the screenshot that answers the turn's calls. */
async function lookAfter(ctx: RunContext, results: ToolResultItem[], acted: boolean, correction?: string): Promise<SeenObservation> {
  let settleMs = 0;
  if (acted) {
    const quietMs = ctx.provider.settleQuietMs;
    const settled = await ctx.computer.settle({ maxMs: SETTLE_MAX_MS, signal: ctx.control.signal, displayId: ctx.display.id, ...(quietMs !== undefined ? { quietMs } : {}) });
    settleMs = settled.waitedMs;
  }
  const logged: Array<z.infer<typeof ToolResultLogSchema>> = results.map((r) => ({
    callId: r.callId,
    name: r.name,
    ok: r.ok,
    text: r.text,
    ...(r.acknowledgedSafetyChecks ? { acknowledgedSafetyChecks: r.acknowledgedSafetyChecks } : {}),
  }));
  const before = ctx.latest;
  const seen = await observeScreen(ctx, { settleMs, toolResults: logged, ...(correction !== undefined ? { correction } : {}) });
  // The fresh screenshot answers the last call; an earlier zoom keeps its own image. The
  // same pixels as the screenshot the model already has (os-control's frame identity)
  // are not sent again: one line instead of ~800–2,800 tokens.
  const unchanged = before?.frameId !== undefined && before.frameId === seen.frameId && before.record.image.width === seen.record.image.width;
  const last = results[results.length - 1];
  if (last && unchanged) {
    last.text = last.text ? `${last.text}\n${SCREEN_UNCHANGED}` : SCREEN_UNCHANGED;
  } else if (last) {
    last.image = seen.image;
  }
  ctx.transcript.push(...results);
  return seen;
}

/** Starts the log's fsync; a failure surfaces where it is awaited, never as an unhandled rejection. */
function startSync(ctx: RunContext): Promise<void> {
  const pending = ctx.log.sync();
  pending.catch(() => undefined);
  return pending;
}

function limitReached(ctx: RunContext): RunEnding | undefined {
  if (ctx.pendingEnding) return ctx.pendingEnding;
  const { limits } = ctx.options;
  if (ctx.step >= limits.maxSteps) return { status: 'limit', summary: `step limit reached (${limits.maxSteps} steps)` };
  if (ctx.total.costUsd >= limits.maxCostUsd) {
    return { status: 'limit', summary: `cost limit reached (${formatCost(ctx.total.costUsd)} of $${limits.maxCostUsd})` };
  }
  if (Date.now() - ctx.startedAt >= limits.maxWallMs) {
    return { status: 'limit', summary: `time limit reached (${Math.round(limits.maxWallMs / 1000)} s)` };
  }
  return undefined;
}

function stopReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error && reason.message && reason.name !== 'AbortError') return reason.message;
  return 'stopped by the person';
}
