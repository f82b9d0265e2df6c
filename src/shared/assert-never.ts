/** Exhaustive switches: a new kind added to a union makes the call site a type error instead of a silent default. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
