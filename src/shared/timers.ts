/**
 * The longest delay a timer can wait: Node (like browsers) stores it in a signed
 * 32-bit int; a longer one fires after 1 ms with a TimeoutOverflowWarning. Every
 * user-given duration that reaches setTimeout (limits.maxWallMs, plan timeouts) is
 * validated against this, with a message that says why.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export const MAX_TIMER_MESSAGE = `at most ${MAX_TIMER_MS} ms (about 24.8 days), the longest a timer can wait`;
