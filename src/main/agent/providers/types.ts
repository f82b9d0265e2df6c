import type { ImageTarget } from '../../../os-control/types.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import type { ProviderFamily } from '../../../shared/providers.js';
import type { AssistantItem, TranscriptItem } from '../transcript.js';
import type { ToolSpec } from './tool-spec.js';

export type { ProviderFamily } from '../../../shared/providers.js';

/** Tokens as the provider reported them; the runner prices them with the model's price table. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface TurnRequest {
  system: string;
  transcript: readonly TranscriptItem[];
  /** The screenshot the model will see last (its record decides the coordinate space). */
  observation: ObservationRecord;
  /**
   * The function tools this run offers besides the computer: the built-ins
   * (builtin-tools.ts) and the run's own tools, as wire specs. A call of a name not
   * here (nor a built-in, nor the computer) is an unknown tool.
   */
  tools: readonly ToolSpec[];
}

export interface TurnCallbacks {
  /** Streaming text as it arrives (not logged; the final text arrives in the turn). */
  onDelta?(text: string, kind: 'text' | 'thinking'): void;
  /** A retry is scheduled after a retryable failure. */
  onRetry?(info: { attempt: number; delayMs: number; error: string }): void;
}

export interface ModelTurn {
  assistant: AssistantItem;
  usage: TokenUsage;
  /** Why the model stopped: it called tools, it ended its turn, it hit max tokens, it refused. */
  stopReason: 'tool_use' | 'end_turn' | 'max_tokens' | 'refusal' | 'other';
  /**
   * Set when the reply looks like an action (or its format requires one) but nothing in
   * it could be read: what was wrong and the expected format, for the model. Such a turn
   * never ends the run as done (runner/unreadable.ts).
   */
  unreadable?: string;
}

/** A provider translates between the neutral transcript and one model API; the runner uses it as a Driver (agent/driver.ts). */
export interface Provider {
  readonly family: ProviderFamily;
  readonly model: string;
  /** How the screenshot for this model must be sized, given the display's physical size. */
  imageTarget(capture: { width: number; height: number }): ImageTarget;
  /**
   * One model turn. Retries 429/529/5xx/network errors with backoff honouring
   * retry-after; throws ProviderUnavailableError when retries are exhausted and
   * an AbortError when the signal fires.
   */
  turn(request: TurnRequest, signal: AbortSignal, callbacks?: TurnCallbacks): Promise<ModelTurn>;
}

/** Retries are exhausted or the provider refuses service: the run pauses with this reason. */
export class ProviderUnavailableError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}

/** A non-retryable request error (bad key, bad request): the run ends with this reason. */
export class ProviderRequestError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderRequestError';
  }
}

/**
 * The model server gave no answer within the request timeout (the whole request,
 * retries included): the run ends with this reason rather than waiting on a server
 * that never answers. A server that answers with errors (429, 529 …) is unavailable
 * instead, and the run pauses.
 */
export class ProviderTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(
      `the model server gave no answer within ${formatSeconds(timeoutMs)} (the request timeout: requestTimeoutSeconds in config.json or --request-timeout)`,
    );
    this.name = 'ProviderTimeoutError';
  }
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
