import type { DisplayGrab } from '../display-grab.js';
import { pickDisplay } from '../displays.js';
import type { EchoingWindows } from '../echo-memory.js';
import { echoOutcome } from '../echo-memory.js';
import { SETTLE_DEFAULTS, waitForSettle } from '../settle.js';
import { pingInputTargets } from '../settle-ping.js';
import type { SettleOptions, SettleResult } from '../types.js';
import type { ScreenState } from './screen-state.js';

/**
 * Waits until the screen is still and shows the app's answer to the input sent since the
 * last settle (settle.ts); a quiet last frame is kept for the next screenshot, and what
 * the typed text's echo showed is learnt for its window.
 */
export async function settleScreen(screen: ScreenState, echoingWindows: EchoingWindows, o: SettleOptions = {}, afterInput = true): Promise<SettleResult> {
  const display = pickDisplay(await screen.displays.list(), o.displayId);
  screen.dropSettled();
  const taken = screen.takeInput();
  // Without the proofs after input (a bench's A/B), the input is forgotten: its picture freed, its echo ended.
  if (!afterInput && taken) {
    taken.before?.grab.frame.release();
    taken.echo?.end();
  }
  const input = afterInput ? taken : undefined;
  // The "before" picture is what settle's first frame is compared with (its hold
  // passes to waitForSettle), when it shows this display.
  const before = input?.before?.displayId === display.id ? input.before.grab.frame : undefined;
  if (input?.before && !before) input.before.grab.frame.release();
  const echo = input?.echo;
  const echoWindow = echo && input?.echoWindow ? await input.echoWindow : 0;
  const expected = echoingWindows.expects(echoWindow);
  let lastGrab: DisplayGrab | undefined;
  const { result, last } = await waitForSettle(
    async () => {
      lastGrab = await screen.grabber.grab(display);
      return lastGrab.frame;
    },
    {
      minMs: o.minMs ?? SETTLE_DEFAULTS.minMs,
      maxMs: o.maxMs ?? SETTLE_DEFAULTS.maxMs,
      quietMs: o.quietMs ?? SETTLE_DEFAULTS.quietMs,
      // The app's proofs are asked only after input: a settle with nothing sent
      // (the first observation, after an accessibility action) costs no round trip.
      ...(input ? { reaction: { since: input.since, expectChange: input.expectChange }, roundTrip: pingInputTargets } : {}),
      ...(echo ? { echo: { progress: () => ({ ...echo.progress(), expected }) } } : {}),
      ...(input?.windows ? { windows: input.windows } : {}),
      frameLayout: () => (lastGrab ? { rowBytes: lastGrab.byteWidth, pixelBytes: lastGrab.channels } : undefined),
      ...(before ? { before } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    },
  ).finally(() => echo?.end());
  // Learnt only from a settle that ran its course (an abort says nothing of the app).
  if (echo) echoingWindows.learn(echoWindow, echoOutcome({ ...echo.progress(), expected }));
  if (result.settled && last && lastGrab?.frame === last) screen.keepSettled(display.id, lastGrab);
  else last?.release();
  return result;
}
