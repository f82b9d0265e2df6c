import { sleep } from '../../shared/abort.js';
import { pasteX11 } from '../clipboard.js';
import type { Devices } from '../devices.js';
import { run } from '../exec.js';
import { loadCharMap } from '../keymap.js';
import { resolveKey } from '../keys.js';
import { loadNut } from '../native.js';
import { currentTextEchoWatch } from '../settle-echo.js';
import { focusedClientWindow } from '../settle-ping.js';
import { typeText } from '../typing.js';
import { NoSpareKeycodeError, type X11Typist } from '../x11/typist.js';
import { x11Session } from '../x11/session.js';
import type { ScreenState } from './screen-state.js';

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
 * How text reaches the focused app. X11: every character is a key event on one X
 * connection (x11/typist.ts), exact by construction. The key-by-key and clipboard paths
 * stay for other platforms and for an X server where remapping is impossible (no XTEST,
 * or no keycode without a keysym). The typed text's echo and the picture before the keys
 * join the screen's pending input, for the next settle.
 */
export class TypingPath {
  // A typist whose connection failed (a request past its limit on a hung server closes
  // it) is replaced at the next typing; one that could not open (no XTEST) is not retried.
  private typist: Promise<X11Typist | undefined> | undefined;

  constructor(
    private readonly devices: Devices,
    private readonly screen: ScreenState,
  ) {}

  async x11Typist(): Promise<X11Typist | undefined> {
    if (process.platform !== 'linux') return undefined;
    const current = this.typist ? await this.typist : undefined;
    if (this.typist && (current === undefined || current.isOpen)) return current;
    // The display's session keeps the typist (x11/session.ts) and replaces a closed one.
    this.typist = x11Session()
      .typist()
      .catch(() => undefined);
    return this.typist;
  }

  async type(text: string, signal: AbortSignal): Promise<void> {
    const { screen } = this;
    // The echo collects from before the first key (an insert may come back before settle
    // starts); text typed twice before one settle is one echo.
    const earlier = screen.pendingEcho();
    const echo = earlier ?? currentTextEchoWatch()?.begin();
    echo?.expect(text);
    // Looked up beside the keys, not before them. A failed lookup (the X connection) only
    // means no memory is used for this typing: settle still has the screen, the round
    // trip and any report that comes.
    const echoWindow = echo && !earlier ? focusedClientWindow().catch(() => 0) : undefined;
    const keysOut = async () => {
      await screen.beforeKeys();
      if (echo) screen.attachEcho(echo, echoWindow);
    };
    try {
      const x11 = await this.x11Typist();
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
      await typeText(this.devices, text, { signal, charMap, paste: (t, s) => this.paste(t, s) });
    } finally {
      // No keys went out (refused before the first): nothing will come back.
      if (echo && screen.pendingEcho() !== echo) echo.end();
    }
  }

  private async paste(text: string, signal?: AbortSignal): Promise<void> {
    const { devices } = this;
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
}
