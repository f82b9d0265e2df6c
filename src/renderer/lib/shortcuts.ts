import { useEffect, useRef } from 'react';

/**
 * Single-key shortcuts for the whole window, behind ONE guard (`shortcutBlockedBy`):
 *
 *  1. While a control has focus — a button, link, input, select, textarea, summary,
 *     contenteditable, anything with an interactive ARIA role or a tabindex — no
 *     shortcut runs, whatever the key. Enter and Space activate the focused control and
 *     letters go to it; a window-wide "Enter = approve" must never fire because the
 *     person tabbed to Reject or Stop (issue 13 item 1). Escape is the one exception:
 *     it only ever cancels (an edit, a rejection, a past-run view).
 *  2. A held key's auto-repeat never runs a shortcut: holding A must not approve every
 *     item in the queue one after another.
 *  3. IME composition and events a control already handled (defaultPrevented) are left alone.
 *
 * Enter and Space are never shortcuts by themselves (`useShortcuts` refuses them), so
 * with nothing focused they do nothing.
 */
export type ShortcutMap = Record<string, (e: KeyboardEvent) => void>;

/** Elements that take keys themselves when focused. */
const CONTROL_SELECTOR = [
  'button',
  'a[href]',
  'input',
  'select',
  'textarea',
  'summary',
  'iframe',
  '[contenteditable]:not([contenteditable="false"])',
  '[tabindex]',
  '[role="button"]',
  '[role="link"]',
  '[role="checkbox"]',
  '[role="radio"]',
  '[role="switch"]',
  '[role="tab"]',
  '[role="menuitem"]',
  '[role="option"]',
  '[role="textbox"]',
  '[role="combobox"]',
  '[role="slider"]',
  '[role="spinbutton"]',
].join(',');

/** The focused control (or the event's target inside one) that keeps shortcuts off, if any. */
export function shortcutBlockedBy(target: EventTarget | null, active: Element | null = typeof document === 'undefined' ? null : document.activeElement): Element | null {
  for (const candidate of [target, active]) {
    if (!(candidate instanceof Element)) continue;
    if (candidate === document.body || candidate === document.documentElement) continue;
    const control = candidate.closest(CONTROL_SELECTOR);
    if (control) return control;
    if (candidate instanceof HTMLElement && candidate.isContentEditable) return candidate;
  }
  return null;
}

export function keyName(e: KeyboardEvent): string {
  const mods = [e.ctrlKey || e.metaKey ? 'mod' : '', e.shiftKey && e.key.length > 1 ? 'shift' : '', e.altKey ? 'alt' : ''].filter(Boolean);
  const key = e.key === ' ' ? 'Space' : e.key.length === 1 ? e.key.toLowerCase() : e.key;
  return [...mods, key].join('+');
}

/** Keys that belong to the focused control (or to nobody) and are never window shortcuts. */
const NEVER_SHORTCUTS = new Set(['Enter', 'Space', 'Tab', 'shift+Tab']);

/** Whether a keydown may run a window shortcut at all (the one guard, rules 1–3 above). */
export function shortcutAllowed(e: KeyboardEvent, name = keyName(e)): boolean {
  if (e.defaultPrevented || e.isComposing || e.repeat) return false;
  if (NEVER_SHORTCUTS.has(name)) return false;
  if (name === 'Escape') return true;
  return shortcutBlockedBy(e.target) === null;
}

export function useShortcuts(map: ShortcutMap, enabled = true): void {
  for (const name of Object.keys(map)) {
    if (NEVER_SHORTCUTS.has(name)) throw new Error(`"${name}" cannot be a window shortcut: it belongs to the focused control`);
  }
  const ref = useRef(map);
  ref.current = map;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      const name = keyName(e);
      if (!shortcutAllowed(e, name)) return;
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
