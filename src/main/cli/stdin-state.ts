import { fstatSync } from 'node:fs';
import { isatty } from 'node:tty';

/**
 * Why nobody can answer a question on stdin, or undefined when someone may: a
 * terminal, a pipe, or a file with lines in it. Checked before a run in an asking
 * policy starts, so `deskpilot run "…" < /dev/null` refuses instead of rejecting
 * every action "by person: cli". A pipe that is already at its end is found by the
 * prompter (LinePrompter.exhausted) once it has read from it.
 */
export function whyNoOneCanAnswer(fd = 0): string | undefined {
  let stat;
  try {
    stat = fstatSync(fd);
  } catch {
    return 'stdin is closed';
  }
  if (isatty(fd)) return undefined;
  // /dev/null, /dev/zero …: a device that is not a terminal gives no answers.
  if (stat.isCharacterDevice()) return 'stdin is not a terminal (it is /dev/null or another device)';
  if (stat.isFile() && stat.size === 0) return 'stdin is an empty file';
  if (stat.isDirectory()) return 'stdin is a directory';
  return undefined;
}
