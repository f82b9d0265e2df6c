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

/**
 * Wrong tokens per peer address: each address may fail `burst` times at once, then
 * `perMinute` more a minute; past that every request from it is refused (429) without
 * looking at the token, so guessing is slowed to `perMinute` tries. At most
 * `maxAddresses` are remembered (the least recently failing go first), so a flood of
 * spoofed-looking peers cannot grow memory.
 */
export class TokenFailureLimiter {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly perMinute: number,
    private readonly burst: number,
    private readonly maxAddresses: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  blocked(address: string): boolean {
    const bucket = this.buckets.get(address);
    return bucket !== undefined && !bucket.has();
  }

  fail(address: string): void {
    let bucket = this.buckets.get(address);
    if (bucket) this.buckets.delete(address);
    else bucket = new TokenBucket(this.perMinute / 60, this.burst, this.now);
    // Re-inserted last: Map order is then "least recently failing first".
    this.buckets.set(address, bucket);
    bucket.take();
    while (this.buckets.size > this.maxAddresses) this.buckets.delete(this.buckets.keys().next().value!);
  }
}
