import { promises as fs } from 'node:fs';

/**
 * Reads a file a person points DeskPilot at (a QA plan, a trajectory, a config, a skill, a
 * results file, an eval task) under a documented size limit that holds whatever the path
 * is. A size from stat() is not enough: a FIFO (`--plan <(generate)`), /dev/stdin or
 * /dev/zero reports size 0 and then reads without end, into V8's raw "Invalid string
 * length" (what a 600 MB file gave before its limit, issue 27 item 10) or out of memory. So:
 *   1. a regular file over the limit is refused from its size, before a byte is read;
 *   2. anything else readable (a pipe, a character device) is read in pieces and refused
 *      as soon as it passes the limit — at most `maxBytes` + one piece is ever held;
 *   3. a folder is refused by name.
 * The error says what it is and the limit, in the caller's words ("a plan"); the caller
 * names the file as it names it for every other problem.
 */
export class FileTooLargeError extends Error {
  constructor(
    readonly file: string,
    readonly maxBytes: number,
    /** The size, when stat() knew it (a regular file); undefined for a stream cut at the limit. */
    readonly size: number | undefined,
    what: string,
  ) {
    super(`${size !== undefined ? `it is ${formatBytes(size)}` : `it goes on past ${formatBytes(maxBytes)}`}; ${what} may be at most ${formatBytes(maxBytes)}`);
    this.name = 'FileTooLargeError';
  }
}

/** "1 MiB", "512 KiB", "1.5 MiB", "20 bytes": the unit a person reads a limit in. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${trim(bytes / (1024 * 1024))} MiB`;
  if (bytes >= 1024) return `${trim(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}

function trim(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** A piece of a stream: 64 KiB (a pipe's default capacity on Linux). */
const PIECE = 64 * 1024;

export interface CapOptions {
  /** The most bytes the caller accepts. */
  maxBytes: number;
  /** What the file is, with its article, for the error: "a plan", "a trajectory file". */
  what: string;
}

/** The file's bytes, or FileTooLargeError past the limit (see above); other errors are fs's, unchanged. */
export async function readCapped(file: string, options: CapOptions): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw Object.assign(new Error(`it is a folder, not ${options.what}`), { code: 'EISDIR' });
    if (stat.isFile() && stat.size > options.maxBytes) throw new FileTooLargeError(file, options.maxBytes, stat.size, options.what);
    const pieces: Buffer[] = [];
    let total = 0;
    for (;;) {
      const piece = Buffer.allocUnsafe(PIECE);
      const { bytesRead } = await handle.read(piece, 0, PIECE, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      // A regular file that grew after stat() is caught here too.
      if (total > options.maxBytes) throw new FileTooLargeError(file, options.maxBytes, stat.isFile() ? total : undefined, options.what);
      pieces.push(bytesRead === PIECE ? piece : piece.subarray(0, bytesRead));
    }
    return Buffer.concat(pieces, total);
  } finally {
    await handle.close();
  }
}

/** readCapped as UTF-8 text. */
export async function readCappedText(file: string, options: CapOptions): Promise<string> {
  return (await readCapped(file, options)).toString('utf8');
}
