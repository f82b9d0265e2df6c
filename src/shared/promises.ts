/**
 * Two ways of waiting on a promise, each written once (dependency-free, like abort.ts).
 */

/** `work`, or a rejection naming `what` once `ms` have passed; the timer never outlives the race. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `work` started now and looked at later: its outcome kept as a PromiseSettledResult, so
 * a failure is never an unhandled rejection while nobody awaits it yet.
 */
export function settled<T>(work: Promise<T>): Promise<PromiseSettledResult<T>> {
  return work.then(
    (value): PromiseFulfilledResult<T> => ({ status: 'fulfilled', value }),
    (reason: unknown): PromiseRejectedResult => ({ status: 'rejected', reason }),
  );
}
