import { actionPoints, actionSpec, focusRole, type Point } from '../../shared/actions.js';
import type { CheckedAction } from '../check-action.js';
import { performAction } from '../actions.js';
import { actOnElementByPath, findElementByPath } from '../accessibility/index.js';
import type { Devices } from '../devices.js';
import type { TakeoverDetector } from '../takeover.js';
import { ClickFocus } from '../x11/click-focus.js';
import type { NewWindows } from '../x11/new-windows.js';
import { pressPassedOn } from '../x11/press-passed.js';
import { newWindowsWatch } from '../settle-ping.js';
import type { PerformResult, SettleOptions, SettleResult } from '../types.js';
import type { ScreenState } from './screen-state.js';

/**
 * The longest wait for the screen to show an accessibility action before the next action
 * (a settle ends after 75 ms without a change; an app that repaints for longer is not
 * waited for beyond this).
 */
const ACCESSIBILITY_SETTLE_MAX_MS = 1_500;

export interface PerformerDeps {
  devices: Devices;
  screen: ScreenState;
  takeover: TakeoverDetector;
  type: (text: string, signal: AbortSignal) => Promise<void>;
  settle: (o: SettleOptions) => Promise<SettleResult>;
}

/**
 * The computer's actions, one at a time (two callers must never interleave their key
 * presses), each with the waits around it: keys after a click wait for the window
 * manager's focus, and an action after an accessibility one for the screen to show it.
 */
export class Performer {
  private queue: Promise<void> = Promise.resolve();
  /** The last action went through the accessibility bus (an element's focus, set_value, invoke). */
  private accessibilityActed = false;
  // X11: keys after a click wait until the window manager has given the clicked window
  // the focus (x11/click-focus.ts). Without an X connection keys go out at once, as before.
  private clickFocus: Promise<ClickFocus | undefined> | undefined;
  // X11: the windows apps create, watched from before the input goes out (a dialog made
  // while handling it is seen). Without an X connection settle decides without them, as
  // it does without the ping's answer.
  private newWindows: Promise<NewWindows | undefined> | undefined;

  constructor(private readonly deps: PerformerDeps) {}

  x11ClickFocus(): Promise<ClickFocus | undefined> {
    if (process.platform !== 'linux') return Promise.resolve(undefined);
    this.clickFocus ??= ClickFocus.open().catch(() => undefined);
    return this.clickFocus;
  }

  x11NewWindows(): Promise<NewWindows | undefined> {
    if (process.platform !== 'linux') return Promise.resolve(undefined);
    this.newWindows ??= newWindowsWatch().catch(() => undefined);
    return this.newWindows;
  }

  perform(action: CheckedAction, signal: AbortSignal): Promise<PerformResult> {
    this.deps.screen.dropSettled();
    const turn = this.queue.then(() => this.performNow(action, signal));
    this.queue = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  private async performNow(action: CheckedAction, signal: AbortSignal): Promise<PerformResult> {
    const { devices, screen, takeover } = this.deps;
    if (this.accessibilityActed) {
      // The last action went to an app over the accessibility bus (D-Bus), this one may
      // go through X: two channels the app reads in no fixed order. gnome-calculator
      // (GTK 4) ran an invoke of "×" after the click on "6" that followed it ("56×").
      // What a person would do: wait until the screen shows the first one took effect.
      this.accessibilityActed = false;
      await this.deps.settle({ maxMs: ACCESSIBILITY_SETTLE_MAX_MS, signal });
    }
    const role = focusRole(action);
    const focus = role === 'none' ? undefined : await this.x11ClickFocus();
    if (focus && role === 'keys') await focus.beforeKeys(signal);
    const answer = actionSpec(action).answer;
    const windows = answer === 'none' ? undefined : await this.x11NewWindows();
    if (answer === 'must-show' && action.type !== 'type') await screen.beforeKeys();
    if (focus && role === 'click') focus.beforeClick(actionPoints(action)[0]);
    const sentAt = performance.now();
    const result = await performAction(
      {
        devices,
        typeText: this.deps.type,
        pointerLeftAt: (p: Point) => takeover.agentLeftPointerAt(p),
        elements: { find: (path) => findElementByPath(path), act: (path, op, value) => actOnElementByPath(path, op, value) },
        // X11: the button is let go once the window manager has passed the press on, not after a fixed pause.
        ...(process.platform === 'linux' ? { pressPassedOn: (s: AbortSignal) => pressPassedOn(s) } : {}),
      },
      action,
      signal,
    );
    if (focus && role === 'click') await focus.afterClick();
    if (answer !== 'none') screen.inputSent(sentAt, windows);
    this.accessibilityActed = action.type === 'element' && action.op !== 'click';
    return result;
  }
}
