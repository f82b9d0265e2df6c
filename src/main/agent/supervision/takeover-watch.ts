import type { Point } from '../../../shared/actions.js';
import { errorText } from '../../../shared/error-text.js';
import type { RunControl } from './run-control.js';
import { startX11InputActivity, type InputActivity, type InputActivitySource } from './x11-input-activity.js';

/**
 * Human takeover: when the person moves the mouse during a run, the run pauses
 * (config `takeover: pause`) and says why; with `takeover: ignore` it only reports.
 *
 * How: the pointer is where the agent left it unless someone else moved it. Between
 * actions we poll the pointer; around each agent action we stop polling and compare
 * where the pointer ended with where the action should have left it. After a resume
 * the pointer's new place is the baseline (the person put it there).
 */

export interface TakeoverEvent {
  /** "human takeover: pointer moved from (10, 10) to (300, 200)", "human takeover: a key was pressed". */
  reason: string;
  kind: 'pointer' | 'key' | 'button' | 'motion';
  /** For pointer takeovers: where the agent left the pointer and where it is. */
  expected?: Point;
  actual?: Point;
}

export interface TakeoverWatchOptions {
  /** Where the pointer is now, in global desktop coordinates (computer.cursorPosition). */
  readPointer: () => Promise<Point>;
  control: RunControl;
  mode: 'pause' | 'ignore';
  /** Poll interval between actions; default 100 ms. */
  intervalMs?: number;
  /** Movement up to this many px counts as noise (rounding on scaled screens); default 3. */
  tolerancePx?: number;
  /** Told about every takeover, also in ignore mode. */
  onTakeover?: (event: TakeoverEvent) => void;
  /**
   * Also watch the keyboard and mouse buttons as the X server sees them, so a person
   * typing is noticed too: 'x11' streams `xinput test-xi2` (off when not on X11 or
   * xinput is missing), or pass a source. A key or button from a real device pauses
   * the run at any time; one injected through XTEST (a remote desktop, another tool)
   * only while the agent is not acting itself.
   */
  activity?: 'x11' | InputActivitySource;
  /** Injected events arriving this long after an agent action (or its last echo) still count as the agent's; default 1000 ms. */
  agentEchoMs?: number;
  /**
   * Told when the watch cannot see the pointer (display gone, X error): detection is
   * blind until a read succeeds again, and the person must know. Called once per
   * streak of failures, not per poll (every 100 ms).
   */
  onBlind?: (message: string) => void;
}

export interface TakeoverWatch {
  /** Takes the baseline and starts polling. */
  start(): Promise<void>;
  /** Stops polling for good. */
  stop(): void;
  /**
   * Runs one agent action with polling suspended. `expectedEnd` is where the action
   * leaves the pointer (global coordinates) — omit for keyboard actions, which must
   * not move it. A pointer found elsewhere afterwards is a takeover.
   */
  agentActing<T>(action: () => Promise<T>, expectedEnd?: Point): Promise<T>;
  /**
   * Runs `work` while the person is expected to use the mouse — waiting for an
   * approval or an answer, where they click Approve in the app — with detection off,
   * then takes the pointer's new place as the baseline. Without this, answering an
   * approval with the mouse would look like a takeover.
   */
  whileHumanActs<T>(work: () => Promise<T>): Promise<T>;
  /** Checks once now (the runner may call it right before executing an action). */
  check(): Promise<TakeoverEvent | undefined>;
}

const fmt = (p: Point) => `(${Math.round(p.x)}, ${Math.round(p.y)})`;

/**
 * What one watch tells the other live watches of this process. Two runs can watch one
 * desktop at once — `run_task` hosted above an MCP session — and one run's clicks and
 * keys are not a person to the other's watch (issue 27: the session paused on its own
 * run_task's pointer and keys, and every later tool call waited). So every watch treats
 * injected input as DeskPilot's while any live watch's run acts or its echoes may still
 * arrive, and after another run acted it takes the pointer's new place as its baseline.
 * A real device's key or button is a person whoever acts.
 */
interface OwnInput {
  /** Agent actions of this watch's run in flight. */
  acting: number;
  /** Injected input before this time is the tail of this run's own action. */
  quietUntil: number;
  /** Another run acted since this watch's baseline was taken. */
  othersMoved: boolean;
}
const liveWatches = new Set<OwnInput>();
const othersActing = (me: OwnInput) => [...liveWatches].some((w) => w !== me && w.acting > 0);
const othersQuietUntil = (me: OwnInput) => Math.max(0, ...[...liveWatches].filter((w) => w !== me).map((w) => w.quietUntil));

// Over 120 lines because the watch is one state machine (baseline, echo windows, the blind
// streak, the epoch, the pause count) that every closure of it reads and changes; split
// apart, each part would take the same ten variables as arguments.
export function createTakeoverWatch(options: TakeoverWatchOptions): TakeoverWatch {
  const intervalMs = options.intervalMs ?? 100;
  const echoMs = options.agentEchoMs ?? 1000;
  /** Human waits (answering an approval) — no takeover then, whatever the input. */
  let humanActing = 0;
  /** This run's share of DeskPilot's own input (acting, its echo window), seen by the other live watches. */
  const own: OwnInput = { acting: 0, quietUntil: 0, othersMoved: false };
  /** Any input before this time is the tail of the person's answer (their click on Approve). */
  let humanQuietUntil = 0;
  let activity: InputActivitySource | undefined;
  let unsubscribeActivity: (() => void) | undefined;
  const tolerance = options.tolerancePx ?? 3;
  let baseline: Point | undefined;
  let running = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe: (() => void) | undefined;
  /** Bumped at every rebaseline so a poll that started before it does not fire on stale data. */
  let epoch = 0;

  const far = (a: Point, b: Point) => Math.abs(a.x - b.x) > tolerance || Math.abs(a.y - b.y) > tolerance;

  /** True while pointer reads fail; the person was told once when it turned true. */
  let blind = false;
  /** Reads the pointer; a failure is reported (once per streak) and yields undefined. */
  const readPointer = async (): Promise<Point | undefined> => {
    try {
      const p = await options.readPointer();
      blind = false;
      return p;
    } catch (error) {
      if (!blind) {
        blind = true;
        options.onBlind?.(`takeover detection cannot read the pointer (${errorText(error)}); a person moving the mouse will not pause the run until it can`);
      }
      return undefined;
    }
  };

  const rebaseline = async () => {
    const mine = ++epoch;
    const previous = baseline;
    // No checks against a stale baseline while the new one is read (the epoch bump
    // already makes any poll in flight drop its result).
    baseline = undefined;
    const p = await readPointer();
    // A failed read keeps the old baseline: detection goes on against it.
    if (mine === epoch) baseline = p ?? previous;
  };

  const raise = (event: TakeoverEvent): TakeoverEvent => {
    options.onTakeover?.(event);
    if (options.mode === 'pause') options.control.pause(event.reason);
    return event;
  };
  const report = (expected: Point, actual: Point): TakeoverEvent => {
    // The new place is the baseline from now on, so one move is reported once.
    baseline = actual;
    return raise({ reason: `human takeover: pointer moved from ${fmt(expected)} to ${fmt(actual)}`, kind: 'pointer', expected, actual });
  };
  const WHAT: Record<InputActivity['kind'], string> = { key: 'a key was pressed', button: 'a mouse button was pressed', motion: 'the mouse moved' };
  const onActivity = (a: InputActivity) => {
    if (!running || humanActing > 0 || Date.now() < humanQuietUntil || options.control.paused || options.control.stopped) return;
    if (a.synthetic) {
      if (own.acting > 0 || othersActing(own)) return; // our own input, this run's or another's
      if (Date.now() < Math.max(own.quietUntil, othersQuietUntil(own))) {
        // The backlog of our own input, read late (synchronous native input blocks the
        // event loop while it runs): each echo keeps the window open a little longer
        // (never shorter: while a fence is out the window has no end yet).
        own.quietUntil = Math.max(own.quietUntil, Date.now() + echoMs);
        return;
      }
      // Injected motion is left to the pointer check.
      if (a.kind === 'motion') return;
    }
    raise({ reason: `human takeover: ${WHAT[a.kind]}`, kind: a.kind });
  };

  const check = async (): Promise<TakeoverEvent | undefined> => {
    if (own.acting > 0 || humanActing > 0 || othersActing(own) || !baseline || options.control.stopped || options.control.paused) return undefined;
    const mine = epoch;
    const moved = own.othersMoved;
    own.othersMoved = false;
    const actual = await readPointer();
    // Another run acting or done while this read was out: the read may predate where it left the pointer; the next poll looks.
    if (othersActing(own) || own.othersMoved) {
      own.othersMoved = true;
      return undefined;
    }
    if (!actual || mine !== epoch || own.acting > 0 || humanActing > 0 || !baseline || options.control.paused) {
      if (moved) own.othersMoved = true;
      return undefined;
    }
    if (moved) {
      // Where another run of ours left the pointer is the baseline from now on.
      baseline = actual;
      return undefined;
    }
    return far(actual, baseline) ? report(baseline, actual) : undefined;
  };

  /** The newest fence asked for; only its arrival ends the window (an older one's says nothing of the later action). */
  let fences = 0;
  /**
   * After an action, the input it injected may still be on its way through the event
   * stream: under load the stream was read more than echoMs after the action returned
   * (serve-ux's run paused on its own click). With a source that can fence, the window
   * stays open until the stream has passed everything sent before the action ended, then
   * echoMs more; without one it is echoMs from now, as before.
   */
  const fenceOwnInput = () => {
    const fence = activity?.fence?.();
    if (!fence) {
      own.quietUntil = Date.now() + echoMs;
      return;
    }
    const mine = ++fences;
    own.quietUntil = Number.POSITIVE_INFINITY;
    void fence.then(() => {
      if (mine === fences) own.quietUntil = Date.now() + echoMs;
    });
  };

  const schedule = () => {
    if (!running) return;
    timer = setTimeout(() => {
      void check().finally(schedule);
    }, intervalMs);
    // Polling must never keep a finished process alive.
    timer.unref?.();
  };

  const watch: TakeoverWatch = {
    async start() {
      if (running) return;
      running = true;
      liveWatches.add(own);
      await rebaseline();
      const source = options.activity === 'x11' ? await startX11InputActivity() : options.activity;
      // Stopped while the device list was read: a stream started meanwhile is ours to close.
      if (!running) {
        if (options.activity === 'x11') source?.close();
        return;
      }
      activity = source;
      unsubscribeActivity = activity?.subscribe(onActivity);
      unsubscribe = options.control.onChange((change) => {
        if (change.kind === 'resumed') {
          // The click or key that resumed the run may still be on its way to us.
          humanQuietUntil = Date.now() + echoMs;
          void rebaseline();
        }
        if (change.kind === 'stopped') watch.stop();
      });
      schedule();
    },
    stop() {
      running = false;
      liveWatches.delete(own);
      if (timer) clearTimeout(timer);
      timer = undefined;
      unsubscribe?.();
      unsubscribe = undefined;
      unsubscribeActivity?.();
      unsubscribeActivity = undefined;
      // Only a source we started is ours to close.
      if (options.activity === 'x11') activity?.close();
      activity = undefined;
    },
    async agentActing<T>(action: () => Promise<T>, expectedEnd?: Point): Promise<T> {
      own.acting++;
      epoch++;
      const before = baseline;
      try {
        return await action();
      } finally {
        own.acting--;
        fenceOwnInput();
        for (const other of liveWatches) if (other !== own) other.othersMoved = true;
        if (own.acting === 0 && humanActing === 0 && running && !options.control.stopped) {
          const mine = ++epoch;
          const actual = await readPointer();
          const expected = expectedEnd ?? before;
          // A failed read keeps the old baseline (and the person was told).
          if (actual && mine === epoch) {
            if (expected && far(actual, expected)) report(expected, actual);
            else baseline = actual;
          }
        }
      }
    },
    async whileHumanActs<T>(work: () => Promise<T>): Promise<T> {
      // Stops this watch's own checks only: the person's input is not another run's.
      humanActing++;
      epoch++;
      try {
        return await work();
      } finally {
        humanActing--;
        // The person's last keys (Enter on the CLI prompt, a click on Approve) may still be in flight.
        humanQuietUntil = Date.now() + echoMs;
        if (humanActing === 0 && own.acting === 0 && running && !options.control.stopped) await rebaseline();
      }
    },
    check,
  };
  return watch;
}
