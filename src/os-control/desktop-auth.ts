/**
 * X authority for a virtual desktop: a fresh MIT-MAGIC-COOKIE-1 in a file only this
 * user can read (0600, in the desktop's private 0700 folder, desktop-record.ts), given
 * to Xvfb with `-auth`. Without it any local user could connect to the desktop — read
 * its screen, inject input, on a desktop where takeover is ignored (checked: a client
 * with no cookie was accepted). DeskPilot and the apps it starts there get the file as
 * XAUTHORITY in their environment; nobody else is told where it is, or could read it.
 *
 * The entry is FamilyWild with an empty display number: Xvfb picks its display number
 * itself (-displayfd) only after reading the file, and the X server loads every entry
 * of its -auth file whatever its address or number; Xlib (and x11/xauthority.ts) send a
 * FamilyWild entry with no number to any display.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeXauthority, FAMILY, MIT_MAGIC_COOKIE } from './x11/xauthority.js';

/** 128 bits, the size xauth's `generate` and display managers use. */
const COOKIE_BYTES = 16;

/** Writes a fresh cookie file into `privateDir`; returns its path. */
export function writeDesktopCookie(privateDir: string): string {
  const file = join(privateDir, 'Xauthority');
  const entry = { family: FAMILY.Wild, address: Buffer.alloc(0), number: '', name: MIT_MAGIC_COOKIE, data: randomBytes(COOKIE_BYTES) };
  // flag 'wx': a file planted there first is an error, never reused.
  writeFileSync(file, encodeXauthority([entry]), { mode: 0o600, flag: 'wx' });
  return file;
}
