/**
 * Abort, one way for the whole program: every await that a stop must interrupt rejects
 * with an error made here, and every "was that a stop?" is answered by `isAbortError`.
 * Dependency-free, so os-control, the agent and the renderer all use this one file.
 *
 * The error is a DOMException named "AbortError" (what `AbortSignal.abort()` itself
 * produces and fetch rejects with); its message is the stop reason a person reads
 * ("stopped by you", "takeover"), never a generic "aborted" when a reason was given.
 */

const ABORT_ERROR = 'AbortError';

/** A new abort error whose message is `reason`. */
export function newAbortError(reason: string): Error {
  return new DOMException(reason, ABORT_ERROR);
}

/**
 * The error an await rejects with once `signal` has fired: the signal's reason itself
 * when it already is an abort error, else an abort error carrying the reason's text
 * (or `fallback` when the signal gave none).
 */
export function abortError(signal: AbortSignal | undefined, fallback = 'stopped'): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && isAbortError(reason)) return reason;
  if (typeof reason === 'string' && reason) return newAbortError(reason);
  if (reason instanceof Error && reason.message) return newAbortError(reason.message);
  return newAbortError(fallback);
}

/**
 * True for the error a stop produces: ours, fetch's and AbortSignal's (DOMException
 * "AbortError"), and the provider SDKs' own ("APIUserAbortError" in both the Anthropic
 * and the OpenAI SDK). A timeout ("TimeoutError") is not a stop.
 */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === ABORT_ERROR || error.name === 'APIUserAbortError');
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

/** Waits `ms`, rejecting with `abortError(signal)` as soon as the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Resolves on the next macrotask, so timers and I/O run in between (an abort raised by
 * a timer can only land at such a boundary). setImmediate where it exists (Node: no
 * 1 ms floor, which typing pays per character), else setTimeout 0.
 */
export function yieldToEventLoop(): Promise<void> {
  const next: (callback: () => void) => unknown = globalThis.setImmediate ?? ((callback) => setTimeout(callback, 0));
  return new Promise((resolve) => {
    next(resolve);
  });
}
