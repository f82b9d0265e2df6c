/**
 * The real computer: nut.js in-process input and capture, wired to the image pipeline,
 * the coordinate record, typing, settle and takeover detection.
 */
import { randomUUID } from 'node:crypto';
import { sleep, throwIfAborted } from '../shared/abort.js';
import { actionSpec, focusRole, type Point } from '../shared/actions.js';
import type { CheckedAction } from './check-action.js';
import type { DisplayInfo, ObservationRecord } from '../shared/observation.js';
import { performAction } from './actions.js';
import { getActiveWindow } from './active-window.js';
import { actOnElementByPath, findElementByPath, readElementTree } from './accessibility/index.js';
import { capture, type CaptureBackend } from './capture.js';
import { pasteX11 } from './clipboard.js';
import { run } from './exec.js';
import { globalToCapture } from './coords.js';
import { Devices } from './devices.js';
import { DisplayGrabber, grabRaw, grabRegion, type DisplayGrab } from './display-grab.js';
import { listDisplays, pickDisplay } from './displays.js';
import { encodeGrab } from './image.js';
import type { GreyImage } from './screen-match.js';
import { FrameCache } from './frame-cache.js';
import { loadCharMap } from './keymap.js';
import { resolveKey } from './keys.js';
import { loadNut } from './native.js';
import { SETTLE_DEFAULTS, waitForSettle, type SettleReaction } from './settle.js';
import { currentTextEchoWatch, openTextEchoWatch, type TypedEcho } from './settle-echo.js';
import { focusedClientWindow, pingInputTargets } from './settle-ping.js';
import { EchoingWindows, echoOutcome } from './echo-memory.js';
import { TakeoverDetector } from './takeover.js';
import { typeText } from './typing.js';
import { ClickFocus } from './x11/click-focus.js';
import { NoSpareKeycodeError, type X11Typist } from './x11/typist.js';
import { x11Session } from './x11/session.js';
import type { Computer, Observation, ObserveOptions, PerformResult, SettleOptions, SettleResult } from './types.js';

/**
 * How old settle's last frame may be and still serve as the screenshot. The screen had
 * been still for quietMs when it was taken; reusing it a few ms later is as safe as
 * the settle verdict itself.
 */
const SETTLED_FRAME_REUSE_MS = 50;

export interface ComputerOptions {
  /** 'nut' (in-process, default) or 'screenshot-desktop' (an external program per shot). */
  capture?: CaptureBackend;
  /** How long a display list is reused before xrandr is asked again. */
  displayCacheMs?: number;
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

const toolChecks = new Map<string, Promise<boolean>>();
function hasTool(name: string): Promise<boolean> {
  let check = toolChecks.get(name);
  if (!check) {
    check = run('sh', ['-c', `command -v ${name}`], { timeoutMs: 2_000 }).then(
      () => true,
      () => false,
    );
    toolChecks.set(name, check);
  }
  return check;
}

/**
 * The longest wait for the screen to show an accessibility action before the next action
 * (a settle ends after 75 ms without a change; an app that repaints for longer is not
 * waited for beyond this).
 */
const ACCESSIBILITY_SETTLE_MAX_MS = 1_500;

export function createComputer(options: ComputerOptions = {}): DesktopComputer {
  const devices = new Devices();
  const backend = options.capture ?? 'nut';
  const cacheMs = options.displayCacheMs ?? 2_000;
  let displayCache: { at: number; displays: DisplayInfo[] } | undefined;
  const takeover = new TakeoverDetector(() => devices.position());
  let queue: Promise<void> = Promise.resolve();
  // The last frame of a settle that ended quiet: the screenshot right after it may
  // reuse it instead of grabbing the same pixels again (one grab less per step).
  // Any input action forgets it.
  // It owns its frame (frame-pool.ts): whoever takes it from here releases it.
  let settledFrame: { displayId: string; at: number; grab: DisplayGrab } | undefined;
  const takeSettled = () => {
    const taken = settledFrame;
    settledFrame = undefined;
    return taken;
  };
  const grabber = new DisplayGrabber(backend === 'nut' && process.platform === 'linux');
  // Input sent since the last settle, which the next settle waits for the app to answer
  // (settle.ts SettleReaction). `before` is the display grabbed right before keys went
  // out: the first frame that differs from it is the app's answer, even one drawn before
  // settle started. It owns its frame: whoever replaces or takes it releases it.
  // `echo`: the typed text as the app reports it back (settle-echo.ts), collected from
  // before the first key until that settle ends; `echoWindow`: the client window that had
  // the focus as the keys went out (0 when unknown), whose past reports say whether this
  // one is owed (echo-memory.ts).
  let pendingInput: (SettleReaction & { before?: { displayId: string; grab: DisplayGrab }; echo?: TypedEcho; echoWindow?: Promise<number> }) | undefined;
  const echoingWindows = new EchoingWindows();
  const takeInput = () => {
    const taken = pendingInput;
    pendingInput = undefined;
    return taken;
  };
  /** Keys are about to go out: the picture they will change (the first such input since the last settle keeps its own). */
  async function beforeKeys(): Promise<void> {
    if (pendingInput?.before) return;
    const display = pickDisplay(await displays());
    const grab = await grabber.grab(display);
    pendingInput = { since: performance.now(), expectChange: true, before: { displayId: display.id, grab } };
  }
  /** Input went out with no "before" picture (pointer actions): the reaction counts from now, and need not show. */
  function inputSent(): void {
    pendingInput ??= { since: performance.now(), expectChange: false };
  }
  const frames = new FrameCache<{ image: Buffer; thumb: Promise<Buffer>; info: ObservationRecord['image']; grey?: GreyImage }>();

  async function displays(): Promise<DisplayInfo[]> {
    if (displayCache && Date.now() - displayCache.at < cacheMs) return displayCache.displays;
    const list = await listDisplays();
    displayCache = { at: Date.now(), displays: list };
    return list;
  }

  async function paste(text: string, signal?: AbortSignal): Promise<void> {
    if (process.platform === 'linux') {
      const shift = resolveKey('Shift_L');
      const insert = resolveKey('Insert');
      if (!(await hasTool('xclip'))) {
        // Without xclip: xdotool remaps a spare keycode per character. Exact, but only with
        // a pause per character (without it the receiving app reads stale mappings).
        await run('xdotool', ['type', '--delay', '12', '--', text], { timeoutMs: 10_000 + text.length * 50, ...(signal ? { signal } : {}) });
        return;
      }
      await pasteX11(text, {
        ...(signal ? { signal } : {}),
        pressPaste: async () => {
          await devices.keyDown(shift);
          try {
            await devices.tap(insert);
          } finally {
            await devices.keyUp(shift);
          }
        },
      });
      return;
    }
    // macOS / Windows: nut.js's clipboard, then the platform's paste shortcut.
    const nut = await loadNut();
    const previous = await nut.clipboard.getContent().catch(() => '');
    await nut.clipboard.setContent(text);
    const mod = resolveKey(process.platform === 'darwin' ? 'cmd' : 'ctrl');
    const v = resolveKey('v');
    await devices.keyDown(mod);
    try {
      await devices.tap(v);
    } finally {
      await devices.keyUp(mod);
    }
    await sleep(150);
    await nut.clipboard.setContent(previous);
  }

  // X11: every character is a key event on one X connection (x11/typist.ts), exact by
  // construction. The clipboard path below stays for other platforms and for an X server
  // where remapping is impossible (no XTEST, or no keycode without a keysym).
  // A typist whose connection failed (a request past its limit on a hung server closes
  // it) is replaced at the next typing; one that could not open (no XTEST) is not retried.
  let typist: Promise<X11Typist | undefined> | undefined;
  async function x11Typist(): Promise<X11Typist | undefined> {
    if (process.platform !== 'linux') return undefined;
    const current = typist ? await typist : undefined;
    if (typist && (current === undefined || current.isOpen)) return current;
    // The display's session keeps the typist (x11/session.ts) and replaces a closed one.
    typist = x11Session()
      .typist()
      .catch(() => undefined);
    return typist;
  }

  // X11: keys after a click wait until the window manager has given the clicked window
  // the focus (x11/click-focus.ts). Without an X connection keys go out at once, as before.
  let clickFocus: Promise<ClickFocus | undefined> | undefined;
  /** The last action went through the accessibility bus (an element's focus, set_value, invoke). */
  let accessibilityActed = false;
  function x11ClickFocus(): Promise<ClickFocus | undefined> {
    if (process.platform !== 'linux') return Promise.resolve(undefined);
    clickFocus ??= ClickFocus.open().catch(() => undefined);
    return clickFocus;
  }

  async function type(text: string, signal: AbortSignal): Promise<void> {
    // The echo collects from before the first key (an insert may come back before settle
    // starts); text typed twice before one settle is one echo.
    const earlier = pendingInput?.echo;
    const echo = earlier ?? currentTextEchoWatch()?.begin();
    echo?.expect(text);
    // Looked up beside the keys, not before them. A failed lookup (the X connection) only
    // means no memory is used for this typing: settle still has the screen, the round
    // trip and any report that comes.
    const echoWindow = echo && !earlier ? focusedClientWindow().catch(() => 0) : undefined;
    const keysOut = async () => {
      await beforeKeys();
      if (echo && pendingInput) {
        pendingInput.echo = echo;
        pendingInput.echoWindow ??= echoWindow;
      }
    };
    try {
      const x11 = await x11Typist();
      if (x11) {
        try {
          await x11.type(text, { signal, beforeKeys: keysOut });
          return;
        } catch (err) {
          if (!(err instanceof NoSpareKeycodeError)) throw err;
        }
      }
      await keysOut();
      const charMap = await loadCharMap();
      await typeText(devices, text, { signal, charMap, paste });
    } finally {
      // No keys went out (refused before the first): nothing will come back.
      if (echo && pendingInput?.echo !== echo) echo.end();
    }
  }

  const computer: DesktopComputer = {
    takeover,
    held: () => devices.held(),

    async warmUp() {
      await Promise.all([devices.position(), loadCharMap(), displays(), x11Typist(), x11ClickFocus(), openTextEchoWatch()]);
    },

    listDisplays: () => displays(),

    async observe(o: ObserveOptions): Promise<Observation> {
      const all = await displays();
      const display =
        o.displayId !== undefined
          ? pickDisplay(all, o.displayId)
          : o.region
            ? (all.find(
                (d) =>
                  o.region!.x >= d.bounds.x &&
                  o.region!.y >= d.bounds.y &&
                  o.region!.x < d.bounds.x + d.bounds.width &&
                  o.region!.y < d.bounds.y + d.bounds.height,
              ) ?? pickDisplay(all))
            : pickDisplay(all);
      throwIfAborted(o.signal);
      const reusable = takeSettled();
      const wholeNut = backend === 'nut' && !o.region;
      const fresh = wholeNut && reusable?.displayId === display.id && performance.now() - reusable.at <= SETTLED_FRAME_REUSE_MS;
      if (reusable && !fresh) reusable.grab.frame.release();
      const [grabbed, cursor] = await Promise.all([
        wholeNut ? (fresh ? reusable.grab : grabber.grab(display)) : capture(display, o.region, backend),
        devices.position().catch(() => undefined),
      ]);
      try {
        // The same pixels as the last whole-display grab: same frame id, encodings reused.
        const encodingKey = JSON.stringify([o.target, o.thumbLongEdge ?? 320, o.target.drawCursor ? cursor : null, o.grey === true]);
        const frame = 'rgb' in grabbed ? undefined : frames.identify(display.id, grabbed.frame, encodingKey);
        const raw = 'rgb' in grabbed ? grabbed.rgb : grabRaw(grabbed);
        const recordBase = {
          display,
          capture: { width: raw.width, height: raw.height },
          region: 'rgb' in grabbed ? grabbed.region : grabRegion(display, grabbed),
        };
        const recordOf = (image: ObservationRecord['image']): ObservationRecord => ({
          id: randomUUID(),
          takenAt: Date.now(),
          ...recordBase,
          image,
          ...(cursor ? { cursor } : {}),
        });
        if (frame?.cached) {
          const { info, image, thumb, grey } = frame.cached;
          return { record: recordOf(info), image, thumb, frameId: frame.frameId, ...(grey ? { grey } : {}) };
        }
        // The pointer in the grab's pixels; encodeForModel maps it to the model image.
        const cursorPx = cursor ? globalToCapture(cursor, recordBase) : undefined;
        const { image, thumb, grey } = await encodeGrab(raw, 'rgb' in grabbed ? undefined : grabbed.byteWidth, o.target, {
          ...(cursorPx ? { cursor: cursorPx } : {}),
          thumbLongEdge: o.thumbLongEdge ?? 320,
          ...(o.grey ? { grey: true } : {}),
        });
        const imageInfo = { width: image.width, height: image.height, format: image.format };
        if (frame) frames.remember(frame.frameId, encodingKey, { image: image.data, thumb, info: imageInfo, ...(grey ? { grey } : {}) });
        return { record: recordOf(imageInfo), image: image.data, thumb, ...(frame ? { frameId: frame.frameId } : {}), ...(grey ? { grey } : {}) };
      } finally {
        // Encoded (or found in the cache): this call's hold on the pixels ends here.
        if (!('rgb' in grabbed)) grabbed.frame.release();
      }
    },

    perform(action: CheckedAction, signal: AbortSignal): Promise<PerformResult> {
      takeSettled()?.grab.frame.release();
      // One action at a time: two callers must never interleave their key presses.
      const turn = queue.then(async () => {
        if (accessibilityActed) {
          // The last action went to an app over the accessibility bus (D-Bus), this one may
          // go through X: two channels the app reads in no fixed order. gnome-calculator
          // (GTK 4) ran an invoke of "×" after the click on "6" that followed it ("56×").
          // What a person would do: wait until the screen shows the first one took effect.
          accessibilityActed = false;
          await computer.settle({ maxMs: ACCESSIBILITY_SETTLE_MAX_MS, signal });
        }
        const role = focusRole(action);
        const focus = role === 'none' ? undefined : await x11ClickFocus();
        if (focus && role === 'keys') await focus.beforeKeys(signal);
        const answer = actionSpec(action).answer;
        if (answer === 'must-show' && action.type !== 'type') await beforeKeys();
        const result = await performAction(
          {
            devices,
            typeText: type,
            pointerLeftAt: (p: Point) => takeover.agentLeftPointerAt(p),
            elements: { find: (path) => findElementByPath(path), act: (path, op, value) => actOnElementByPath(path, op, value) },
          },
          action,
          signal,
        );
        if (focus && role === 'click') await focus.afterClick();
        if (answer !== 'none') inputSent();
        accessibilityActed = action.type === 'element' && action.op !== 'click';
        return result;
      });
      queue = turn.then(
        () => undefined,
        () => undefined,
      );
      return turn;
    },

    async settle(o: SettleOptions = {}): Promise<SettleResult> {
      const display = pickDisplay(await displays(), o.displayId);
      takeSettled()?.grab.frame.release();
      const input = takeInput();
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
          lastGrab = await grabber.grab(display);
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
          frameLayout: () => (lastGrab ? { rowBytes: lastGrab.byteWidth, pixelBytes: lastGrab.channels } : undefined),
          ...(before ? { before } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
        },
      ).finally(() => echo?.end());
      // Learnt only from a settle that ran its course (an abort says nothing of the app).
      if (echo) echoingWindows.learn(echoWindow, echoOutcome({ ...echo.progress(), expected }));
      if (result.settled && last && lastGrab?.frame === last) {
        // Another settle may have run meanwhile and left its frame: this one is newer.
        takeSettled()?.grab.frame.release();
        settledFrame = { displayId: display.id, at: performance.now(), grab: lastGrab };
      } else {
        last?.release();
      }
      return result;
    },

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
