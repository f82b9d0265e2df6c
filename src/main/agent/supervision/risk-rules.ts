import type { Action } from '../../../shared/actions.js';
import type { ActionContext } from '../gate.js';
import { submitsLine } from './input-memory.js';
import { chordsPressedBy, comboContains, comboToString, normaliseCombo, sameCombo, type NormalCombo, type PressedChord } from './key-combo.js';
import { secretKind } from '../../../shared/secrets.js';
import { SECRET_TEXT_RULE, type RiskRuleId } from '../../../shared/rule-ids.js';
import { looksLikeShellCommand } from './shell-like.js';
import { isTerminalWindow } from './terminal-apps.js';

/**
 * Risk rules: what makes an action risky, judged from the action itself, from what
 * earlier actions left behind (keys held down, the line typed so far) and from the
 * focused window — never from what the model says about it. Keys are read by the one
 * parser the executor presses from. Order, first match wins:
 *   1. a shell command                                  → "risk:shell"
 *   1b. a call of an MCP server's tool: it acts outside
 *      this desktop (files, network, other programs)    → "risk:mcp-tool"
 *   2. a destructive chord (alt+F4, ctrl+q, …), held
 *      modifiers included (ctrl held + q = ctrl+q)       → "risk:destructive-combo"
 *   3. the OS key alone (super / Win / Cmd tapped or
 *      held): opens the launcher, where a name and
 *      Enter start any program                           → "risk:launcher-key"
 *   4. Enter after a typed line that reads like a shell
 *      command, in any window                            → "risk:command-enter"
 *   5. typed text whose completed line (ending in a
 *      line break) reads like a shell command            → "risk:typed-command"
 *   6. Enter in a terminal                              → "risk:terminal-enter"
 *   7. paste into a terminal (keys, a middle click or
 *      a drag with the middle button)                  → "risk:terminal-paste"
 *   8. ctrl+c / ctrl+d / ctrl+z / ctrl+\ in a terminal  → "risk:terminal-control"
 *   9. Enter or a typed line break, window unknown      → "risk:enter-unknown-window"
 *  10. typed text (or an element's set_value) that looks
 *      like a secret                                    → "risk:secret-text"
 *  11. typing (or set_value) into a terminal            → "risk:terminal-type"
 *  12. text into a password field (typing while one has
 *      the focus, or an element's set_value on one; the
 *      accessibility tree says which field is a password) → "risk:password-field"
 */

export interface RiskFinding {
  rule: RiskRuleId;
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
  combo('super+Return', 'opens a terminal in tiling window managers'),
  combo('XF86PowerOff', 'powers the machine off'),
  combo('XF86Sleep', 'suspends the machine'),
  combo('XF86LogOff', 'logs out'),
  ...Array.from({ length: 12 }, (_, i) => combo(`ctrl+alt+F${i + 1}`, 'switches to a text console')),
  // The keysyms those chords produce, and keys of their own, pressed by name: the key
  // parser reads them all, so each needs its row (XF86Switch_VT_1 is ctrl+alt+F1).
  ...Array.from({ length: 12 }, (_, i) => combo(`XF86Switch_VT_${i + 1}`, 'switches to a text console')),
  combo('Terminate_Server', 'kills the X server'),
  combo('XF86PowerDown', 'powers the machine off'),
  combo('XF86Suspend', 'suspends the machine'),
  combo('XF86Standby', 'suspends the machine'),
  combo('XF86Hibernate', 'hibernates the machine'),
  combo('XF86ScreenSaver', 'locks the screen'),
  combo('XF86Close', 'closes the window'),
  combo('XF86Terminal', 'opens a terminal'),
  // Xorg's grab breakers (ctrl+alt+KP_Divide / KP_Multiply when enabled): they can undo a screen locker.
  combo('XF86Ungrab', 'breaks the keyboard and pointer grabs, a screen locker\'s included'),
  combo('XF86ClearGrab', 'kills the programs that grab the keyboard or pointer, a screen locker included'),
  combo('ctrl+alt+KP_Divide', 'breaks the keyboard and pointer grabs, a screen locker\'s included'),
  combo('ctrl+alt+KP_Multiply', 'kills the programs that grab the keyboard or pointer, a screen locker included'),
];

/** Keys that paste into a terminal: a pasted line break runs whatever was on the clipboard. */
const PASTE_KEYS = [normaliseCombo('ctrl+shift+v'), normaliseCombo('shift+Insert'), normaliseCombo('super+v'), normaliseCombo('ctrl+v')];
/** Keys that end or interrupt what runs in a terminal. */
const TERMINAL_CONTROL_KEYS = [normaliseCombo('ctrl+d'), normaliseCombo('ctrl+c'), normaliseCombo('ctrl+z'), normaliseCombo('ctrl+backslash')];

/** The OS key tapped or held alone, no other modifier, no key. */
const OS_KEY_ALONE = normaliseCombo('super');

/** A chord as pressed, with what it means to the rules. */
interface Pressed extends PressedChord {
  submits: boolean;
}

/** Every chord the action presses (key-combo.ts chordsPressedBy), and whether it submits a line. */
function pressedChords(action: Action, context: ActionContext): Pressed[] {
  const heldKeys = context.held?.keys ?? [];
  return chordsPressedBy(action, heldKeys).map((p) => ({ ...p, submits: submitsLine(p.chord, heldKeys) }));
}

function windowName(context: ActionContext): string {
  const w = context.activeWindow;
  return w ? `"${w.app}"${w.title ? ` (${w.title})` : ''}` : 'the focused window';
}

function shown(text: string): string {
  const t = text.trim();
  return JSON.stringify(t.length > 80 ? `${t.slice(0, 77)}...` : t);
}

/** The typed line that a line break inside `text` completes, for each break (the text before it on its line). */
function completedLines(typedBefore: string, text: string): string[] {
  const parts = text.split(/\r\n|\r|\n/);
  // The first break completes the line typed before this text (which holds no break).
  parts[0] = typedBefore + parts[0];
  // The last part is still open (no break after it).
  return parts.slice(0, -1).slice(-50);
}

/** The first risk rule that fires for this action in this context, or undefined when none does. */
export function findRisk(action: Action, context: ActionContext): RiskFinding | undefined {
  // 1.
  if (action.type === 'shell') return { rule: 'risk:shell', reason: 'runs a shell command on this machine' };
  // 1b.
  if (action.type === 'mcp_call') return { rule: 'risk:mcp-tool', reason: `calls the tool ${action.tool} of the MCP server ${action.server}, which acts outside this desktop` };

  const inTerminal = isTerminalWindow(context.activeWindow);
  const pressed = pressedChords(action, context);
  const heldNote = context.held?.keys.length ? ` (with ${context.held.keys.join('+')} held)` : '';

  // 2.
  for (const p of pressed) {
    // The most specific row the chord contains names what it does: ctrl+alt+F4 contains
    // alt+F4 ("closes the window") but switches to a text console.
    const danger = DANGEROUS_COMBOS.filter((d) => comboContains(p.combo, d.combo)).sort((x, y) => y.combo.modifiers.length - x.combo.modifiers.length)[0];
    if (danger) return { rule: 'risk:destructive-combo', reason: `${comboToString(p.combo)}${heldNote} ${danger.why}` };
  }
  // 3.
  for (const p of pressed) {
    if (sameCombo(p.combo, OS_KEY_ALONE)) {
      return { rule: 'risk:launcher-key', reason: 'presses the OS key (super / Win / Cmd) alone, which opens the launcher: a name and Enter typed there start any program' };
    }
  }
  // 4. Enter after a shell-like line, in whatever window (an editor's terminal, a Run dialog, a web shell).
  const line = context.typedLine ?? '';
  if (pressed.some((p) => p.submits) && looksLikeShellCommand(line)) {
    return { rule: 'risk:command-enter', reason: `presses Enter after typing ${shown(line)}, which reads like a shell command, into ${windowName(context)}` };
  }
  // 5. A typed line break submits the line typed before it.
  if (action.type === 'type') {
    const command = completedLines(line, action.text).find((l) => looksLikeShellCommand(l));
    if (command !== undefined) {
      return { rule: 'risk:typed-command', reason: `types ${shown(command)}, which reads like a shell command, followed by a line break into ${windowName(context)}` };
    }
  }
  for (const p of pressed) {
    // 6.
    if (inTerminal && p.submits) {
      return { rule: 'risk:terminal-enter', reason: `presses Enter in the terminal window ${windowName(context)}, which runs the command line` };
    }
    // 7.
    if (inTerminal && PASTE_KEYS.some((s) => comboContains(p.combo, s))) {
      return { rule: 'risk:terminal-paste', reason: `pastes into the terminal window ${windowName(context)}` };
    }
    // 8.
    if (inTerminal && TERMINAL_CONTROL_KEYS.some((s) => comboContains(p.combo, s))) {
      return { rule: 'risk:terminal-control', reason: `sends ${comboToString(p.combo)} to the terminal window ${windowName(context)}` };
    }
    // 9.
    if (!context.activeWindow && p.submits) {
      return { rule: 'risk:enter-unknown-window', reason: 'presses Enter while the focused window is unknown (it may be a terminal)' };
    }
  }
  // 7. (the mouse) The middle button pastes the selection: a middle click, its press or
  // release, a drag with it (pressed at the start, released at the end). Read from any
  // action that has a button, so that a kind added later is judged too.
  const button = 'button' in action ? action.button : undefined;
  if (inTerminal && button === 'middle') {
    const what = action.type === 'drag' ? 'drags with the middle button' : 'middle-clicks';
    return { rule: 'risk:terminal-paste', reason: `${what} into the terminal window ${windowName(context)}, which pastes the selection` };
  }
  // An element's set_value puts text in like typing, but replaces the field's text and
  // presses no key: rules 10, 11 and 12 judge it; 5 and 9 (line breaks that submit) do not.
  // (Only an element action has an op and a value; one with another op that carries a
  // value puts no text anywhere.)
  const op = 'op' in action ? action.op : undefined;
  const setValue = 'op' in action && action.op === 'set_value' ? action.value : undefined;
  if (setValue !== undefined) {
    const kind = secretKind(setValue);
    if (kind) return { rule: SECRET_TEXT_RULE, reason: `sets a field to text that looks like a secret or credential (${kind})` };
    if (inTerminal) return { rule: 'risk:terminal-type', reason: `sets text in the terminal window ${windowName(context)}` };
  }
  if (action.type === 'type') {
    // 10.
    const kind = secretKind(action.text);
    if (kind) return { rule: SECRET_TEXT_RULE, reason: `types text that looks like a secret or credential (${kind})` };
    // 11.
    if (inTerminal) return { rule: 'risk:terminal-type', reason: `types into the terminal window ${windowName(context)}` };
    // 9.
    if (!context.activeWindow && /[\r\n]/.test(action.text)) {
      return { rule: 'risk:enter-unknown-window', reason: 'types a line break while the focused window is unknown (it may be a terminal)' };
    }
  }
  // 12.
  const field = context.element;
  if (field?.password && (action.type === 'type' || op === 'set_value')) {
    return { rule: 'risk:password-field', reason: `puts text into the password field ${JSON.stringify(field.name)}` };
  }
  return undefined;
}
