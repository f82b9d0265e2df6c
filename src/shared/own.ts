/**
 * Names a person or a file chooses — a profile, a region of a QA plan, a label, a key
 * variable, a file extension — looked up in a plain object. `table[name]` also finds what
 * every object inherits: `defaultProfile: "constructor"` found Object's constructor
 * function as a profile and the run died on "reading 'baseUrlEnv'" (exit 7, issue 27
 * item 9). Such a lookup goes through here and finds own entries only.
 */

/** The entry `table` itself holds under `name`; never one inherited from Object.prototype ("constructor", "toString", "__proto__"). */
export function own<V>(table: Readonly<Record<string, V>>, name: string): V | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

/** An empty table for names from outside: no prototype, so an entry named "__proto__" is an entry like any other. */
export function nameTable<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}
