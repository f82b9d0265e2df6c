/**
 * The stable path of an element: the chain from its application down, each step the
 * element's role, its name and — only when earlier siblings share both — which of them
 * it is (0-based, counted among siblings with the same role and name):
 *
 *   application "gnome-calculator" > frame "Calculator" > panel "" > push button "5"
 *   application "mousepad" > frame "Untitled 1" > … > push button "Close"[1]
 *
 * Counting only same-role, same-name siblings keeps a path valid when other siblings
 * come and go (a new toolbar button does not shift the "Save" button's path). A path
 * breaks when an element on the chain is renamed (a label that shows live text): such
 * names are the app's, and the lookup then says where the match stopped.
 *
 * Names are written as JSON strings, so any character (quotes, " > ", newlines) round-trips.
 */

export interface PathStep {
  role: string;
  name: string;
  /** Among siblings with the same role and name; 0 for the first. */
  index: number;
}

export class ElementPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ElementPathError';
  }
}

/** Longest path text accepted (an element 64 levels deep with long names fits). */
export const MAX_PATH_TEXT = 20_000;

export function formatStep(step: PathStep): string {
  return `${step.role} ${JSON.stringify(step.name)}${step.index > 0 ? `[${step.index}]` : ''}`;
}

export function formatPath(steps: readonly PathStep[]): string {
  return steps.map(formatStep).join(' > ');
}

/** Appends one step to a formatted path (the walkers build paths level by level). */
export function childPath(parent: string, step: PathStep): string {
  return parent ? `${parent} > ${formatStep(step)}` : formatStep(step);
}

/** The inverse of formatPath. Throws ElementPathError with the position of the first problem. */
export function parsePath(text: string): PathStep[] {
  if (text.length > MAX_PATH_TEXT) throw new ElementPathError(`path is ${text.length} characters long (at most ${MAX_PATH_TEXT})`);
  const steps: PathStep[] = [];
  let i = 0;
  const fail = (what: string): never => {
    throw new ElementPathError(`${what} at character ${i} of the path: ${JSON.stringify(text.slice(Math.max(0, i - 20), i + 20))}`);
  };
  while (i < text.length) {
    const quote = text.indexOf('"', i);
    if (quote < 0) fail('expected role "name"');
    const role = text.slice(i, quote).trim();
    if (!role || !/^[a-z][a-z0-9 _-]*$/i.test(role)) fail('expected a role (letters, digits, spaces)');
    // The name: a JSON string. Find its closing quote (skipping escaped characters).
    let end = quote + 1;
    while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
    if (end >= text.length) {
      i = quote;
      fail('unterminated name');
    }
    let name: string;
    try {
      name = JSON.parse(text.slice(quote, end + 1)) as string;
    } catch {
      i = quote;
      return fail('invalid name (a JSON string)');
    }
    i = end + 1;
    let index = 0;
    const idx = /^\[(\d{1,6})\]/.exec(text.slice(i));
    if (idx) {
      index = Number(idx[1]);
      i += idx[0].length;
    }
    steps.push({ role, name, index });
    if (i === text.length) break;
    if (text.slice(i, i + 3) !== ' > ') fail('expected " > " between steps');
    i += 3;
  }
  if (steps.length === 0) throw new ElementPathError('the path is empty');
  return steps;
}

/**
 * Numbers siblings: for each child (in order), its step with the index among earlier
 * siblings of the same role and name. One function for every adapter and the lookup.
 */
export function siblingSteps(children: ReadonlyArray<{ role: string; name: string }>): PathStep[] {
  const seen = new Map<string, number>();
  return children.map(({ role, name }) => {
    const key = `${role}\u0000${name}`;
    const index = seen.get(key) ?? 0;
    seen.set(key, index + 1);
    return { role, name, index };
  });
}
