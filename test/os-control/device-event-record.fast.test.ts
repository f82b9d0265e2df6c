/**
 * The RECORD data replies the recorder reads (x11/device-event-record.ts), built byte by
 * byte as the X server sends them: only FromServer data holds device events; each is a
 * 32-byte core event whose root x/y are signed; a GenericEvent is skipped by its own
 * length; the sent-event bit does not change the kind.
 */
import { describe, expect, it } from 'vitest';
import { parseDeviceEvents } from '../../src/os-control/x11/device-event-record.js';

function coreEvent(code: number, detail: number, time: number, x: number, y: number): Buffer {
  const e = Buffer.alloc(32);
  e[0] = code;
  e[1] = detail;
  e.writeUInt32LE(time, 4);
  e.writeInt16LE(x, 20);
  e.writeInt16LE(y, 22);
  // event x/y differ from the root's: the root's are the ones read.
  e.writeInt16LE(x - 7, 24);
  e.writeInt16LE(y - 9, 26);
  return e;
}

function reply(category: number, data: Buffer): Buffer {
  const head = Buffer.alloc(32);
  head[0] = 1;
  head[1] = category;
  head.writeUInt32LE(data.length / 4, 4);
  return Buffer.concat([head, data]);
}

describe('parseDeviceEvents', () => {
  it('reads each key and button event with its root position and server time, in order', () => {
    const data = Buffer.concat([coreEvent(4, 1, 1000, 200, 150), coreEvent(5, 1, 1003, 210, 151), coreEvent(2, 38, 1010, 650, 500), coreEvent(3, 38, 1012, -5, 1079)]);
    expect(parseDeviceEvents(reply(0, data))).toEqual([
      { kind: 'button', down: true, detail: 1, time: 1000, x: 200, y: 150 },
      { kind: 'button', down: false, detail: 1, time: 1003, x: 210, y: 151 },
      { kind: 'key', down: true, detail: 38, time: 1010, x: 650, y: 500 },
      { kind: 'key', down: false, detail: 38, time: 1012, x: -5, y: 1079 },
    ]);
  });

  it('skips a GenericEvent by its length and motion; the sent-event bit keeps the kind', () => {
    const generic = Buffer.alloc(40);
    generic[0] = 35;
    generic.writeUInt32LE(2, 4); // 8 more bytes
    // Bytes that would read as a ButtonPress if the generic event's length were ignored.
    generic[32] = 4;
    const data = Buffer.concat([generic, coreEvent(6, 0, 5, 1, 1), coreEvent(0x80 | 4, 3, 9, 40, 60)]);
    expect(parseDeviceEvents(reply(0, data))).toEqual([{ kind: 'button', down: true, detail: 3, time: 9, x: 40, y: 60 }]);
  });

  it('takes no events from the other categories (start of data, client started/died) nor past the reply length', () => {
    const press = coreEvent(4, 1, 1, 10, 10);
    expect(parseDeviceEvents(reply(4, press))).toEqual([]);
    expect(parseDeviceEvents(reply(1, press))).toEqual([]);
    const short = reply(0, press);
    short.writeUInt32LE(4, 4); // says 16 bytes: half an event
    expect(parseDeviceEvents(short)).toEqual([]);
  });
});
