import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A program that writes `text` to its stderr in two reads' worth: the UTF-8 bytes up to the
 * middle of the first non-ASCII character, then — once the reader has taken those (the
 * socket's send queue, TIOCOUTQ, is empty) — the rest, then exits with `code`. So the reader sees
 * a character split between two chunks every time, not when the scheduler happens to.
 */
export function splitWriterScript(dir: string, text: string, code: number): string {
  const bytes = Buffer.from(text, 'utf8');
  const firstWide = [...bytes].findIndex((b) => b >= 0x80);
  if (firstWide < 0) throw new Error('splitWriterScript needs a character outside ASCII');
  const file = path.join(dir, 'split-writer.py');
  writeFileSync(
    file,
    [
      'import fcntl, os, struct, sys, termios, time',
      `data = bytes.fromhex('${bytes.toString('hex')}')`,
      `cut = ${firstWide + 1}`,
      'os.write(2, data[:cut])',
      "# Node's child stdio is a Unix socket pair: TIOCOUTQ (SIOCOUTQ) is what the reader has not taken yet",
      "while struct.unpack('i', fcntl.ioctl(2, termios.TIOCOUTQ, b'\\0\\0\\0\\0'))[0] > 0:",
      '    time.sleep(0.001)',
      'os.write(2, data[cut:])',
      `sys.exit(${code})`,
      '',
    ].join('\n'),
  );
  return file;
}
