/**
 * Reads a secret from a person at a terminal (issue 28 item 6: a replay asks for a
 * password that was masked when recorded). Never echoed: the terminal is put in raw mode,
 * so its driver shows nothing typed, and this reader writes back only the question and a
 * newline — no character, no asterisk, no length. The answer is held in memory only; the
 * caller hands it to the run log's scrubber before any event can carry it.
 */

/** The longest secret kept (a passphrase, a key); typing past it ends the answer as cancelled rather than cutting a password silently. */
export const MAX_SECRET_CHARS = 4096;

/** A terminal's input: a stream that can be put in raw mode (process.stdin at a TTY). */
export interface RawInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?(mode: boolean): unknown;
}

const ENTER = new Set(['\r', '\n']);
const ERASE = new Set(['\u007f', '\b']);
/** Ctrl-C, Ctrl-D (on an empty answer), Escape: the person declines. */
const CANCEL = new Set(['\u0003', '\u001b']);
const END_OF_INPUT = '\u0004';

/** Can a secret be asked here without it showing? Only at a terminal whose echo this process can turn off. */
export function canAskHidden(input: RawInput, output: { isTTY?: boolean }): boolean {
  return input.isTTY === true && typeof input.setRawMode === 'function' && output.isTTY === true;
}

/**
 * Writes `question` to `output`, reads one line from `input` with echo off, and resolves
 * with it; null when the person cancels (Ctrl-C, Escape, Ctrl-D on an empty answer), the
 * input ends, or the answer passes MAX_SECRET_CHARS. The terminal's mode is restored and
 * the input paused whatever happens, so the next reader (the approval prompter) finds it as it was.
 */
export function readHidden(question: string, input: RawInput, output: NodeJS.WritableStream): Promise<string | null> {
  if (!canAskHidden(input, output as { isTTY?: boolean })) return Promise.reject(new Error('a secret is asked only at a terminal whose echo can be turned off'));
  const wasRaw = input.isRaw === true;
  return new Promise<string | null>((resolve) => {
    let answer: string[] = [];
    const done = (value: string | null) => {
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.removeListener('error', onEnd);
      input.setRawMode!(wasRaw);
      input.pause();
      output.write('\n');
      // The characters are dropped from this reader's memory; the string returned is the caller's.
      answer = [];
      resolve(value);
    };
    const onEnd = () => done(null);
    const onData = (chunk: Buffer | string) => {
      for (const char of typeof chunk === 'string' ? chunk : chunk.toString('utf8')) {
        if (ENTER.has(char)) return done(answer.join(''));
        if (CANCEL.has(char) || (char === END_OF_INPUT && answer.length === 0)) return done(null);
        if (ERASE.has(char)) answer.pop();
        else if (char >= ' ') answer.push(char);
        if (answer.length > MAX_SECRET_CHARS) return done(null);
      }
    };
    input.setRawMode!(true);
    input.on('data', onData);
    input.on('end', onEnd);
    input.on('error', onEnd);
    output.write(question);
    input.resume();
  });
}
