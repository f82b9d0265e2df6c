/**
 * The lowest layer of input: press and release keys and mouse buttons, move and scroll,
 * and remember what is held so that it can always be released.
 *
 * In-process through nut.js (libnut, XTest on X11) for everything it knows; on X11 the
 * few things libnut cannot send (mouse back/forward buttons, keysyms outside its table
 * such as KP_Enter or Pause) go through xdotool, which injects through the same XTest
 * extension.
 */
import type { MouseButton, Point } from '../shared/actions.js';
import { run } from './exec.js';
import type { KeySpec } from './keys.js';
import { loadNut, type Nut } from './native.js';
import { pointerOverSocket } from './x11/pointer.js';
import { x11Session } from './x11/session.js';

/**
 * `xdotool key --delay`: xdotool sleeps half of it after each press and each release.
 * A keysym absent from the keymap (Multi_key, XF86MonBrightnessUp on Xvfb) is bound to a
 * scratch keycode for the chord and unbound right after it; an application that reads
 * the keymap only after the unbind translates the key to NoSymbol. With xdotool's default
 * (12 ms) a busy CI machine showed exactly that: xev got Multi_key's press and release as
 * NoSymbol. 150 ms keeps the binding alive ~150 ms for a single key; it costs that much
 * on these rare keys only (the keys libnut presses in-process never come here). The X11
 * typist's proof that the application re-read the keymap (x11/typist.ts) is what typing
 * uses; keys outside the keymap do not have it yet.
 */
const XDOTOOL_KEY_DELAY_MS = 150;

async function numLockOn(): Promise<boolean | undefined> {
  try {
    const { stdout } = await run('xset', ['q'], { timeoutMs: 2_000 });
    const m = /Num Lock:\s*(on|off)/.exec(stdout);
    return m ? m[1] === 'on' : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A key as xdotool reads it: the keysym value in hex ("0xff6a"), which XStringToKeysym
 * takes as is. By name, xdotool mistakes some keysyms for its own words: `xdotool key
 * Help` prints its usage instead of pressing Help.
 */
function xdotoolName(key: KeySpec): string {
  return `0x${key.keysym.toString(16)}`;
}

const X_BUTTON: Record<MouseButton, number> = { left: 1, middle: 2, right: 3, back: 8, forward: 9 };

export class Devices {
  /** Keys held by this process, in press order (canonical keysym name → spec). */
  private readonly heldKeys = new Map<string, KeySpec>();
  /**
   * Presses of a key already down (a click with ctrl while a key_down action holds
   * ctrl, Shift for a capital while shift is held): counted, not sent, so that their
   * release does not let go of the outer hold.
   */
  private readonly nested = new Map<string, number>();
  private readonly heldButtons = new Set<MouseButton>();
  /** NumLock state before an xdotool keydown, restored at its keyup. */
  private readonly numLockBefore = new Map<string, boolean | undefined>();
  private nut: Nut | undefined;

  private async n(): Promise<Nut> {
    if (!this.nut) {
      this.nut = await loadNut();
      // nut.js's default instances set libnut delays of 100–300 ms per event; we pace ourselves.
      this.nut.providerRegistry.getKeyboard().setKeyboardDelay(0);
      this.nut.providerRegistry.getMouse().setMouseDelay(0);
    }
    return this.nut;
  }

  private nutKey(nut: Nut, key: KeySpec): number | undefined {
    if (!key.nut) return undefined;
    const value = (nut.Key as unknown as Record<string, number | undefined>)[key.nut];
    return typeof value === 'number' ? value : undefined;
  }

  async keyDown(key: KeySpec): Promise<void> {
    if (this.heldKeys.has(key.name)) {
      this.nested.set(key.name, (this.nested.get(key.name) ?? 0) + 1);
      return;
    }
    const nut = await this.n();
    const k = this.nutKey(nut, key);
    // Remember before sending: if sending throws half-way, releaseAll still tries.
    this.heldKeys.set(key.name, key);
    if (k !== undefined) await nut.providerRegistry.getKeyboard().pressKey(k);
    else {
      this.numLockBefore.set(key.name, await numLockOn());
      await this.xdotool(['keydown', '--', xdotoolName(key)]);
    }
  }

  async keyUp(key: KeySpec): Promise<void> {
    const depth = this.nested.get(key.name) ?? 0;
    if (depth > 0) {
      if (depth === 1) this.nested.delete(key.name);
      else this.nested.set(key.name, depth - 1);
      return;
    }
    if (!this.heldKeys.has(key.name)) return;
    const nut = await this.n();
    const k = this.nutKey(nut, key);
    if (k !== undefined) await nut.providerRegistry.getKeyboard().releaseKey(k);
    else {
      await this.xdotool(['keyup', '--', xdotoolName(key)]);
      // xdotool turns NumLock on to reach keypad keysyms and leaves it on: put it back.
      const before = this.numLockBefore.get(key.name);
      this.numLockBefore.delete(key.name);
      if (before !== undefined && (await numLockOn()) !== before) await this.xdotool(['key', 'Num_Lock']);
    }
    this.heldKeys.delete(key.name);
  }

  /** Is this key down now (pressed by this process and not released)? */
  isHeld(key: KeySpec): boolean {
    return this.heldKeys.has(key.name);
  }

  /** Lets go of a held key whatever nested presses it carries (the key_up action). */
  async release(key: KeySpec): Promise<void> {
    this.nested.delete(key.name);
    await this.keyUp(key);
  }

  /** True when this key can be pressed in-process (else it goes through xdotool). */
  async inProcess(key: KeySpec): Promise<boolean> {
    return this.nutKey(await this.n(), key) !== undefined;
  }

  /**
   * Presses and releases a chord in one xdotool call. For keysyms libnut cannot send:
   * xdotool also sets the modifier state such a keysym needs (NumLock for KP_0) and
   * restores it, which separate keydown/keyup calls would not.
   */
  async chordViaXdotool(keys: KeySpec[]): Promise<void> {
    const before = await numLockOn();
    await this.xdotool(['key', '--delay', String(XDOTOOL_KEY_DELAY_MS), '--', keys.map(xdotoolName).join('+')]);
    // xdotool turns NumLock on to reach keypad keysyms and leaves it on: put it back.
    if (before !== undefined && (await numLockOn()) !== before) await this.xdotool(['key', 'Num_Lock']);
  }

  /** One key stroke (down + up), used by typing. */
  async tap(key: KeySpec): Promise<void> {
    await this.keyDown(key);
    await this.keyUp(key);
  }

  async move(p: Point): Promise<void> {
    const nut = await this.n();
    await nut.providerRegistry.getMouse().setMousePosition(new nut.Point(Math.round(p.x), Math.round(p.y)));
  }

  /**
   * Where the pointer is. On X11 one request on the display's held connection
   * (x11/pointer.ts: awaited, the event loop free meanwhile); libnut's synchronous read when
   * that connection cannot answer (a display our client cannot reach, an auth it does not
   * speak, a hang past its limit) and off X11.
   */
  async position(): Promise<Point> {
    if (process.platform === 'linux' && process.env.DISPLAY) {
      try {
        return await pointerOverSocket(x11Session());
      } catch {
        // libnut below reads the same pointer through Xlib; its error, if any, is the one reported.
      }
    }
    const nut = await this.n();
    const p = await nut.providerRegistry.getMouse().currentMousePosition();
    return { x: p.x, y: p.y };
  }

  async buttonDown(button: MouseButton): Promise<void> {
    const nut = await this.n();
    if (this.heldButtons.has(button)) throw new Error(`the ${button} button is already held down (mouse_up releases it)`);
    this.heldButtons.add(button);
    const b = this.nutButton(nut, button);
    if (b !== undefined) await nut.providerRegistry.getMouse().pressButton(b);
    else await this.xdotool(['mousedown', String(X_BUTTON[button])]);
  }

  async buttonUp(button: MouseButton): Promise<void> {
    const nut = await this.n();
    const b = this.nutButton(nut, button);
    if (b !== undefined) await nut.providerRegistry.getMouse().releaseButton(b);
    else await this.xdotool(['mouseup', String(X_BUTTON[button])]);
    this.heldButtons.delete(button);
  }

  /** Wheel notches: positive dy scrolls down, positive dx scrolls right. */
  async scroll(dx: number, dy: number): Promise<void> {
    const nut = await this.n();
    const mouse = nut.providerRegistry.getMouse();
    if (dy > 0) await mouse.scrollDown(dy);
    if (dy < 0) await mouse.scrollUp(-dy);
    // libnut's horizontal scroll is mirrored on X11 (its "right" sends button 6, which is left).
    const mirrored = process.platform === 'linux';
    if (dx > 0) await (mirrored ? mouse.scrollLeft(dx) : mouse.scrollRight(dx));
    if (dx < 0) await (mirrored ? mouse.scrollRight(-dx) : mouse.scrollLeft(-dx));
  }

  held(): { keys: string[]; buttons: MouseButton[] } {
    return { keys: [...this.heldKeys.keys()], buttons: [...this.heldButtons] };
  }

  /** Releases every key and button this process holds, most recent first. Never throws. */
  async releaseAll(): Promise<void> {
    for (const button of [...this.heldButtons].reverse()) {
      try {
        await this.buttonUp(button);
      } catch {
        this.heldButtons.delete(button);
      }
    }
    this.nested.clear();
    for (const key of [...this.heldKeys.values()].reverse()) {
      try {
        await this.keyUp(key);
      } catch {
        this.heldKeys.delete(key.name);
      }
    }
  }

  private nutButton(nut: Nut, button: MouseButton): number | undefined {
    if (button === 'left') return nut.Button.LEFT;
    if (button === 'middle') return nut.Button.MIDDLE;
    if (button === 'right') return nut.Button.RIGHT;
    return undefined;
  }

  private async xdotool(args: string[]): Promise<void> {
    if (process.platform !== 'linux') throw new Error(`"${args.join(' ')}" needs xdotool, which exists on X11 only`);
    await run('xdotool', args, { timeoutMs: 5_000 });
  }
}
