import type { Action } from '../../../shared/actions.js';
import type { ActionContext } from '../gate.js';
import { comboContains, comboToString, normaliseCombo, normaliseCombos, type NormalCombo } from './key-combo.js';
import { secretKind } from '../../../shared/secrets.js';
import { isTerminalWindow } from './terminal-apps.js';

/**
 * Risk rules: what makes an action risky, judged from the action itself and from
 * its context (the focused window), never from what the model says about it.
 * The first rule that fires names the decision ("risk:terminal-enter", …).
 */

export interface RiskFinding {
  rule: string;
  reason: string;
}

interface DangerousCombo {
  combo: NormalCombo;
  why: string;
}

const combo = (text: string, why: string): DangerousCombo => ({ combo: normaliseCombo(text), why });

/** Matched by containment: ctrl+shift+w is caught by ctrl+w. "super" is Cmd on macOS and Win on Windows. */
const DANGEROUS_COMBOS: DangerousCombo[] = [
  combo('alt+F4', 'closes the window'),
  combo('ctrl+q', 'quits the application'),
  combo('super+q', 'quits the application'),
  combo('ctrl+w', 'closes the tab or window'),
  combo('super+w', 'closes the tab or window'),
  combo('ctrl+F4', 'closes the tab or document'),
  combo('shift+Delete', 'deletes permanently, bypassing the trash'),
  combo('super+BackSpace', 'moves the selection to the trash'),
  combo('ctrl+alt+Delete', 'opens the system security screen'),
  combo('ctrl+alt+BackSpace', 'kills the X server'),
  combo('super+l', 'locks the screen'),
  combo('ctrl+alt+l', 'locks the screen'),
  combo('ctrl+super+q', 'locks the screen'),
  combo('super+alt+Escape', 'opens Force Quit'),
  combo('ctrl+shift+Escape', 'opens the task manager'),
  combo('alt+F2', 'opens a run-command dialog'),
  combo('super+r', 'opens a run-command dialog'),
  combo('super+shift+q', 'logs out'),
  combo('ctrl+alt+t', 'opens a terminal'),
  ...Array.from({ length: 12 }, (_, i) => combo(`ctrl+alt+F${i + 1}`, 'switches to a text console')),
];

/** Keys that submit a line in a terminal: Enter and its control-code twins. */
const SUBMIT_KEYS = [normaliseCombo('Return'), normaliseCombo('ctrl+m'), normaliseCombo('ctrl+j')];
/** Keys that paste into a terminal: a pasted line break runs whatever was on the clipboard. */
const PASTE_KEYS = [normaliseCombo('ctrl+shift+v'), normaliseCombo('shift+Insert'), normaliseCombo('super+v'), normaliseCombo('ctrl+v')];
/** Keys that end or interrupt what runs in a terminal. */
const TERMINAL_CONTROL_KEYS = [normaliseCombo('ctrl+d'), normaliseCombo('ctrl+c'), normaliseCombo('ctrl+z'), normaliseCombo('ctrl+backslash')];

function keysOf(action: Action): string | undefined {
  if (action.type === 'key' || action.type === 'hold_key') return action.keys;
  return undefined;
}

function windowName(context: ActionContext): string {
  const w = context.activeWindow;
  return w ? `"${w.app}"${w.title ? ` (${w.title})` : ''}` : 'the focused window';
}

function comboRisk(pressed: NormalCombo, inTerminal: boolean, context: ActionContext): RiskFinding | undefined {
  const danger = DANGEROUS_COMBOS.find((d) => comboContains(pressed, d.combo));
  if (danger) {
    return { rule: 'risk:destructive-combo', reason: `${comboToString(pressed)} ${danger.why}` };
  }
  if (inTerminal && SUBMIT_KEYS.some((s) => comboContains(pressed, s))) {
    return { rule: 'risk:terminal-enter', reason: `presses Enter in the terminal window ${windowName(context)}, which runs the command line` };
  }
  if (inTerminal && PASTE_KEYS.some((s) => comboContains(pressed, s))) {
    return { rule: 'risk:terminal-paste', reason: `pastes into the terminal window ${windowName(context)}` };
  }
  if (inTerminal && TERMINAL_CONTROL_KEYS.some((s) => comboContains(pressed, s))) {
    return { rule: 'risk:terminal-control', reason: `sends ${comboToString(pressed)} to the terminal window ${windowName(context)}` };
  }
  if (!context.activeWindow && SUBMIT_KEYS.some((s) => comboContains(pressed, s))) {
    // We cannot tell whether this is a terminal: Enter there runs a command.
    return { rule: 'risk:enter-unknown-window', reason: 'presses Enter while the focused window is unknown (it may be a terminal)' };
  }
  return undefined;
}

/** The first risk rule that fires for this action in this context, or undefined when none does. */
export function findRisk(action: Action, context: ActionContext): RiskFinding | undefined {
  if (action.type === 'shell') return { rule: 'risk:shell', reason: 'runs a shell command on this machine' };

  const inTerminal = isTerminalWindow(context.activeWindow);
  const keys = keysOf(action);
  // A key action may press several chords in a row ("Escape ctrl+q"): every one is judged.
  for (const pressed of keys !== undefined ? normaliseCombos(keys) : []) {
    const risk = comboRisk(pressed, inTerminal, context);
    if (risk) return risk;
  }

  if (inTerminal && (action.type === 'click' || action.type === 'mouse_down' || action.type === 'mouse_up') && action.button === 'middle') {
    return { rule: 'risk:terminal-paste', reason: `middle-clicks into the terminal window ${windowName(context)}, which pastes the selection` };
  }

  if (action.type === 'type') {
    const kind = secretKind(action.text);
    if (kind) return { rule: 'risk:secret-text', reason: `types text that looks like a secret or credential (${kind})` };
    if (inTerminal) return { rule: 'risk:terminal-type', reason: `types into the terminal window ${windowName(context)}` };
    if (!context.activeWindow && /[\r\n]/.test(action.text)) {
      return { rule: 'risk:enter-unknown-window', reason: 'types a line break while the focused window is unknown (it may be a terminal)' };
    }
  }
  return undefined;
}
