/**
 * Performing one action of the shared vocabulary with the input devices. Points are
 * already global desktop coordinates (mapped by coords.ts). On abort or error every
 * key and button held is released before the error goes up.
 */
import type { MouseButton, Point } from '../shared/actions.js';
import { assertNever } from '../shared/assert-never.js';
import { sleep, throwIfAborted, yieldToEventLoop } from '../shared/abort.js';
import type { CheckedAction } from './check-action.js';
import type { Devices } from './devices.js';
import { parseKeyCombo, parseModifiers, type KeySpec } from './keys.js';
import type { PerformResult } from './types.js';
import { performElementAction, type ElementActor } from './element-action.js';

export interface ActionContext {
  devices: Devices;
  /** Types text exactly (typing.ts with the layout's char map and the paste path). */
  typeText: (text: string, signal: AbortSignal) => Promise<void>;
  /** Told where the pointer was left after a pointer action (takeover detection). */
  pointerLeftAt?: (p: Point) => void;
  /** Finds and acts on accessibility elements (element actions); absent: they are refused. */
  elements?: ElementActor;
  /**
   * While a click's button is down: resolves true once the window manager has passed the
   * press on to the app (x11/press-passed.ts), false when that cannot be known (the button
   * is then held BUTTON_HOLD_MS). Absent: always that pause.
   */
  pressPassedOn?: (signal: AbortSignal) => Promise<boolean>;
}

/** Pixels between interpolated drag positions: apps start a drag only after motion past a threshold. */
const DRAG_STEP_PX = 12;
const DRAG_STEP_MS = 4;
/**
 * Pause between the clicks of a double/triple click. X events injected back to back
 * carry the same millisecond timestamp, and Chromium then counts at most two clicks.
 */
const MULTI_CLICK_GAP_MS = 30;
/**
 * How long the button stays down when nothing proves the press reached the app
 * (`pressPassedOn` absent or without proof: no window manager that answers EWMH requests,
 * off X11). xcalc (Xaw) under openbox missed clicks released at once: the WM holds the
 * press until its loop passes it on (x11/press-passed.ts). xdotool holds 12 ms too.
 * There is no pause before the press: the pointer's move and the press go out in order on
 * one connection, so the app gets its EnterNotify first (xcalc under openbox, 8 clicks back
 * to back without it, 0 wrong of 54 runs at load 8-12); drags never had one.
 */
const BUTTON_HOLD_MS = 12;

async function withKeys<T>(devices: Devices, keys: KeySpec[], signal: AbortSignal, body: () => Promise<T>): Promise<T> {
  const pressed: KeySpec[] = [];
  try {
    for (const k of keys) {
      throwIfAborted(signal);
      await devices.keyDown(k);
      pressed.push(k);
    }
    return await body();
  } finally {
    for (const k of pressed.reverse()) await devices.keyUp(k);
  }
}

async function clickAt(ctx: ActionContext, p: Point, button: MouseButton, clicks: number, signal: AbortSignal): Promise<void> {
  await ctx.devices.move(p);
  for (let i = 0; i < clicks; i++) {
    throwIfAborted(signal);
    if (i > 0) await sleep(MULTI_CLICK_GAP_MS, signal);
    await ctx.devices.buttonDown(button);
    try {
      const passed = (await ctx.pressPassedOn?.(signal)) ?? false;
      if (!passed) await sleep(BUTTON_HOLD_MS, signal);
    } finally {
      // Never leave the button down, even when stopped mid-click.
      await ctx.devices.buttonUp(button);
    }
  }
}

async function dragAlong(ctx: ActionContext, path: Point[], button: MouseButton, signal: AbortSignal): Promise<void> {
  const d = ctx.devices;
  await d.move(path[0]!);
  await d.buttonDown(button);
  let at = path[0]!;
  for (const next of path.slice(1)) {
    const steps = Math.max(1, Math.ceil(Math.hypot(next.x - at.x, next.y - at.y) / DRAG_STEP_PX));
    for (let i = 1; i <= steps; i++) {
      await sleep(DRAG_STEP_MS, signal);
      await d.move({ x: at.x + ((next.x - at.x) * i) / steps, y: at.y + ((next.y - at.y) * i) / steps });
    }
    at = next;
  }
  await sleep(DRAG_STEP_MS, signal);
  await d.buttonUp(button);
}

async function pressKeys(ctx: ActionContext, text: string, repeat: number, signal: AbortSignal): Promise<void> {
  const { chords } = parseKeyCombo(text);
  for (let r = 0; r < repeat; r++) {
    for (const chord of chords) {
      throwIfAborted(signal);
      const inProcess = await Promise.all(chord.keys.map((k) => ctx.devices.inProcess(k)));
      if (inProcess.every(Boolean)) await withKeys(ctx.devices, chord.keys, signal, async () => {});
      // Keys a key_down holds are down already: xdotool must not press and release them again.
      else await ctx.devices.chordViaXdotool(chord.keys.filter((k) => !ctx.devices.isHeld(k)));
    }
    await yieldToEventLoop();
  }
}

/** key_down: each key of the one chord goes down and stays down (already held: nothing to do). */
async function holdDown(ctx: ActionContext, text: string, signal: AbortSignal): Promise<void> {
  const { chords } = parseKeyCombo(text);
  if (chords.length !== 1 || chords[0]!.key) throw new Error(`key_down ${JSON.stringify(text)}: only one chord of modifier keys can be held`);
  for (const k of chords[0]!.keys) {
    throwIfAborted(signal);
    if (!ctx.devices.isHeld(k)) await ctx.devices.keyDown(k);
  }
}

/** key_up: lets go of each key, last first; a key that is not held is reported, not an error. */
async function letGo(ctx: ActionContext, text: string): Promise<PerformResult> {
  const keys = parseKeyCombo(text).chords.flatMap((c) => c.keys);
  const notHeld: string[] = [];
  for (const k of [...keys].reverse()) {
    if (ctx.devices.isHeld(k)) await ctx.devices.release(k);
    else notHeld.push(k.name);
  }
  return notHeld.length ? { output: `${notHeld.join(', ')} ${notHeld.length === 1 ? 'was' : 'were'} not held; nothing to release` } : {};
}

export async function performAction(ctx: ActionContext, action: CheckedAction, signal: AbortSignal): Promise<PerformResult> {
  throwIfAborted(signal);
  const d = ctx.devices;
  try {
    switch (action.type) {
      case 'click': {
        const mods = parseModifiers(action.modifiers);
        await withKeys(d, mods, signal, () => clickAt(ctx, action, action.button, action.clicks, signal));
        ctx.pointerLeftAt?.(action);
        return {};
      }
      case 'move':
        await d.move(action);
        ctx.pointerLeftAt?.(action);
        return {};
      case 'mouse_down':
      case 'mouse_up': {
        if (action.x !== undefined && action.y !== undefined) {
          await d.move({ x: action.x, y: action.y });
          ctx.pointerLeftAt?.({ x: action.x, y: action.y });
        }
        if (action.type === 'mouse_down') await d.buttonDown(action.button);
        else await d.buttonUp(action.button);
        return {};
      }
      case 'drag': {
        const mods = parseModifiers(action.modifiers);
        await withKeys(d, mods, signal, () => dragAlong(ctx, action.path, action.button, signal));
        ctx.pointerLeftAt?.(action.path[action.path.length - 1]!);
        return {};
      }
      case 'scroll': {
        const mods = parseModifiers(action.modifiers);
        await d.move(action);
        await withKeys(d, mods, signal, async () => {
          for (let i = 0; i < action.amount; i++) {
            throwIfAborted(signal);
            const n = 1;
            if (action.direction === 'down') await d.scroll(0, n);
            else if (action.direction === 'up') await d.scroll(0, -n);
            else if (action.direction === 'right') await d.scroll(n, 0);
            else await d.scroll(-n, 0);
          }
        });
        ctx.pointerLeftAt?.(action);
        return {};
      }
      case 'type':
        await ctx.typeText(action.text, signal);
        return {};
      case 'key':
        await pressKeys(ctx, action.keys, action.repeat, signal);
        return {};
      case 'hold_key': {
        const { chords } = parseKeyCombo(action.keys);
        const keys = chords.flatMap((c) => c.keys);
        await withKeys(d, keys, signal, () => sleep(action.durationMs, signal));
        return {};
      }
      case 'key_down':
        await holdDown(ctx, action.keys, signal);
        return {};
      case 'key_up':
        return await letGo(ctx, action.keys);
      case 'wait':
        await sleep(action.durationMs, signal);
        return {};
      case 'cursor_position': {
        const p = await d.position();
        return { output: `X=${Math.round(p.x)},Y=${Math.round(p.y)}` };
      }
      case 'screenshot':
      case 'zoom':
        // Observing is Computer.observe's job; as an action these change nothing.
        return {};
      case 'element': {
        if (!ctx.elements) throw new Error('this computer cannot read accessibility elements; nothing was done');
        return await performElementAction(ctx.elements, action, async (p) => {
          await clickAt(ctx, p, 'left', 1, signal);
          ctx.pointerLeftAt?.(p);
        });
      }
      case 'shell':
      case 'mcp_call':
      case 'ask_user':
      case 'finish':
        throw new Error(`${action.type} is not an action for the computer`);
      default:
        return assertNever(action, 'action kind');
    }
  } catch (err) {
    await d.releaseAll();
    throw err;
  }
}
