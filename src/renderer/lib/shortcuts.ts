import { useEffect, useRef } from 'react';

/**
 * Window shortcuts: a key printed on a button works wherever focus is (issue 34 item 1),
 * behind ONE guard (`shortcutAllowed`) and ONE dispatcher (the innermost layer wins).
 *
 *  1. Enter, Space and Tab are never shortcuts: they belong to the focused control
 *     (Enter on a focused Reject opens the rejection; it never approves — issue 13).
 *     Every other shortcut works with focus on a button, link, checkbox, tab or the
 *     screenshot: after clicking Pause with the mouse, P resumes and X stops.
 *  2. In a text field (`isTextEntry`: text inputs, textarea, select, contenteditable)
 *     letters are text, so only Escape is a shortcut there — Esc stops a run even while
 *     typing. Everything else is left to the field.
 *  3. A held key's auto-repeat never runs a shortcut (holding A must not approve every
 *     item of the queue), nor does IME composition or a key a control already handled.
 *
 * Layers: a key can mean something closer to hand than its window meaning. Escape on an
 * open edit or rejection closes it (`card`) before it stops the run (`window`): while
 * one is open the run waits on that card, so nothing moves, and the next Esc stops.
 * The mistake in that order costs a keypress; the other order would end a run the
 * person only meant to cancel an edit of.
 */
export type ShortcutMap = Partial<Record<string, (e: KeyboardEvent) => void>>;
export type ShortcutLayer = 'window' | 'card';
const LAYER_RANK: Record<ShortcutLayer, number> = { window: 0, card: 1 };

/** Input types whose letters are not text (a checkbox, a button…): shortcuts work on them. */
const NON_TEXT_INPUTS = new Set(['button', 'checkbox', 'color', 'file', 'image', 'radio', 'range', 'reset', 'submit', 'hidden']);
const TEXT_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);

/** Whether `el` (or the control it sits in) takes typed characters: a text field, a select (type-ahead), an editor. */
export function isTextEntry(el: Element | null): boolean {
  if (!el) return false;
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  if (el instanceof HTMLInputElement) return !NON_TEXT_INPUTS.has(el.type);
  // isContentEditable covers inherited editing in a browser; the attribute test, pages without layout (jsdom).
  if ((el instanceof HTMLElement && el.isContentEditable) || el.closest('[contenteditable]:not([contenteditable="false"])')) return true;
  const role = el.getAttribute('role');
  return role !== null && TEXT_ROLES.has(role);
}

/** The text field that keeps letter shortcuts off for this key press, if any (the event's target, else the focused element). */
export function textEntryOf(target: EventTarget | null, active: Element | null = typeof document === 'undefined' ? null : document.activeElement): Element | null {
  for (const candidate of [target, active]) {
    if (candidate instanceof Element && isTextEntry(candidate)) return candidate;
  }
  return null;
}

/** Digits and letters with Alt are read from the physical key: Alt+1 on a Mac is "¡", on AZERTY the key is "&". */
function altKeyOf(e: KeyboardEvent): string {
  const m = /^(?:Digit|Key)([0-9A-Z])$/.exec(e.code ?? '');
  return m ? m[1]!.toLowerCase() : e.key.length === 1 ? e.key.toLowerCase() : e.key;
}

export function keyName(e: KeyboardEvent): string {
  const mods = [e.ctrlKey || e.metaKey ? 'mod' : '', e.shiftKey && e.key.length > 1 ? 'shift' : '', e.altKey ? 'alt' : ''].filter(Boolean);
  const key = e.altKey ? altKeyOf(e) : e.key === ' ' ? 'Space' : e.key.length === 1 ? e.key.toLowerCase() : e.key;
  return [...mods, key].join('+');
}

/** Keys that belong to the focused control (or to nobody) and are never window shortcuts. */
const NEVER_SHORTCUTS = new Set(['Enter', 'Space', 'Tab', 'shift+Tab']);
/** The one key that is a shortcut inside a text field too. */
const TEXT_FIELD_SHORTCUTS = new Set(['Escape']);

/** Whether a keydown may run a window shortcut at all (the one guard, rules 1–3 above). */
export function shortcutAllowed(e: KeyboardEvent, name = keyName(e)): boolean {
  if (e.defaultPrevented || e.isComposing || e.repeat) return false;
  if (NEVER_SHORTCUTS.has(name)) return false;
  if (TEXT_FIELD_SHORTCUTS.has(name)) return true;
  return textEntryOf(e.target) === null;
}

interface Registration {
  layer: ShortcutLayer;
  /** Registration order: among equal layers the newest (innermost mounted) wins. */
  order: number;
  map: { current: ShortcutMap };
}

const registrations = new Set<Registration>();
let nextOrder = 0;

/** Handles one keydown for every mounted map: the highest layer that has the key runs it, alone. */
function dispatch(e: KeyboardEvent): void {
  const name = keyName(e);
  if (!shortcutAllowed(e, name)) return;
  const ranked = [...registrations].sort((a, b) => LAYER_RANK[b.layer] - LAYER_RANK[a.layer] || b.order - a.order);
  for (const r of ranked) {
    const fn = r.map.current[name];
    if (!fn) continue;
    e.preventDefault();
    fn(e);
    return;
  }
}

/**
 * Registers window shortcuts while the component is mounted. A key present in the map
 * is taken (and its default prevented) even if a lower layer has it too; leave a key
 * out of the map when it means nothing right now, so the layer below can have it.
 */
export function useShortcuts(map: ShortcutMap, layer: ShortcutLayer = 'window'): void {
  for (const name of Object.keys(map)) {
    if (NEVER_SHORTCUTS.has(name)) throw new Error(`"${name}" cannot be a window shortcut: it belongs to the focused control`);
  }
  const ref = useRef(map);
  ref.current = map;
  useEffect(() => {
    const r: Registration = { layer, order: nextOrder++, map: ref };
    if (registrations.size === 0) window.addEventListener('keydown', dispatch);
    registrations.add(r);
    return () => {
      registrations.delete(r);
      if (registrations.size === 0) window.removeEventListener('keydown', dispatch);
    };
  }, [layer]);
}
