/**
 * The end of every switch over a closed union (action kinds, event types): a value
 * that reaches it has a type the switch does not handle, so adding a member to the
 * union makes `tsc` name every switch that must learn it. Throws if reached at run
 * time (data from outside the types, e.g. an old log).
 */
export function assertNever(value: never, what = 'value'): never {
  const shown = typeof value === 'object' && value !== null && 'type' in value ? (value as { type: unknown }).type : value;
  throw new Error(`unhandled ${what}: ${JSON.stringify(shown)}`);
}
