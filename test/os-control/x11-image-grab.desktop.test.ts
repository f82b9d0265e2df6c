/**
 * Grabs over our own X connection (x11/image-grab.ts) on a real Xvfb: the pixels the
 * server holds, byte for byte what libnut reads; errors that name the cause and leave
 * the connection usable; a server that dies or a layout we do not read refused, never
 * misread; and the frames observe and settle use come from it through the pool.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DisplayGrabber } from '../../src/os-control/display-grab.js';
import { loadNut } from '../../src/os-control/native.js';
import { X11ImageGrabber } from '../../src/os-control/x11/image-grab.js';
import { requirePrograms } from '../harness/requirements.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
let xvfb: Xvfb;
let grabber: X11ImageGrabber;

beforeAll(async () => {
  requirePrograms(['xsetroot', 'xauth', 'xterm']);
  xvfb = await startXvfb({ width: 1280, height: 800, windowManager: false });
  process.env.DISPLAY = xvfb.display;
  grabber = await X11ImageGrabber.open(xvfb.display);
}, 60_000);
afterAll(async () => {
  grabber?.close();
  await xvfb?.stop();
});

function setRoot(colour: string): void {
  const r = spawnSync('xsetroot', ['-solid', colour], { env: xvfb.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`xsetroot failed: ${r.stderr}`);
}

describe('X11ImageGrabber', () => {
  it('reads the root window as the server holds it: bytes B, G, R, 0 for every pixel, the whole screen', async () => {
    expect(grabber.order).toBe('bgr');
    expect(grabber.screenSize).toEqual({ width: 1280, height: 800 });
    setRoot('#123456');
    const { data, width, height, order } = await grabber.grab({ x: 0, y: 0, width: 1280, height: 800 });
    expect([width, height, order, data.length]).toEqual([1280, 800, 'bgr', 1280 * 800 * 4]);
    const pixels = new Uint32Array(data.buffer, data.byteOffset, data.length / 4);
    const other = pixels.findIndex((p) => p !== 0x00123456);
    expect(other).toBe(-1);
  });

  it('a region is byte for byte what libnut grabs there (colour bytes; libnut pads rows its own way)', async () => {
    setRoot('#0a0b0c');
    // Something that is not one colour: an xterm with text in it.
    const xterm = spawnSync('sh', ['-c', 'xterm -geometry 60x10+40+30 -bg white -fg black -e sh -c "echo grab me; sleep 30" >/dev/null 2>&1 & echo $!'], { env: xvfb.env, encoding: 'utf8' });
    const pid = Number(xterm.stdout.trim());
    try {
      const nut = await loadNut();
      const rect = { x: 20, y: 10, width: 300, height: 120 };
      let ours = await grabber.grab(rect);
      // Wait for the xterm to be drawn (more than one colour in the region).
      for (let i = 0; i < 100 && new Set(new Uint32Array(ours.data.buffer, ours.data.byteOffset, ours.data.length / 4)).size < 3; i++) {
        await new Promise((r) => setTimeout(r, 50));
        ours = await grabber.grab(rect);
      }
      const theirs = await nut.providerRegistry.getScreen().grabScreenRegion(new nut.Region(rect.x, rect.y, rect.width, rect.height));
      let differing = 0;
      for (let row = 0; row < rect.height; row++) {
        for (let col = 0; col < rect.width; col++) {
          for (let c = 0; c < 3; c++) {
            if (ours.data[(row * rect.width + col) * 4 + c] !== theirs.data[row * theirs.byteWidth + col * 4 + c]) differing++;
          }
        }
      }
      expect(new Set(new Uint32Array(ours.data.buffer, ours.data.byteOffset, ours.data.length / 4)).size).toBeGreaterThanOrEqual(3);
      expect(differing).toBe(0);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  }, 30_000);

  it('fills the buffer it is given, and refuses one too small before asking the server', async () => {
    setRoot('#405060');
    const into = Buffer.alloc(64 * 32 * 4 + 100, 0xee);
    const got = await grabber.grab({ x: 5, y: 5, width: 64, height: 32 }, into);
    expect(got.data.buffer === into.buffer, 'the pixels are in the given buffer').toBe(true);
    expect(got.data.length).toBe(64 * 32 * 4);
    expect(into.readUInt32LE(0)).toBe(0x00405060);
    expect(into.readUInt32LE(64 * 32 * 4 - 4)).toBe(0x00405060);
    expect(into[64 * 32 * 4]).toBe(0xee); // nothing written past the frame
    await expect(grabber.grab({ x: 0, y: 0, width: 64, height: 32 }, Buffer.alloc(100))).rejects.toThrow(/holds 100 bytes; 64×32 needs 8192/);
  });

  it('a rectangle outside the screen is BadMatch, said in words; the next grab on the same connection works', async () => {
    await expect(grabber.grab({ x: 1200, y: 0, width: 100, height: 10 })).rejects.toThrow(/X error 8 .*100×10 grab at \(1200, 0\).*not inside the screen/);
    await expect(grabber.grab({ x: 0, y: 0, width: 0, height: 10 })).rejects.toThrow(/not a rectangle of whole pixels/);
    await expect(grabber.grab({ x: 0.5, y: 0, width: 10, height: 10 })).rejects.toThrow(/not a rectangle of whole pixels/);
    setRoot('#010203');
    const ok = await grabber.grab({ x: 1279, y: 799, width: 1, height: 1 });
    expect(ok.data.readUInt32LE(0)).toBe(0x00010203);
  });

  it('grabs asked at once come back in order, each with its own pixels', async () => {
    setRoot('#111111');
    const rects = [
      { x: 0, y: 0, width: 1280, height: 800 },
      { x: 3, y: 4, width: 7, height: 9 },
      { x: 100, y: 100, width: 640, height: 400 },
    ];
    const grabs = await Promise.all(rects.map((r) => grabber.grab(r)));
    expect(grabs.map((g) => [g.width, g.height, g.data.length])).toEqual(rects.map((r) => [r.width, r.height, r.width * r.height * 4]));
    for (const g of grabs) expect(g.data.readUInt32LE(g.data.length - 4)).toBe(0x00111111);
  });

  it('a server that dies: the grab in flight and every later one fail with "closed", none hangs', async () => {
    const second = await startXvfb({ width: 640, height: 480, windowManager: false });
    const doomed = await X11ImageGrabber.open(second.display);
    const before = await doomed.grab({ x: 0, y: 0, width: 640, height: 480 });
    expect(before.data.length).toBe(640 * 480 * 4);
    const inFlight = doomed.grab({ x: 0, y: 0, width: 640, height: 480 });
    await second.stop();
    // The one in flight may have been answered before the server went; the next cannot be.
    await inFlight.catch((err: Error) => expect(err.message).toMatch(/X connection (closed|failed)/));
    await expect(doomed.grab({ x: 0, y: 0, width: 1, height: 1 })).rejects.toThrow(/X connection (closed|failed)/);
    doomed.close();
  }, 60_000);

  it('refuses, at open, a server whose pixels it would misread (16-bit colour), naming the layout', async () => {
    const shallow = await startXvfb({ width: 320, height: 240, depth: 16, windowManager: false });
    try {
      await expect(X11ImageGrabber.open(shallow.display)).rejects.toThrow(/lays out pixels as depth 16, 16 bits per pixel.*32-bit little-endian TrueColor only/);
    } finally {
      await shallow.stop();
    }
  }, 60_000);

  it('a server that wants a cookie: connects with the one in XAUTHORITY, and without it is refused in the server\'s words', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-xauth-'));
    const authFile = path.join(dir, 'Xauthority');
    const cookie = randomBytes(16).toString('hex');
    const server = spawn('Xvfb', ['-displayfd', '3', '-auth', authFile, '-nolisten', 'tcp', '-screen', '0', '320x240x24'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
    const savedAuth = process.env.XAUTHORITY;
    try {
      // The cookie file exists before the server reads it (at start and at each connection).
      const add = (display: string) => spawnSync('xauth', ['-f', authFile, 'add', display, 'MIT-MAGIC-COOKIE-1', cookie], { encoding: 'utf8' });
      writeFileSync(authFile, '');
      const number = await new Promise<string>((resolve, reject) => {
        let out = '';
        (server.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out.trim());
        });
        server.once('exit', (code) => reject(new Error(`Xvfb exited ${code}`)));
      });
      const display = `:${number}`;
      expect(add(display).status).toBe(0);
      process.env.XAUTHORITY = authFile;
      const allowed = await X11ImageGrabber.open(display);
      expect((await allowed.grab({ x: 0, y: 0, width: 320, height: 240 })).data.length).toBe(320 * 240 * 4);
      process.env.XAUTHORITY = path.join(dir, 'no-cookie-here');
      // `allowed` stays connected meanwhile: when its last client leaves, an X server resets,
      // and a connection made during the reset is dropped (ECONNRESET, one CI run), not refused.
      try {
        await expect(X11ImageGrabber.open(display)).rejects.toThrow(new RegExp(`X display ${display} refused the connection: .*(Authorization|authorization|protocol)`));
      } finally {
        allowed.close();
      }
    } finally {
      if (savedAuth === undefined) delete process.env.XAUTHORITY;
      else process.env.XAUTHORITY = savedAuth;
      server.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('an unreachable display is an error in words, not a hang', async () => {
    await expect(X11ImageGrabber.open(':987')).rejects.toThrow(/cannot connect to X display :987/);
  });

  it('an idle grabber keeps no process alive: a script that grabs and returns exits on its own', async () => {
    const script = `
      import { X11ImageGrabber } from './src/os-control/x11/image-grab.ts';
      const g = await X11ImageGrabber.open(process.env.DISPLAY);
      const { data } = await g.grab({ x: 0, y: 0, width: 10, height: 10 });
      console.log('grabbed', data.length);
    `;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, env: xvfb.env, timeout: 60_000 });
    expect(stdout.trim()).toBe('grabbed 400');
  }, 90_000);
});

describe('DisplayGrabber', () => {
  const display = { id: '0', name: 'screen', primary: true, bounds: { x: 0, y: 0, width: 1280, height: 800 }, scaleFactor: 1 };

  it('grabs through our connection into pooled buffers: a released frame is the next grab\'s buffer', async () => {
    setRoot('#203040');
    const displays = new DisplayGrabber(true);
    const first = await displays.grab(display);
    expect([first.width, first.height, first.channels, first.byteWidth, first.order]).toEqual([1280, 800, 4, 1280 * 4, 'bgr']);
    expect(first.frame.data.readUInt32LE(0)).toBe(0x00203040);
    const buffer = first.frame.data;
    first.frame.release();
    expect(displays.pooled).toBe(1);
    setRoot('#504030');
    const second = await displays.grab(display);
    expect(second.frame.data === buffer, 'the same buffer again').toBe(true);
    expect(second.frame.data.readUInt32LE(0)).toBe(0x00504030);
    // Held frames are never handed out twice.
    const third = await displays.grab(display);
    expect(third.frame.data === buffer, 'a held buffer handed out again').toBe(false);
    second.frame.release();
    third.frame.release();
  });

  it('a display list gone stale (the rectangle is off the screen) falls back to libnut for that grab, which answers its own way', async () => {
    const displays = new DisplayGrabber(true);
    setRoot('#102030');
    const offScreen = { id: '1', name: 'stale', primary: false, bounds: { x: 1000, y: 0, width: 1280, height: 800 }, scaleFactor: 1 };
    const nut = await loadNut();
    // What libnut itself gives for that rectangle: the fallback gives the same.
    const libnut = await nut.providerRegistry.getScreen().grabScreenRegion(new nut.Region(1000, 0, 1280, 800)).then((g) => [g.width, g.height], (e: Error) => e.message);
    const ours = await displays.grab(offScreen).then((g) => [g.width, g.height], (e: Error) => e.message);
    expect(ours).toEqual(libnut);
    // And the next whole-screen grab is through our connection again.
    const back = await displays.grab(display);
    expect(back.frame.data.readUInt32LE(0)).toBe(0x00102030);
    back.frame.release();
    expect(displays.pooled).toBe(1);
  });
});
