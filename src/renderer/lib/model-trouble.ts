import type { RunState } from '../../shared/events.js';
import type { RunView } from '../store/run-view.js';

/**
 * Trouble with the model, in plain words (issue 34 item 4): one derivation the Activity
 * card and the page title both read. Three kinds:
 *
 *  - `retrying`: a request failed and the provider client retries (an `error` event with
 *    `retryInMs`, from agent/providers/retry.ts: up to 6 attempts, backoff doubling);
 *  - `paused`: every attempt failed, the runner paused the run ("provider unavailable: …");
 *  - `slow`: no answer for `SLOW_AFTER_MS` and no error yet (a hang looks like this).
 *
 * Trouble ends when the model answers again (`RunView.modelAnsweredAt` after the error),
 * so a card never outlives the recovery. The raw error is kept for "details", never shown
 * as the headline.
 */
export type TroubleKind = 'retrying' | 'paused' | 'slow';

export interface ModelTrouble {
  kind: TroubleKind;
  /** What happened, one sentence. */
  what: string;
  /** What DeskPilot does about it, one or two sentences. */
  doing: string;
  /** The error as the provider reported it, for "details" (absent for `slow`). */
  raw?: string;
}

/** The provider client's attempts per request (agent/providers/retry.ts DEFAULTS.maxAttempts). */
export const MAX_ATTEMPTS = 6;
/** After this long without an answer a wait is worth explaining (a computer-use turn takes 2–30 s). */
export const SLOW_AFTER_MS = 20_000;

const RETRY_MESSAGE = /^model request failed \(attempt (\d+)\): ([\s\S]*?)(?:; retrying)?$/;
const UNAVAILABLE_MESSAGE = /^provider unavailable: ([\s\S]*)$/;

/** The provider's error in words a person can act on, from its status or error code. */
export function plainError(raw: string): string {
  const status = /\b(?:HTTP |status )?([45]\d\d)\b/.exec(raw)?.[1];
  if (status === '401' || status === '403' || /invalid.{0,20}(api.)?key|unauthori[sz]ed/i.test(raw)) return 'The model provider refused the API key.';
  if (status === '429' || /rate.?limit/i.test(raw)) return 'The model provider is limiting how fast requests may come (rate limit).';
  if (status === '529' || /overloaded/i.test(raw)) return 'The model provider is overloaded.';
  if (status?.startsWith('5')) return `The model provider's server had an error (HTTP ${status}).`;
  if (/timed? ?out|timeout|ETIMEDOUT|no answer/i.test(raw)) return 'The model did not answer in time.';
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|fetch failed|network|socket hang up/i.test(raw)) return 'DeskPilot could not reach the model provider (a network error).';
  if (status) return `The model request failed (HTTP ${status}).`;
  return 'The model request failed.';
}

const seconds = (ms: number) => `${Math.max(1, Math.round(ms / 1000))} s`;

export interface TroubleInput {
  run: Pick<RunView, 'errors' | 'modelAnsweredAt' | 'waitingModelSince' | 'model'>;
  state: RunState | null;
  reason: string;
  now: number;
  requestTimeoutMs: number;
}

export function modelTrouble({ run, state, reason, now, requestTimeoutMs }: TroubleInput): ModelTrouble | null {
  const timeout = seconds(requestTimeoutMs);
  const lastError = run.errors[run.errors.length - 1];
  const current = lastError && (run.modelAnsweredAt === undefined || lastError.at > run.modelAnsweredAt) ? lastError : undefined;
  const pausedOnError = state === 'paused' && UNAVAILABLE_MESSAGE.test(reason);
  if (pausedOnError) {
    const raw = UNAVAILABLE_MESSAGE.exec(reason)![1]!;
    return {
      kind: 'paused',
      what: plainError(raw),
      doing: `All ${MAX_ATTEMPTS} attempts failed, so the run is paused; nothing runs on your desktop. Retry asks the same model again; Change model stops the run and puts its task in the box for another profile or model.`,
      raw,
    };
  }
  if (current && state !== 'paused' && state !== 'ended') {
    const m = RETRY_MESSAGE.exec(current.message);
    const raw = m ? m[2]! : current.message;
    if (!m && current.fatal) return null;
    const attempt = m ? Number(m[1]) : undefined;
    const left = current.retryInMs !== undefined ? current.at + current.retryInMs - now : undefined;
    const next = left !== undefined && left > 0 ? `Retrying in ${seconds(left)}` : 'Asking again';
    return {
      kind: 'retrying',
      what: plainError(raw),
      doing: `${next}${attempt ? ` (attempt ${attempt + 1} of ${MAX_ATTEMPTS})` : ''}. If every attempt fails the run pauses; one request gives up after ${timeout}.`,
      raw,
    };
  }
  if (run.waitingModelSince !== undefined && state === 'running' && now - run.waitingModelSince >= SLOW_AFTER_MS) {
    return {
      kind: 'slow',
      what: `${run.model || 'The model'} has not answered for ${seconds(now - run.waitingModelSince)}.`,
      doing: `DeskPilot waits up to ${timeout} for one request (retries included), then ends the run. Stop ends it now.`,
    };
  }
  return null;
}

/** Why a run was paused, in words: a model error said plainly (the raw error stays in the log), any other reason as given. */
export function pauseText(reason: string): string {
  const raw = UNAVAILABLE_MESSAGE.exec(reason)?.[1];
  return raw !== undefined ? `paused on a model error (${plainError(raw)})` : `paused (${reason})`;
}
