import readline from 'node:readline';

/**
 * Asks questions on the terminal one at a time and reads the answers line by line
 * from stdin (a TTY or a pipe). When stdin ends, every question gets `null`.
 */
export class LinePrompter {
  private readonly lines: string[] = [];
  private readonly waiting: Array<(line: string | null) => void> = [];
  private ended = false;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly rl: readline.Interface;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stderr,
  ) {
    this.rl = readline.createInterface({ input: this.input, terminal: false });
    this.rl.on('line', (line) => {
      const next = this.waiting.shift();
      if (next) next(line);
      else this.lines.push(line);
    });
    this.rl.on('close', () => {
      this.ended = true;
      for (const next of this.waiting.splice(0)) next(null);
    });
  }

  /** Writes the question, resolves with the next line (trimmed), or null when stdin is closed. */
  ask(question: string): Promise<string | null> {
    const run = async () => {
      this.output.write(question);
      const line = await this.nextLine();
      return line === null ? null : line.trim();
    };
    const result = this.chain.then(run, run);
    this.chain = result.catch(() => undefined);
    return result;
  }

  private nextLine(): Promise<string | null> {
    const buffered = this.lines.shift();
    if (buffered !== undefined) return Promise.resolve(buffered);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  close(): void {
    this.rl.close();
  }
}
