/** A token bucket: `burst` messages at once, refilled at `perSecond`. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  take(): boolean {
    if (!this.has()) return false;
    this.tokens -= 1;
    return true;
  }

  /** True when a message may pass now (refills, takes nothing). */
  has(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    return this.tokens >= 1;
  }
}

/** What becomes of one wrong token: answered after `holdMs`, or refused at once (429) when the address already has a full minute of held answers. */
export type WrongTokenAnswer = { holdMs: number } | 'refuse';

/**
 * Wrong tokens per peer address. The first `burst` are answered at once; after that the
 * address's wrong answers are released one each 60/`perMinute` s, in turn (a guesser that
 * waits for its answers gets `perMinute` tries a minute), and when `maxHoldMs` of answers
 * are already waiting, a further wrong token is refused at once (429) so held sockets
 * stay few. Only wrong tokens come here: the right token is admitted at once whatever its
 * address did before (issue 27: 20 wrong tokens from 127.0.0.1 used to refuse the person
 * their own page for a minute). At most `maxAddresses` are remembered (the least recently
 * failing go first), so a flood of spoofed-looking peers cannot grow memory.
 */
export class TokenFailureLimiter {
  /**
   * Per address, the time its schedule has reached (a generic cell rate algorithm): each wrong
   * answer moves it one interval on, and an answer goes when it is at most `burst - 1`
   * intervals ahead of the clock, so the first `burst` go at once and the rest one interval apart.
   */
  private readonly schedules = new Map<string, number>();

  constructor(
    private readonly perMinute: number,
    private readonly burst: number,
    private readonly maxAddresses: number,
    private readonly now: () => number = () => performance.now(),
    private readonly maxHoldMs = 60_000,
  ) {}

  fail(address: string): WrongTokenAnswer {
    const t = this.now();
    const interval = 60_000 / this.perMinute;
    const reached = Math.max(t, this.schedules.get(address) ?? t);
    // Re-inserted last: Map order is then "least recently failing first".
    this.schedules.delete(address);
    this.schedules.set(address, reached);
    while (this.schedules.size > this.maxAddresses) this.schedules.delete(this.schedules.keys().next().value!);
    const holdMs = Math.max(0, reached - (this.burst - 1) * interval - t);
    // Refused once this answer would be the one to fill the minute: held answers stay under
    // `maxHoldMs` of waiting, and a clock that moved on by a few ms does not change the count.
    if (holdMs > this.maxHoldMs - interval) return 'refuse';
    this.schedules.set(address, reached + interval);
    return { holdMs };
  }
}
