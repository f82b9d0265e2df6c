/**
 * Which key strokes type a character on this keyboard layout.
 *
 * On X11 the layout is read from the server (`xmodmap -pke`): a character is typeable
 * when its keysym sits on level 1 (plain) or level 2 (with Shift) of some keycode, and
 * the plain keysym of that keycode is a key nut.js can press. Elsewhere a US layout is
 * assumed. Characters without a stroke are pasted instead (see typing.ts).
 */
import { run } from './exec.js';
import { resolveKey, US_SHIFTED, type KeySpec } from './keys.js';

export interface Stroke {
  key: KeySpec;
  shift: boolean;
}

export interface CharMap {
  strokeFor(ch: string): Stroke | undefined;
}

const RETURN = resolveKey('Return');
const TAB = resolveKey('Tab');

function control(ch: string): Stroke | undefined {
  if (ch === '\n') return { key: RETURN, shift: false };
  if (ch === '\t') return { key: TAB, shift: false };
  return undefined;
}

/** A pressable key for a keysym name, if nut.js can press it in-process. */
function pressable(keysym: string): KeySpec | undefined {
  try {
    const spec = resolveKey(keysym);
    return spec.nut && !spec.modifier && spec.name === (keysym.length === 1 ? keysym.toLowerCase() : spec.name) ? spec : undefined;
  } catch {
    return undefined;
  }
}

/** The X keysym name of a printable ASCII character ("a", "A", "parenright"). */
function keysymOf(ch: string): string | undefined {
  if (/^[A-Za-z]$/.test(ch)) return ch;
  if (ch.length !== 1 || ch < ' ' || ch > '~') return undefined;
  try {
    return resolveKey(ch).name;
  } catch {
    return undefined;
  }
}

export function usCharMap(): CharMap {
  return {
    strokeFor(ch) {
      const c = control(ch);
      if (c) return c;
      if (/^[A-Z]$/.test(ch)) return { key: resolveKey(ch.toLowerCase()), shift: true };
      const base = US_SHIFTED[ch];
      if (base !== undefined) return { key: resolveKey(base), shift: true };
      const sym = keysymOf(ch);
      const key = sym ? pressable(sym) : undefined;
      return key ? { key, shift: false } : undefined;
    },
  };
}

/** Parses `xmodmap -pke` into a char → stroke map for printable ASCII. */
export function charMapFromXmodmap(text: string): CharMap {
  // keysym → the pressable plain keysym of the first keycode that has it (on level 1 or 2).
  const plain = new Map<string, KeySpec>();
  const shifted = new Map<string, KeySpec>();
  for (const line of text.split('\n')) {
    const m = /^keycode\s+\d+\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    const [l1, l2] = m[1]!.trim().split(/\s+/).filter(Boolean);
    if (!l1 || l1 === 'NoSymbol') continue;
    // Only keycodes nut.js can press are useful (the ISO key 94 also carries "less").
    const base = pressable(l1);
    if (!base) continue;
    if (!plain.has(l1)) plain.set(l1, base);
    if (l2 && l2 !== 'NoSymbol' && !shifted.has(l2)) shifted.set(l2, base);
  }
  const cache = new Map<string, Stroke | undefined>();
  return {
    strokeFor(ch) {
      const c = control(ch);
      if (c) return c;
      if (cache.has(ch)) return cache.get(ch);
      let stroke: Stroke | undefined;
      const sym = keysymOf(ch);
      if (sym) {
        const p = plain.get(sym);
        const sh = shifted.get(sym);
        if (p) stroke = { key: p, shift: false };
        else if (sh) stroke = { key: sh, shift: true };
      }
      cache.set(ch, stroke);
      return stroke;
    },
  };
}

let loaded: Promise<CharMap> | undefined;

export function loadCharMap(): Promise<CharMap> {
  loaded ??= (async () => {
    if (process.platform !== 'linux') return usCharMap();
    try {
      const { stdout } = await run('xmodmap', ['-pke'], { timeoutMs: 5_000 });
      return charMapFromXmodmap(stdout);
    } catch {
      return usCharMap();
    }
  })();
  return loaded;
}
