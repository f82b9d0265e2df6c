import { abortError, newAbortError } from '../../../shared/abort.js';
import type { RunEventInput } from '../../../shared/events.js';

/**
 * Run control for one run: stop (the kill switch, Ctrl-C, the HUD/tray/UI stop
 * button, a limit) and pause/resume (the person, a human takeover, a provider that
 * is down). Stop aborts one AbortController whose signal the runner passes to every
 * await — the model request, the settle wait, the approval queue, each typing chunk
 * and drag segment in os-control — so everything in flight ends at once.
 */

export type RunControlChange =
  | { kind: 'stopped'; reason: string }
  | { kind: 'paused'; reason: string }
  | { kind: 'resumed'; reason: string };

export interface RunControl {
  /** Aborted on stop; its `reason` is a DOMException named AbortError whose message is the stop reason. */
  readonly signal: AbortSignal;
  readonly stopped: boolean;
  readonly stopReason: string | undefined;
  /** performance.now() of the first stop request, to measure how fast the run ended. */
  readonly stopRequestedAt: number | undefined;
  /** Stops the run. Only the first call counts (returns false after). Also ends a pause. */
  stop(reason?: string): boolean;

  readonly paused: boolean;
  readonly pauseReason: string;
  /** false when already paused or stopped. */
  pause(reason?: string): boolean;
  /** false when not paused or stopped. */
  resume(reason?: string): boolean;
  /**
   * Resolves at once when not paused, else when resumed. Rejects with AbortError when
   * the run stops (or `signal`, e.g. a narrower one, aborts) while waiting.
   */
  waitWhilePaused(signal?: AbortSignal): Promise<void>;

  /** Every stop/pause/resume, synchronously, in order. */
  onChange(listener: (change: RunControlChange) => void): () => void;
}

export interface RunControlOptions {
  /**
   * When given, pause and resume emit `state` events (paused / running, with the
   * reason). Leave it out if the runner emits state events from onChange itself.
   */
  emit?: (event: RunEventInput) => void;
  /** Stop when this aborts too (e.g. the process-wide SIGINT signal of the CLI). */
  parentSignal?: AbortSignal;
}

export const STOP_REASONS = {
  user: 'stopped by the user',
  hotkey: 'stopped with the kill hotkey',
  interrupt: 'stopped with Ctrl-C',
} as const;


export function createRunControl(options: RunControlOptions = {}): RunControl {
  const controller = new AbortController();
  const listeners = new Set<(change: RunControlChange) => void>();
  let stopReason: string | undefined;
  let stopRequestedAt: number | undefined;
  let paused = false;
  let pauseReason = '';
  /** Resolvers of everyone waiting in waitWhilePaused. */
  let waiters: Array<() => void> = [];

  const notify = (change: RunControlChange) => {
    for (const l of [...listeners]) {
      try {
        l(change);
      } catch {
        // A faulty listener must not keep the run from stopping or pausing.
      }
    }
  };
  const release = () => {
    const w = waiters;
    waiters = [];
    for (const r of w) r();
  };

  const control: RunControl = {
    signal: controller.signal,
    get stopped() {
      return controller.signal.aborted;
    },
    get stopReason() {
      return stopReason;
    },
    get stopRequestedAt() {
      return stopRequestedAt;
    },
    stop(reason = STOP_REASONS.user) {
      if (controller.signal.aborted) return false;
      stopRequestedAt = performance.now();
      stopReason = reason;
      paused = false;
      controller.abort(newAbortError(reason));
      // Waiters see the abort through their signal listeners; release the rest.
      release();
      notify({ kind: 'stopped', reason });
      return true;
    },
    get paused() {
      return paused;
    },
    get pauseReason() {
      return pauseReason;
    },
    pause(reason = 'paused by the user') {
      if (paused || controller.signal.aborted) return false;
      paused = true;
      pauseReason = reason;
      options.emit?.({ type: 'state', state: 'paused', reason });
      notify({ kind: 'paused', reason });
      return true;
    },
    resume(reason = 'resumed') {
      if (!paused || controller.signal.aborted) return false;
      paused = false;
      pauseReason = '';
      options.emit?.({ type: 'state', state: 'running', reason });
      notify({ kind: 'resumed', reason });
      release();
      return true;
    },
    waitWhilePaused(signal?: AbortSignal) {
      const signals = signal ? [controller.signal, signal] : [controller.signal];
      const aborted = signals.find((s) => s.aborted);
      if (aborted) return Promise.reject(abortError(aborted));
      if (!paused) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const onAbort = (event: Event) => {
          cleanup();
          reject(abortError(event.target as AbortSignal));
        };
        const done = () => {
          cleanup();
          resolve();
        };
        const cleanup = () => {
          for (const s of signals) s.removeEventListener('abort', onAbort);
          waiters = waiters.filter((w) => w !== done);
        };
        for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
        waiters.push(done);
      });
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  if (options.parentSignal) {
    const parent = options.parentSignal;
    const fromParent = () => control.stop(typeof parent.reason === 'string' ? parent.reason : parent.reason instanceof Error ? parent.reason.message : STOP_REASONS.interrupt);
    if (parent.aborted) fromParent();
    else parent.addEventListener('abort', fromParent, { once: true });
  }
  return control;
}

