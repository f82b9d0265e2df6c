/**
 * A grab's pixels land in the frame straight from the socket (issue 29 item 5: settle's
 * frame copies were the largest item of the agent bench's profile, 35.7 s of 277 s at load
 * ~62). Real Xvfb: the JavaScript copies during a grab are counted (Buffer#copy, the only
 * copy the grabber makes); the reply's head and what the first read brought with it are
 * copied from the read chunk, the rest of the 4 MB is not. The pixels are still the ones
 * the server holds (x11-image-grab.desktop checks them against libnut too).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { X11ImageGrabber } from '../../../src/os-control/x11/image-grab.js';
import { startXvfb, type Xvfb } from '../../harness/xvfb.js';

let xvfb: Xvfb;
let grabber: X11ImageGrabber;
const WIDTH = 1280;
const HEIGHT = 800;

beforeAll(async () => {
  xvfb = await startXvfb({ width: WIDTH, height: HEIGHT, windowManager: false });
  grabber = await X11ImageGrabber.open(xvfb.display, xvfb.env.XAUTHORITY ? { xauthority: xvfb.env.XAUTHORITY } : {});
}, 60_000);
afterAll(async () => {
  grabber?.close();
  await xvfb?.stop();
});

/** Bytes Buffer#copy moved while `work` ran. */
async function bytesCopiedDuring(work: () => Promise<unknown>): Promise<number> {
  const copy = Buffer.prototype.copy;
  let bytes = 0;
  Buffer.prototype.copy = function (this: Buffer, ...args: Parameters<Buffer['copy']>) {
    const n = copy.apply(this, args);
    bytes += n;
    return n;
  };
  try {
    await work();
  } finally {
    Buffer.prototype.copy = copy;
  }
  return bytes;
}

describe('a grab read into the frame', () => {
  it('copies at most the first read (the reply head and what came with it) of a 4 MB grab, and the frame holds the screen', async () => {
    const r = spawnSync('xsetroot', ['-solid', '#3a5f7c'], { env: xvfb.env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const frame = Buffer.alloc(WIDTH * HEIGHT * 4);
    // The first grab after open, outside the count (nothing of it differs, but the count should be one grab's).
    await grabber.grab({ x: 0, y: 0, width: WIDTH, height: HEIGHT }, frame);
    frame.fill(0);
    let pixels: Buffer | undefined;
    const copied = await bytesCopiedDuring(async () => {
      pixels = (await grabber.grab({ x: 0, y: 0, width: WIDTH, height: HEIGHT }, frame)).data;
    });
    // The read chunk is 256 KB; the old grabber copied every pixel from it (4,096,000 bytes here).
    expect(copied).toBeLessThanOrEqual(256 * 1024);
    expect(pixels!.buffer).toBe(frame.buffer);
    const words = new Uint32Array(frame.buffer, frame.byteOffset, frame.length / 4);
    expect(words.findIndex((p) => p !== 0x003a5f7c)).toBe(-1);
  });
});
