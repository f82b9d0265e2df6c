import path from 'node:path';
import type { CommandSpec } from './schema.js';

/**
 * How OSWorld's VM server runs a command (desktop_env/server/main.py, /execute and
 * /setup/launch): a string without `shell` is split the way Python's shlex.split splits it;
 * each argument starting with "~/" is expanded to the home folder; with `shell` a string is
 * one `sh -c` script (a list with `shell` runs its first element as the script, the rest as
 * the shell's $0, $1…, as subprocess does). One function, used by the runner for setup
 * steps and by the vm_command_line getter, so both read a command the same way.
 */
export type VmCommand = { shell: true; script: string; args: string[] } | { shell: false; argv: string[] };

export class CommandSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandSyntaxError';
  }
}

export function vmCommand(command: CommandSpec, shell: boolean | undefined, home: string): VmCommand {
  if (shell) {
    if (typeof command === 'string') return { shell: true, script: command, args: [] };
    const [script = '', ...args] = command;
    return { shell: true, script, args };
  }
  const argv = typeof command === 'string' ? shlexSplit(command) : [...command];
  if (argv.length === 0) throw new CommandSyntaxError('the command is empty');
  return { shell: false, argv: argv.map((arg) => (arg.startsWith('~/') ? path.join(home, arg.slice(2)) : arg)) };
}

/**
 * Python's shlex.split (POSIX mode, comments off): whitespace separates words; '…' keeps
 * everything; "…" keeps everything but lets a backslash escape " \ $ ` and newline;
 * outside quotes a backslash escapes any character. An open quote is an error, as there.
 */
export function shlexSplit(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && i + 1 < text.length && '"\\$`\n'.includes(text[i + 1]!)) word += text[++i]!;
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\') {
      if (i + 1 >= text.length) throw new CommandSyntaxError('no escaped character after the last backslash');
      word += text[++i]!;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote) throw new CommandSyntaxError('no closing quotation');
  if (inWord) words.push(word);
  return words;
}

/**
 * A path of "the VM" on the task's desktop. OSWorld's VM user is `user`: its home
 * /home/user, "~" and relative paths (its server's working folder is the home) all mean
 * the desktop's own HOME here. Anything else is taken as it is.
 */
export function vmPath(file: string, home: string): string {
  if (file === '~' || file === '/home/user') return home;
  if (file.startsWith('~/')) return path.join(home, file.slice(2));
  if (file.startsWith('/home/user/')) return path.join(home, file.slice('/home/user/'.length));
  if (!path.isAbsolute(file)) return path.join(home, file);
  return file;
}
