/**
 * A window's title, read one way for every reader (the focused window, the windows with a
 * title, eval's window waits): _NET_WM_NAME (UTF-8, EWMH) when set and not empty, else
 * WM_NAME of whatever type it was set with. The readers differed before: one took an empty
 * _NET_WM_NAME as the title '' and never looked at WM_NAME, one read WM_NAME only when it
 * was typed STRING (Tk and Xt set UTF8_STRING there too), one decoded it as Latin-1 only.
 */
import type { X11Connection } from './connection.js';
import { ATOM, property } from './properties.js';

/** The two atoms a title read needs beside the predefined WM_NAME; 0 or undefined when the server has none. */
export interface TitleAtoms {
  netWmName: number | undefined;
  utf8: number | undefined;
}

/**
 * The title from the two properties' bytes (undefined when unset). WM_NAME is STRING
 * (Latin-1) by the ICCCM, but toolkits also put UTF-8 there: UTF-8 when it decodes as such.
 */
export function titleOf(net: Buffer | undefined, plain: Buffer | undefined): string | undefined {
  if (net?.length) return net.toString('utf8');
  if (!plain?.length) return undefined;
  const utf8 = plain.toString('utf8');
  return utf8.includes('\uFFFD') ? plain.toString('latin1') : utf8;
}

/** Reads both properties at once (pipelined on the connection) and gives titleOf's answer. */
export async function readTitle(conn: X11Connection, window: number, atoms: TitleAtoms): Promise<string | undefined> {
  const { netWmName, utf8 } = atoms;
  const [net, plain] = await Promise.all([netWmName && utf8 ? property(conn, window, netWmName, utf8) : undefined, property(conn, window, ATOM.WM_NAME, ATOM.ANY)]);
  return titleOf(net, plain);
}
