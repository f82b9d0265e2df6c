/**
 * The real computer: nut.js in-process input and capture, wired to the image pipeline,
 * the coordinate record, typing, settle and takeover detection. Its parts live in
 * computer/: the frames it holds between calls (screen-state.ts), the screenshot
 * (observe.ts), settle (settle-screen.ts), typing (typing-path.ts) and the one-at-a-time
 * action queue (performer.ts).
 */
import { getActiveWindow } from './active-window.js';
import { findElementByPath, readElementTree } from './accessibility/index.js';
import type { CaptureBackend } from './capture.js';
import { Devices } from './devices.js';
import { DisplayGrabber } from './display-grab.js';
import { FrameCache } from './frame-cache.js';
import { loadCharMap } from './keymap.js';
import { openTextEchoWatch } from './settle-echo.js';
import { EchoingWindows } from './echo-memory.js';
import { TakeoverDetector } from './takeover.js';
import { observeScreen, type EncodedFrame } from './computer/observe.js';
import { Performer } from './computer/performer.js';
import { DisplayCache, ScreenState } from './computer/screen-state.js';
import { settleScreen } from './computer/settle-screen.js';
import { TypingPath } from './computer/typing-path.js';
import type { Computer } from './types.js';

export interface ComputerOptions {
  /** 'nut' (in-process, default) or 'screenshot-desktop' (an external program per shot). */
  capture?: CaptureBackend;
  /** How long a display list is reused before xrandr is asked again. */
  displayCacheMs?: number;
  /**
   * false: settle forgets the input sent since the last settle and waits for quiet frames
   * alone, as before issue 26 (no change awaited, no round trip, echo or new window). Only
   * for measuring what those proofs cost (bench/agent-settle.bench.ts); default true.
   */
  settleAfterInput?: boolean;
}

export interface DesktopComputer extends Computer {
  /** Tells when the pointer is not where the agent left it (a person moved it). */
  readonly takeover: TakeoverDetector;
  /** Keys and buttons this process holds right now (for diagnostics and tests). */
  held(): { keys: string[]; buttons: string[] };
  /**
   * Loads nut.js, the keyboard layout and the display list now (about a second on a busy
   * machine) instead of inside the first action. Binds to process.env.DISPLAY.
   */
  warmUp(): Promise<void>;
}

export function createComputer(options: ComputerOptions = {}): DesktopComputer {
  const devices = new Devices();
  const backend = options.capture ?? 'nut';
  const displays = new DisplayCache(options.displayCacheMs ?? 2_000);
  const takeover = new TakeoverDetector(() => devices.position());
  const screen = new ScreenState(displays, new DisplayGrabber(backend === 'nut' && process.platform === 'linux'));
  const echoingWindows = new EchoingWindows();
  const frames = new FrameCache<EncodedFrame>();
  const typing = new TypingPath(devices, screen);
  const performer = new Performer({
    devices,
    screen,
    takeover,
    type: (text, signal) => typing.type(text, signal),
    settle: (o) => computer.settle(o),
  });

  const computer: DesktopComputer = {
    takeover,
    held: () => devices.held(),

    async warmUp() {
      await Promise.all([devices.position(), loadCharMap(), displays.list(), typing.x11Typist(), performer.x11ClickFocus(), performer.x11NewWindows(), openTextEchoWatch()]);
    },

    listDisplays: () => displays.list(),
    observe: (o) => observeScreen({ backend, devices, screen, frames }, o),
    perform: (action, signal) => performer.perform(action, signal),
    settle: (o = {}) => settleScreen(screen, echoingWindows, o, options.settleAfterInput ?? true),
    cursorPosition: () => devices.position(),

    activeWindow: () => getActiveWindow(),
    releaseAll: () => devices.releaseAll(),

    async elementTree(options = {}) {
      // The window system names the focused window; its pid picks the application on the bus.
      const wantsFocus = (options.scope ?? 'focused') === 'focused' && options.windowPattern === undefined;
      const active = wantsFocus ? await getActiveWindow() : undefined;
      const focus = active ? { ...(active.pid !== undefined ? { pid: active.pid } : {}), title: active.title, app: active.app } : undefined;
      return readElementTree(options, focus);
    },
    findElement: (path) => findElementByPath(path),
  };
  return computer;
}
