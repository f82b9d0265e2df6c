import type { PushMessage } from '../../shared/bridge.js';
import type { PolicyMode } from '../../shared/approvals.js';
import type { RunEvent, RunState } from '../../shared/events.js';
import type { RunHandle, RunOptions } from '../agent/index.js';
import { errorText } from './bridge-errors.js';
import { BridgeError } from './types.js';

export interface ActiveRun {
  handle: RunHandle;
  policy: PolicyMode;
  state: RunState;
  reason: string;
  /** run_ended was seen (or `done` settled): never made active again. */
  ended: boolean;
}

/** The hooks a hosted run's start passes to startRun. */
export type HostHooks = Pick<RunOptions, 'onEvent' | 'onDelta'>;

/**
 * The service's one active run (or one run above another, while it waits): which it is,
 * its state as the clients see it, and the pushes its events make.
 */
export class RunSlot {
  active: ActiveRun | undefined;
  /** A start is under way (run.start or a hosted run): another start, or a recording, is a conflict until it ends. */
  starting = false;

  constructor(
    private readonly push: (message: PushMessage) => void,
    private readonly recordingBusy: () => boolean,
  ) {}

  /** The run_state message for the run active now (or none). */
  state(): PushMessage {
    const active = this.active;
    return {
      kind: 'run_state',
      runId: active?.handle.runId ?? null,
      state: active?.state ?? null,
      reason: active?.reason ?? '',
      ...(active ? { policy: active.policy } : {}),
    };
  }

  /** The active run with this id; any other id is `not_found`. */
  find(runId: string): ActiveRun {
    if (!this.active || this.active.handle.runId !== runId) throw new BridgeError('not_found', `no active run ${runId}`);
    return this.active;
  }

  /**
   * Makes a run the active one: its events, streaming text and state go to every
   * client, its approvals are answered through `approval.answer`. `start` receives the
   * hooks to pass to startRun. `over`: the run is hosted above that active run until it
   * ends, then that one is active again (a `run_task` inside an MCP session, which waits
   * meanwhile); otherwise another active run is a conflict.
   */
  async host(start: (hooks: HostHooks) => Promise<RunHandle>, policy: PolicyMode, over?: string): Promise<RunHandle> {
    const below = over !== undefined ? this.find(over) : undefined;
    if (!below && this.active) throw new BridgeError('conflict', 'a run is already active; stop it first');
    if (this.recordingBusy()) throw new BridgeError('conflict', 'a recording is running; stop it first');
    // Filled once startRun returns; events before that only go to the log and subscribers.
    const run: { current?: ActiveRun } = {};
    const after = () => (below && !below.ended ? below : undefined);
    let handle: RunHandle;
    try {
      handle = await start({
        onEvent: (event) => this.onEvent(event, run.current, after),
        onDelta: (text, textKind) => {
          if (run.current) this.push({ kind: 'delta', runId: run.current.handle.runId, text, textKind });
        },
      });
    } catch (error) {
      if (error instanceof BridgeError) throw error;
      throw new BridgeError('invalid', errorText(error));
    }
    const current: ActiveRun = { handle, policy, state: 'running', reason: '', ended: false };
    run.current = current;
    this.active = current;
    this.push(this.state());
    void handle.done
      .catch(() => undefined)
      .finally(() => {
        current.ended = true;
        if (this.active !== current) return;
        this.active = after();
        this.push(this.state());
      });
    return handle;
  }

  /** Stops the active run and waits for its end (the service is closing). */
  async close(): Promise<void> {
    const running = this.active;
    if (!running) return;
    running.handle.stop('the app is closing');
    await running.handle.done.catch(() => undefined);
  }

  private onEvent(event: RunEvent, current: ActiveRun | undefined, after: () => ActiveRun | undefined): void {
    if (event.type === 'state' && current) {
      current.state = event.state;
      current.reason = event.reason;
    }
    this.push({ kind: 'event', event });
    // A client that saw run_ended may start the next run at once, before the old
    // run's log has finished closing: the run is no longer active from here.
    if (event.type === 'run_ended' && current) {
      current.ended = true;
      if (this.active === current) this.active = after();
    }
    if ((event.type === 'state' || event.type === 'run_ended') && current) this.push(this.state());
  }
}
