import { formatAccelerator } from '../../shared/accelerator.js';
import type { RunState } from '../../shared/events.js';
import type { KillHotkeyPush } from '../service/types.js';

/**
 * What the tray says: whether a run is live, and whether a global stop key works.
 * The tray is the one surface of the app that is always there (the window may be
 * hidden, the HUD shows only during a run), so a missing stop key is said here as
 * well as in the window's header and the HUD (KillHotkeyBadge).
 */

export interface TrayView {
  tooltip: string;
  /** A line for the tray menu about the stop key (shown disabled: it informs). */
  stopKeyLine: string;
}

export function trayView(run: { live: boolean; state: RunState | null }, hotkey: KillHotkeyPush | null, mac: boolean): TrayView {
  const base = run.live && run.state ? `DeskPilot — ${run.state.replace('_', ' ')}` : 'DeskPilot';
  // Before start-up has tried to register a key there is nothing to say yet.
  if (!hotkey) return { tooltip: base, stopKeyLine: 'Stop hotkey: starting…' };
  if (!hotkey.live) return { tooltip: `${base} — no stop hotkey`, stopKeyLine: `No stop hotkey (${hotkey.problem}): only Stop stops a run` };
  const key = formatAccelerator(hotkey.accelerator, mac);
  return { tooltip: base, stopKeyLine: hotkey.problem ? `Stop hotkey: ${key} (${hotkey.problem})` : `Stop hotkey: ${key}` };
}
