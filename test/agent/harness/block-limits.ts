/**
 * Time limits of the bash-session tests (shell-session, session-calls), tight so a block that
 * hangs fails its test fast. A hang is what a broken session most often does (a lost done line,
 * a lost end marker), and stryker counts a mutant's test run as timed out only after
 * 1.5 × the tests' time + its timeoutMS: ~45 s a mutant with these files at 60 s limits.
 *
 * Measured (2026-12-05): the slowest real block in these files takes 1.7 s at load ~3 (a warm
 * python3 and bash under bubblewrap), and the earlier sessions' bash blocks ran ~1 s each at
 * load 20-65. A block that has not ended in 10 s has hung: 5× the slowest seen.
 */
export const BLOCK_LIMIT_MS = 10_000;

/** A whole test: its blocks (at most 4 each in these files) well within their limits, or the first that hung at its limit. */
export const TEST_LIMIT_MS = 20_000;
