import { useEffect, useRef } from 'react';

/**
 * Single-key shortcuts for the whole window, ignored while the person types in a
 * field (so "a" in the feedback box is a letter, not "approve"). Escape always works.
 */
export type ShortcutMap = Record<string, (e: KeyboardEvent) => void>;

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}

export function keyName(e: KeyboardEvent): string {
  const mods = [e.ctrlKey || e.metaKey ? 'mod' : '', e.shiftKey && e.key.length > 1 ? 'shift' : '', e.altKey ? 'alt' : ''].filter(Boolean);
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  return [...mods, key].join('+');
}

export function useShortcuts(map: ShortcutMap, enabled = true): void {
  const ref = useRef(map);
  ref.current = map;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      const name = keyName(e);
      if (name !== 'Escape' && typingIn(e.target)) return;
      const fn = ref.current[name];
      if (fn) {
        e.preventDefault();
        fn(e);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
