/**
 * Input-device properties over our own X connection (XInput 2: XIChangeProperty and
 * XIDeleteProperty), for the takeover watch's fence: one request on the session's held
 * connection instead of an `xinput set-prop` process per agent action (issue 29 item 5:
 * that fork cost ~385 ms of main-thread time per action at load ~62).
 *
 * Wire layout from the XI2 protocol specification (XI2proto.txt): minor opcodes 57 and
 * 58 of the XInputExtension; no XIQueryVersion is needed for them (checked on Xvfb 21).
 */
import type { X11Connection } from './connection.js';
import { internAtom, u32 } from './properties.js';
import type { X11Session } from './session.js';

const XI = { ChangeProperty: 57, DeleteProperty: 58 } as const;
/** The predefined INTEGER atom (what `xinput set-prop --type=int` writes). */
const INTEGER = 19;
const PROP_MODE_REPLACE = 0;

/** The atom `name`, created when new; once it exists the session's cache answers without a round trip. */
async function propertyAtom(session: X11Session, conn: X11Connection, name: string): Promise<number> {
  const known = await session.atom(conn, name);
  return known !== 0 ? known : internAtom(conn, name, { create: true });
}

/** The XInputExtension's major opcode on this display; throws when the server has no XInput. */
async function xinputOpcode(session: X11Session, conn: X11Connection): Promise<number> {
  const xi = await session.extension(conn, 'XInputExtension');
  if (!xi.present) throw new Error(`X server ${session.display} has no XInputExtension`);
  return xi.majorOpcode;
}

/**
 * Sets `device`'s property `name` to one 32-bit integer and waits for the server to have
 * applied it (a round trip after the change: an X error of the change rejects).
 */
export async function setDeviceIntProperty(session: X11Session, device: number, name: string, value: number): Promise<void> {
  await session.ask(`set ${name} on input device ${device}`, async (conn) => {
    const major = await xinputOpcode(session, conn);
    const atom = await propertyAtom(session, conn, name);
    const head = Buffer.alloc(4);
    head.writeUInt16LE(device, 0);
    head[2] = PROP_MODE_REPLACE;
    head[3] = 32;
    conn.send(major, XI.ChangeProperty, Buffer.concat([head, u32(atom, INTEGER, 1, value)]));
    await conn.sync();
  });
}

/** Deletes `device`'s properties `names`; resolves once the server applied the deletions. */
export async function deleteDeviceProperties(session: X11Session, device: number, names: string[]): Promise<void> {
  await session.ask(`delete the fence properties of input device ${device}`, async (conn) => {
    const major = await xinputOpcode(session, conn);
    for (const name of names) {
      const atom = await propertyAtom(session, conn, name);
      const body = Buffer.alloc(4);
      body.writeUInt16LE(device, 0);
      conn.send(major, XI.DeleteProperty, Buffer.concat([body, u32(atom)]));
    }
    await conn.sync();
  });
}
