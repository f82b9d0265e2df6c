/**
 * The X11 connection setup, shared by every connection we open: the request a client
 * sends first (byte order, protocol 11.0, the MIT-MAGIC-COOKIE-1 if there is one) and
 * the server's reply, read as far as our requests need it.
 *
 * Reference: X Window System Protocol (X11R7), section 8 "Connection Setup". All
 * offsets below are from its encoding appendix; we always ask for little-endian ('l').
 */
import { X11Error } from './errors.js';

/** One "pixmap format" of the server: how an image of `depth` is laid out in GetImage replies. */
export interface PixmapFormat {
  depth: number;
  bitsPerPixel: number;
  scanlinePad: number;
}

/** The first screen's root window and how its pixels are encoded. */
export interface RootScreen {
  root: number;
  width: number;
  height: number;
  depth: number;
  /** The channel masks of the root visual (0xff0000 / 0xff00 / 0xff on any 24-bit TrueColor screen). */
  redMask: number;
  greenMask: number;
  blueMask: number;
}

export interface SetupInfo {
  resourceIdBase: number;
  resourceIdMask: number;
  minKeycode: number;
  maxKeycode: number;
  root: number;
  /** 0 = LSBFirst: a 32-bit pixel's lowest byte comes first. */
  imageByteOrder: 0 | 1;
  pixmapFormats: PixmapFormat[];
  screen: RootScreen;
}

const pad4 = (n: number) => (4 - (n % 4)) % 4;

/** The setup request: little-endian, protocol 11.0, the cookie when one was found. */
export function setupRequest(cookie: Buffer | undefined): Buffer {
  const authName = cookie ? Buffer.from('MIT-MAGIC-COOKIE-1') : Buffer.alloc(0);
  const authData = cookie ?? Buffer.alloc(0);
  const head = Buffer.alloc(12);
  head.write('l', 0, 'latin1');
  head.writeUInt16LE(11, 2);
  head.writeUInt16LE(0, 4);
  head.writeUInt16LE(authName.length, 6);
  head.writeUInt16LE(authData.length, 8);
  return Buffer.concat([head, authName, Buffer.alloc(pad4(authName.length)), authData, Buffer.alloc(pad4(authData.length))]);
}

/**
 * The server's setup reply, once `got` holds all of it: its fields and how many bytes
 * it took (what follows belongs to the first replies). Undefined while incomplete.
 * Throws an X11Error naming the server's reason when it refused the connection.
 */
export function parseSetup(got: Buffer, display: string): { info: SetupInfo; length: number } | undefined {
  if (got.length < 8) return undefined;
  const length = 8 + got.readUInt16LE(6) * 4;
  if (got.length < length) return undefined;
  const status = got[0];
  if (status !== 1) {
    const reason = status === 0 ? got.subarray(8, 8 + got[1]!).toString('latin1') : 'authentication required';
    throw new X11Error(`X display ${display} refused the connection: ${reason.trim()}`);
  }
  const vendorLength = got.readUInt16LE(24);
  const formatCount = got[29]!;
  const formatsAt = 40 + vendorLength + pad4(vendorLength);
  const pixmapFormats: PixmapFormat[] = [];
  for (let i = 0; i < formatCount; i++) {
    const at = formatsAt + 8 * i;
    pixmapFormats.push({ depth: got[at]!, bitsPerPixel: got[at + 1]!, scanlinePad: got[at + 2]! });
  }
  const screenAt = formatsAt + 8 * formatCount;
  return {
    info: {
      resourceIdBase: got.readUInt32LE(12),
      resourceIdMask: got.readUInt32LE(16),
      minKeycode: got[34]!,
      maxKeycode: got[35]!,
      root: got.readUInt32LE(screenAt),
      imageByteOrder: got[30] === 1 ? 1 : 0,
      pixmapFormats,
      screen: readRootScreen(got, screenAt),
    },
    length,
  };
}

/** SCREEN (40 bytes, then its DEPTHs, each followed by its 24-byte VISUALTYPEs). */
function readRootScreen(got: Buffer, at: number): RootScreen {
  const rootVisual = got.readUInt32LE(at + 32);
  const depthCount = got[at + 39]!;
  const screen = { root: got.readUInt32LE(at), width: got.readUInt16LE(at + 20), height: got.readUInt16LE(at + 22), depth: got[at + 38]!, redMask: 0, greenMask: 0, blueMask: 0 };
  let depthAt = at + 40;
  for (let d = 0; d < depthCount && depthAt + 8 <= got.length; d++) {
    const visualCount = got.readUInt16LE(depthAt + 2);
    for (let v = 0; v < visualCount; v++) {
      const visualAt = depthAt + 8 + 24 * v;
      if (got.readUInt32LE(visualAt) !== rootVisual) continue;
      screen.redMask = got.readUInt32LE(visualAt + 8);
      screen.greenMask = got.readUInt32LE(visualAt + 12);
      screen.blueMask = got.readUInt32LE(visualAt + 16);
    }
    depthAt += 8 + 24 * visualCount;
  }
  return screen;
}
