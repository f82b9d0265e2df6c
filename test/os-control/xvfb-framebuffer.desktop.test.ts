/**
 * The screen of DeskPilot's own Xvfb read from its framebuffer file (issue 19): the same
 * pixels as a grab through X (libnut's XGetImage), the pointer never in them, and only
 * for the DISPLAY the file belongs to. On a real virtual display started the way
 * `run --virtual-display`, `serve --virtual-display` and `qa --workers` start theirs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualDisplay, type VirtualDisplay } from '../../src/os-control/virtual-display.js';
import { framebufferFor, readXvfbFramebuffer, unreadableHeader, XVFB_FRAMEBUFFER_ENV } from '../../src/os-control/x11/xvfb-framebuffer.js';
import type { DisplayInfo } from '../../src/shared/observation.js';

let vd: VirtualDisplay;
let file: string;
let logo: ChildProcess | undefined;

beforeAll(async () => {
  vd = await startVirtualDisplay({ width: 640, height: 400, windowManager: false, sessionBus: false });
  file = framebufferFor(vd.env)!;
  // Something to see: a coloured root and an xterm, with the pointer over it (xterm sets its I-beam cursor).
  spawnSync('xsetroot', ['-solid', '#3366cc'], { env: vd.env });
  logo = spawn('xterm', ['-geometry', '30x8+100+80'], { env: vd.env, stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 1_500));
  spawnSync('xdotool', ['mousemove', '200', '150'], { env: vd.env });
  process.env.DISPLAY = vd.display;
}, 60_000);
afterAll(async () => {
  logo?.kill();
  await vd?.stop();
});

const whole: DisplayInfo = { id: 'x', name: 'x', bounds: { x: 0, y: 0, width: 640, height: 400 }, scaleFactor: 1, primary: true };

/** The colour bytes (B, G, R) of a BGRx frame, the fourth byte of each pixel dropped. */
function colours(frame: { data: Buffer; width: number; height: number; byteWidth: number }): Buffer {
  const out = Buffer.alloc(frame.width * frame.height * 3);
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      const from = y * frame.byteWidth + x * 4;
      frame.data.copy(out, (y * frame.width + x) * 3, from, from + 3);
    }
  }
  return out;
}

describe("the virtual display's framebuffer file", () => {
  it('is named for its DISPLAY only, and holds the same pixels as a grab through X, without the pointer', async () => {
    expect(file).toBe(path.join(path.dirname(file), 'Xvfb_screen0'));
    expect(existsSync(file)).toBe(true);
    expect(framebufferFor({ ...vd.env, DISPLAY: ':999' })).toBeUndefined();
    expect(framebufferFor({ DISPLAY: vd.display })).toBeUndefined();

    const fromFile = readXvfbFramebuffer(file)!;
    expect(fromFile).toMatchObject({ width: 640, height: 400, channels: 4, colorMode: 0 });
    // The root's colour in BGR order, where no window is.
    expect([...fromFile.data.subarray(0, 3)]).toEqual([0xcc, 0x66, 0x33]);

    const { grabDisplayNut } = await import('../../src/os-control/capture.js');
    // Without the variable: libnut's XGetImage (which never shows the pointer).
    delete process.env[XVFB_FRAMEBUFFER_ENV];
    const throughX = await grabDisplayNut(whole);
    // With it, for this display: the file.
    process.env[XVFB_FRAMEBUFFER_ENV] = vd.env[XVFB_FRAMEBUFFER_ENV];
    const grabbed = await grabDisplayNut(whole);
    expect(grabbed.byteWidth).toBe(fromFile.byteWidth);
    expect(colours(grabbed).equals(colours(throughX))).toBe(true);
    // The xterm drew something of its own: the frames are not just the root colour.
    expect(colours(grabbed).equals(Buffer.alloc(640 * 400 * 3, Buffer.from([0xcc, 0x66, 0x33])))).toBe(false);

    // A display the file does not cover (another size) is grabbed through X.
    const half: DisplayInfo = { ...whole, bounds: { x: 0, y: 0, width: 320, height: 400 } };
    expect((await grabDisplayNut(half)).width).toBe(320);
  }, 60_000);

  it('is refused when it is not a 32-bit x8r8g8b8 ZPixmap; a missing file is no frame', () => {
    const header = Buffer.alloc(100);
    const set = (i: number, v: number) => header.writeUInt32BE(v, i * 4);
    const valid = () => {
      [100, 7, 2, 24, 640, 400, 0, 0, 32, 0, 32, 32, 2560, 4, 0xff0000, 0xff00, 0xff].forEach((v, i) => set(i, v));
    };
    valid();
    expect(unreadableHeader(header)).toBeUndefined();
    const broken: Array<[number, number, RegExp]> = [
      [1, 6, /XWD version 6/],
      [2, 1, /pixmap format 1/],
      [11, 16, /16 bits per pixel/],
      [7, 1, /MSB-first/],
      [14, 0xff, /x8r8g8b8/],
      [12, 2000, /2000 bytes per line for 640 pixels/],
    ];
    for (const [field, value, message] of broken) {
      valid();
      set(field, value);
      expect(unreadableHeader(header)).toMatch(message);
    }
    expect(unreadableHeader(Buffer.alloc(40))).toMatch(/header of 40 bytes/);
    expect(readXvfbFramebuffer('/nonexistent/Xvfb_screen0')).toBeUndefined();
  });

  it('goes with the display when it stops', async () => {
    const other = await startVirtualDisplay({ width: 320, height: 200, windowManager: false, sessionBus: false });
    const itsFile = framebufferFor(other.env)!;
    expect(readXvfbFramebuffer(itsFile)).toMatchObject({ width: 320, height: 200 });
    await other.stop();
    expect(existsSync(path.dirname(itsFile))).toBe(false);
  }, 60_000);
});
