/**
 * The screen of an Xvfb that DeskPilot started itself (virtual-display.ts), read from the
 * server's own framebuffer: `Xvfb -fbdir <dir>` keeps it in a memory-mapped XWD file,
 * `<dir>/Xvfb_screen0`. Reading that file is a copy from the page cache: 4.1 ms median
 * for 1920×1080 (p10 2.0 ms) where libnut's XGetImage of the same screen took 31.6 ms
 * median, bimodal at ~4 and ~40 ms, on the same idle 2-core machine (issue 19: the
 * observe pipeline is the grab plus ~18 ms of sharp).
 *
 * Only for a server started with `-nocursor` as well: Xvfb draws its software cursor
 * into this memory (GetImage leaves it out), so the pixels would differ from a grab.
 * The file is named in the run's environment (XVFB_FRAMEBUFFER_ENV) by whoever started
 * the server for that DISPLAY; any other display is grabbed through libnut as before.
 *
 * XWD layout (X11 XWDFile.h): a header of 25 big-endian CARD32 fields (header_size first,
 * then version 7, ZPixmap = 2, …), the window name up to header_size, ncolors colour
 * entries of 12 bytes, then the pixels: bytes_per_line × height.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** The environment variable naming the framebuffer file of the Xvfb serving $DISPLAY. */
export const XVFB_FRAMEBUFFER_ENV = 'DESKPILOT_XVFB_FRAMEBUFFER';

const HEADER_FIELDS = 25;
const XWD_VERSION = 7;
const Z_PIXMAP = 2;
const LSB_FIRST = 0;

/** `<display>=<file>`: the file serves only that DISPLAY (a child that changes DISPLAY is grabbed through X). */
export function framebufferFor(env: NodeJS.ProcessEnv): string | undefined {
  const value = env[XVFB_FRAMEBUFFER_ENV];
  const at = value?.indexOf('=') ?? -1;
  if (!value || at <= 0 || !env.DISPLAY || value.slice(0, at) !== env.DISPLAY) return undefined;
  return value.slice(at + 1) || undefined;
}

/** One framebuffer read: BGRx rows (the same layout as libnut's grab on X11). */
export interface FramebufferFrame {
  data: Buffer;
  width: number;
  height: number;
  channels: 4;
  byteWidth: number;
  /** 0: BGR order, as libnut reports it on X11. */
  colorMode: 0;
}

/** Why a file cannot be read as a 32-bit BGRx framebuffer, or undefined when it can (pure: tested with built headers). */
export function unreadableHeader(header: Buffer): string | undefined {
  if (header.length < HEADER_FIELDS * 4) return `header of ${header.length} bytes`;
  const field = (i: number) => header.readUInt32BE(i * 4);
  if (field(1) !== XWD_VERSION) return `XWD version ${field(1)}`;
  if (field(2) !== Z_PIXMAP) return `pixmap format ${field(2)}`;
  if (field(11) !== 32) return `${field(11)} bits per pixel`;
  if (field(7) !== LSB_FIRST) return 'MSB-first byte order';
  if (field(14) !== 0xff0000 || field(15) !== 0xff00 || field(16) !== 0xff) return 'not an x8r8g8b8 visual';
  if (field(12) < field(4) * 4) return `${field(12)} bytes per line for ${field(4)} pixels`;
  return undefined;
}

/**
 * The framebuffer now, or undefined when the file is missing or not a 32-bit BGRx
 * screen (the caller grabs through X instead). Reads the header and the pixels in two
 * reads of one open file: the server keeps writing, so a frame can be torn across a
 * repaint, which settle's frame comparison treats like any change.
 */
export function readXvfbFramebuffer(path: string): FramebufferFrame | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const header = Buffer.alloc(HEADER_FIELDS * 4);
    if (readSync(fd, header, 0, header.length, 0) !== header.length || unreadableHeader(header)) return undefined;
    const field = (i: number) => header.readUInt32BE(i * 4);
    const width = field(4);
    const height = field(5);
    const byteWidth = field(12);
    const offset = field(0) + field(19) * 12;
    const data = Buffer.allocUnsafe(byteWidth * height);
    if (readSync(fd, data, 0, data.length, offset) !== data.length) return undefined;
    return { data, width, height, channels: 4, byteWidth, colorMode: 0 };
  } finally {
    closeSync(fd);
  }
}
