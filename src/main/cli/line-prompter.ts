/**
 * Asks questions on the terminal one at a time and reads the answers one line per
 * question from stdin (a TTY or a pipe).
 *
 * Hostile-input limits, as one typed object: `yes n | deskpilot run …` offers an endless
 * stream of lines; the old reader (readline) queued every one of them while the run was
 * busy and V8 died with "invalid size". This reader holds at most one chunk of input
 * (the stream is paused while a line waits for its question) and cuts a line at
 * `maxLineBytes`, so memory stays bounded whatever is piped in.
 */
export const LINE_LIMITS = {
  /** Longest answer kept (a feedback sentence, an edited text to type); the rest of that line is dropped. */
  maxLineBytes: 8 * 1024,
} as const;

/** One line read from stdin; `cut` when it was longer than the limit (its tail was dropped). */
export interface ReadLine {
  text: string;
  cut: boolean;
}

export class LinePrompter {
  private readonly ready: ReadLine[] = [];
  private readonly waiting: Array<(line: ReadLine | null) => void> = [];
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private dropping = false;
  private ended = false;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly onData = (chunk: Buffer | string) => this.take(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  private readonly onEnd = () => this.finish();

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stderr,
    private readonly limits: { maxLineBytes: number } = LINE_LIMITS,
  ) {
    input.on('data', this.onData);
    input.on('end', this.onEnd);
    input.on('close', this.onEnd);
    // A stdin that cannot be read (closed descriptor) is the same as one at its end.
    input.on('error', this.onEnd);
  }

  /** True once stdin has ended and every line read has been used: no one can answer any more. */
  get exhausted(): boolean {
    return this.ended && this.ready.length === 0;
  }

  /**
   * Writes the question, resolves with the next line (trimmed), or null when stdin has
   * ended. Questions are asked one after the other, never interleaved.
   */
  ask(question: string, options: { keepSpaces?: boolean } = {}): Promise<ReadLine | null> {
    return this.inTurn(async () => {
      this.output.write(question);
      const line = await this.nextLine();
      if (line === null) this.output.write('\n');
      // A line of code keeps its indentation (a block typed at the prompt, cli/block-edit.ts).
      return line === null ? null : { text: options.keepSpaces ? line.text : line.text.trim(), cut: line.cut };
    });
  }

  /**
   * Lends the terminal to another program (a person's editor) in this prompter's turn: stdin
   * is not read until `use` settles, so no keystroke meant for the editor is taken as an
   * answer. Reading goes on when a question waits again.
   */
  holdInput<T>(use: () => Promise<T>): Promise<T> {
    return this.inTurn(async () => {
      this.input.pause();
      return use();
    });
  }

  private inTurn<T>(run: () => Promise<T>): Promise<T> {
    const result = this.chain.then(run, run);
    this.chain = result.catch(() => undefined);
    return result;
  }

  private nextLine(): Promise<ReadLine | null> {
    const buffered = this.ready.shift();
    if (buffered !== undefined) {
      if (this.ready.length === 0 && !this.ended) this.input.resume();
      return Promise.resolve(buffered);
    }
    if (this.ended) return Promise.resolve(null);
    this.input.resume();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private take(chunk: Buffer): void {
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      if (chunk[i] !== 0x0a) continue;
      this.append(chunk.subarray(start, i));
      this.emitLine();
      start = i + 1;
    }
    this.append(chunk.subarray(start));
    // Lines wait here only until their question comes: stop reading until then.
    if (this.ready.length > 0) this.input.pause();
  }

  private append(bytes: Buffer): void {
    if (bytes.length === 0 || this.dropping) return;
    const room = this.limits.maxLineBytes - this.partialBytes;
    if (bytes.length > room) {
      this.partial.push(bytes.subarray(0, Math.max(0, room)));
      this.partialBytes = this.limits.maxLineBytes;
      this.dropping = true;
      return;
    }
    this.partial.push(bytes);
    this.partialBytes += bytes.length;
  }

  private emitLine(): void {
    const text = Buffer.concat(this.partial).toString('utf8').replace(/\r$/, '');
    const line: ReadLine = { text, cut: this.dropping };
    this.partial = [];
    this.partialBytes = 0;
    this.dropping = false;
    const next = this.waiting.shift();
    if (next) next(line);
    else this.ready.push(line);
  }

  private finish(): void {
    if (this.ended) return;
    // A last line without its newline still counts.
    if (this.partialBytes > 0 || this.dropping) this.emitLine();
    this.ended = true;
    for (const next of this.waiting.splice(0)) next(null);
  }

  close(): void {
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    this.input.off('error', this.onEnd);
    this.input.pause();
    // process.stdin keeps the event loop alive while it has a handle open.
    (this.input as NodeJS.ReadStream).unref?.();
  }
}
