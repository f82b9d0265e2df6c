import type { RecordingSaved, RecordingState } from '../../shared/bridge.js';
import { errorText } from '../../shared/error-text.js';
import type { Computer } from '../../os-control/types.js';
import type { PersonInput, RecordOptions, RecordResult } from '../agent/record/record.js';
import { DEFAULT_STOP_KEY } from '../agent/record/stop-key.js';
import { BridgeError } from './types.js';

/**
 * The service's one recording at a time (`record.start` / `record.stop`): the same
 * recorder `deskpilot record` runs (agent/record `recordDemonstration`), with its state
 * pushed to the clients that may record. The recording ends on the stop key or on
 * `record.stop`; either way the session and its draft SKILL.md are saved.
 */

export type Recorder = (options: RecordOptions) => Promise<RecordResult>;

export interface RecordingOptions {
  home: string;
  computer: Computer;
  /** The display to record (config.json `displayId`), read when a recording starts. */
  displayId(): Promise<string | undefined>;
  /** Input that went to the app's own windows (host.ownsInput): not part of the task. */
  ignore?(input: PersonInput): boolean;
  onChange(state: RecordingState): void;
  /** The recorder; recordDemonstration (loaded on the first recording) unless a test brings another. */
  record?: Recorder;
}

type Outcome = { ok: true; saved: RecordingSaved } | { ok: false; message: string };

export class Recording {
  private state: RecordingState = { state: 'idle' };
  private current: { stop: AbortController; outcome: Promise<Outcome> } | undefined;

  constructor(private readonly options: RecordingOptions) {}

  now(): RecordingState {
    return this.state;
  }

  /** A recording is starting or running. */
  busy(): boolean {
    return this.current !== undefined;
  }

  /** Starts recording; answers once the first screenshot is taken (the person may start then). */
  async start(task: string): Promise<{ runId: string; stopKey: string }> {
    if (this.current) throw new BridgeError('conflict', 'a recording is already running; stop it first');
    const stop = new AbortController();
    const stopKey = DEFAULT_STOP_KEY;
    let ready: (runId: string) => void = () => {};
    const started = new Promise<string>((resolve) => (ready = resolve));
    // Claimed before the first await: a second start meanwhile is a conflict.
    const outcome = this.run(task, stopKey, stop.signal, (runId) => {
      this.set({ state: 'recording', task, runId, stopKey, steps: 0 });
      ready(runId);
    });
    this.current = { stop, outcome };
    this.set({ state: 'starting', task });
    void outcome.then((o) => {
      this.current = undefined;
      this.set(o.ok ? { state: 'saved', task, saved: o.saved } : { state: 'failed', task, message: o.message });
    });
    const first = await Promise.race([started, outcome]);
    if (typeof first === 'string') return { runId: first, stopKey };
    if (first.ok) return { runId: first.saved.runId, stopKey };
    throw new BridgeError('unavailable', `recording could not start: ${first.message}`);
  }

  /** Ends the recording and answers where it was saved; the last one's when the stop key ended it already. */
  async stop(): Promise<RecordingSaved> {
    const current = this.current;
    if (!current) {
      if (this.state.state === 'saved') return this.state.saved;
      throw new BridgeError('not_found', 'no recording is running');
    }
    current.stop.abort();
    const outcome = await current.outcome;
    if (!outcome.ok) throw new BridgeError('internal', `the recording failed: ${outcome.message}`);
    return outcome.saved;
  }

  /** Ends a running recording (the app is closing): what was done so far is saved. */
  async close(): Promise<void> {
    const current = this.current;
    if (!current) return;
    current.stop.abort();
    await current.outcome;
  }

  private async run(task: string, stopKey: string, signal: AbortSignal, onReady: (runId: string) => void): Promise<Outcome> {
    try {
      const record = this.options.record ?? (await import('../agent/record/record.js')).recordDemonstration;
      const displayId = await this.options.displayId();
      const result = await record({
        task,
        computer: this.options.computer,
        home: this.options.home,
        stopKey,
        ...(displayId !== undefined ? { displayId } : {}),
        signal,
        onReady,
        onAction: (what) => {
          if (this.state.state === 'recording') this.set({ ...this.state, steps: this.state.steps + 1, last: what });
        },
        ...(this.options.ignore ? { ignore: this.options.ignore } : {}),
      });
      return { ok: true, saved: { runId: result.runId, dir: result.dir, skillFile: result.skillFile, steps: result.steps } };
    } catch (error) {
      return { ok: false, message: errorText(error) };
    }
  }

  private set(state: RecordingState): void {
    this.state = state;
    this.options.onChange(state);
  }
}
