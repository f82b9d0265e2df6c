import type { CheckedAction } from '../../os-control/check-action.js';
import type { Computer, ObserveOptions } from '../../os-control/types.js';
import { forwardingComputer } from '../../os-control/forwarding.js';

/**
 * The app never shows itself to the model. Where the OS can exclude a window from
 * captures (macOS, Windows: setContentProtection) that is enough; on Linux the
 * windows are hidden while the agent captures or acts, and shown again once it has
 * been quiet for a moment (so one step does not flicker several times).
 *
 * This wraps the Computer agent runs get: the service needs no hook. The live view
 * captures through the plain Computer (BridgeServiceOptions.liveViewComputer): a
 * person watching a run sees it, so hiding for those 3 captures a second kept the
 * window hidden or blinking every ~550 ms exactly while Stop was wanted.
 */
export interface WindowHider {
  /** Hide every DeskPilot window; resolves once they are off screen. */
  hide(): Promise<void>;
  show(): void;
  /** Only hide while an agent run is active (live thumbnails alone do not hide). */
  active(): boolean;
}

export function hidingComputer(inner: Computer, hider: WindowHider, reshowAfterMs = 400): Computer {
  let busy = 0;
  let hidden = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const around = async <T>(work: () => Promise<T>): Promise<T> => {
    if (!hider.active()) return work();
    busy += 1;
    if (timer) clearTimeout(timer);
    timer = undefined;
    try {
      if (!hidden) {
        await hider.hide();
        hidden = true;
      }
      return await work();
    } finally {
      busy -= 1;
      if (busy === 0) {
        timer = setTimeout(() => {
          timer = undefined;
          if (busy === 0 && hidden) {
            hidden = false;
            hider.show();
          }
        }, reshowAfterMs);
      }
    }
  };

  return {
    ...forwardingComputer(inner),
    observe: (options: ObserveOptions) => around(() => inner.observe(options)),
    perform: (action: CheckedAction, signal: AbortSignal) => around(() => inner.perform(action, signal)),
    settle: (options) => around(() => inner.settle(options)),
  };
}
