/**
 * The one cut of a command's or a code block's output to a budget: the shell tool (in
 * the run's sandbox session, a one-off bubblewrap or none) and the Python, bash and
 * JavaScript sessions of the code harness all keep their output here, so the note the
 * model reads counts every character left out, wherever it was left out: while the
 * output streamed in, or in the sandbox supervisor before it reached DeskPilot. Each
 * place once wrote its own note on its own partial cut, and the last note counted only
 * the last cut: `seq 1 100000` at a 2,000 budget was said to have lost 2,032 characters
 * where 586,895 were (issue 31).
 */

/** Keeps the first and last halves of an over-long text with one note between them; `dropped`: characters already left out of its middle. */
export function cutMiddle(text: string, max: number, dropped = 0): { text: string; truncated: boolean } {
  if (text.length <= max && dropped === 0) return { text, truncated: false };
  const half = Math.min(Math.floor(max / 2), Math.floor(text.length / 2));
  const cut = text.length - 2 * half + dropped;
  return { text: `${text.slice(0, half)}\n[... ${cut} characters cut ...]\n${text.slice(text.length - half)}`, truncated: true };
}

/**
 * Output as it arrives, held in at most four budgets: past that its middle is left out
 * (the head and tail of one budget each are kept, the rest counted), since the final cut
 * keeps only half a budget from each end anyway. A flood of gigabytes costs 4 budgets.
 */
export class OutputBudget {
  private held = '';
  private dropped = 0;

  constructor(private readonly max: number) {}

  /** Text as it arrives, in order. */
  add(text: string): void {
    this.held += text;
    if (this.held.length > 4 * this.max) {
      this.dropped += this.held.length - 2 * this.max;
      this.held = this.held.slice(0, this.max) + this.held.slice(this.held.length - this.max);
    }
  }

  /** Characters left out of the middle before they reached us (the sandbox supervisor's own cap). */
  addDropped(count: number): void {
    this.dropped += count;
  }

  /** What is held, uncut and without a note: read for a sandbox refusal's signs, which the cut middle may hold. */
  get text(): string {
    return this.held;
  }

  /** The output for the model: cut to the budget, with one note counting everything left out. */
  cut(): { text: string; truncated: boolean } {
    return cutMiddle(this.held, this.max, this.dropped);
  }
}
