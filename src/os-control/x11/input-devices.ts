/**
 * The X server's input devices over our own X connection (XInput 2: XIQueryDevice), for
 * the takeover watch: which slave devices are XTEST's (what software injects through).
 * It was one synchronous `xinput list --short` per run start, 70–100 ms with the event
 * loop held (issue 29 item 5); here it is one round trip on the session's held connection.
 *
 * Wire layout from the XI2 protocol specification (XI2proto.txt): minor opcode 48 of the
 * XInputExtension; like XIChangeProperty (device-property.ts) it needs no XIQueryVersion
 * first (checked on Xvfb 21).
 */
import type { X11Session } from './session.js';

const XI_QUERY_DEVICE = 48;
/** XIAllDevices: every master and slave device. */
const ALL_DEVICES = 0;

export interface InputDevice {
  id: number;
  name: string;
}

/**
 * The devices of an XIQueryDevice reply: after the 32-byte header, one XIDEVICEINFO each
 * (id, use, attachment, class count, name length, enabled: 12 bytes), its name padded to
 * 4 bytes, then its classes, each saying its own length in 4-byte units.
 */
export function parseDevices(reply: Buffer): InputDevice[] {
  const count = reply.readUInt16LE(8);
  const devices: InputDevice[] = [];
  let at = 32;
  for (let i = 0; i < count; i++) {
    if (at + 12 > reply.length) throw new Error(`XIQueryDevice reply ends inside device ${i + 1} of ${count}`);
    const id = reply.readUInt16LE(at);
    const classes = reply.readUInt16LE(at + 6);
    const nameLength = reply.readUInt16LE(at + 8);
    at += 12;
    if (at + nameLength > reply.length) throw new Error(`XIQueryDevice reply ends inside the name of device ${id}`);
    devices.push({ id, name: reply.toString('latin1', at, at + nameLength) });
    at += (nameLength + 3) & ~3;
    for (let c = 0; c < classes; c++) {
      if (at + 4 > reply.length) throw new Error(`XIQueryDevice reply ends inside a class of device ${id}`);
      const units = reply.readUInt16LE(at + 2);
      // A class of length 0 would never end the walk.
      if (units === 0) throw new Error(`XIQueryDevice reply has a class of length 0 (device ${id})`);
      at += units * 4;
    }
  }
  return devices;
}

/** Every input device of the session's display; throws when the server has no XInput or does not answer. */
export async function inputDevices(session: X11Session): Promise<InputDevice[]> {
  return session.ask('list the input devices', async (conn) => {
    const xi = await session.extension(conn, 'XInputExtension');
    if (!xi.present) throw new Error(`X server ${session.display} has no XInputExtension`);
    const body = Buffer.alloc(4);
    body.writeUInt16LE(ALL_DEVICES, 0);
    return parseDevices(await conn.request(xi.majorOpcode, XI_QUERY_DEVICE, body));
  });
}

/** The ids of the XTEST slave devices ("Virtual core XTEST pointer", "… keyboard"), as `xinput list` names them. */
export async function xtestDeviceIds(session: X11Session): Promise<Set<number>> {
  return new Set((await inputDevices(session)).filter((d) => /XTEST\b/.test(d.name)).map((d) => d.id));
}
