import { describe, expect, it } from 'vitest';
import { parseDevices } from '../../../src/os-control/x11/input-devices.js';

/**
 * The XIQueryDevice reply as XI2proto.txt lays it out: a 32-byte header whose bytes 8–9
 * count the devices, then per device 12 bytes, its name padded to 4, and its classes,
 * each giving its own length in 4-byte units. The live reply is read against Xvfb by
 * x11-input-activity.desktop (its fences only work on the XTEST device found here).
 */
function device(id: number, name: string, classUnits: number[]): Buffer {
  const head = Buffer.alloc(12);
  head.writeUInt16LE(id, 0);
  head.writeUInt16LE(3, 2); // use: slave pointer
  head.writeUInt16LE(2, 4); // attachment
  head.writeUInt16LE(classUnits.length, 6);
  head.writeUInt16LE(Buffer.byteLength(name, 'latin1'), 8);
  head[10] = 1; // enabled
  const padded = Buffer.alloc((Buffer.byteLength(name, 'latin1') + 3) & ~3);
  padded.write(name, 'latin1');
  const classes = classUnits.map((units, i) => {
    // A class claiming length 0 still carries its own 4-byte head.
    const c = Buffer.alloc(Math.max(units, 1) * 4, 0xee);
    c.writeUInt16LE(i + 1, 0);
    c.writeUInt16LE(units, 2);
    return c;
  });
  return Buffer.concat([head, padded, ...classes]);
}

function reply(devices: Buffer[]): Buffer {
  const head = Buffer.alloc(32);
  head[0] = 1;
  head.writeUInt32LE(devices.reduce((n, d) => n + d.length, 0) / 4, 4);
  head.writeUInt16LE(devices.length, 8);
  return Buffer.concat([head, ...devices]);
}

describe('XIQueryDevice reply', () => {
  it('reads each id and name, past names of every padding and classes of every length', () => {
    const parsed = parseDevices(
      reply([
        device(2, 'Virtual core pointer', [2, 7]),
        device(4, 'Virtual core XTEST pointer', [3]),
        device(9, 'abc', []),
        device(5, 'Virtual core XTEST keyboard', [1, 1, 5]),
      ]),
    );
    expect(parsed).toEqual([
      { id: 2, name: 'Virtual core pointer' },
      { id: 4, name: 'Virtual core XTEST pointer' },
      { id: 9, name: 'abc' },
      { id: 5, name: 'Virtual core XTEST keyboard' },
    ]);
  });

  it('reads no device from a reply that lists none', () => {
    expect(parseDevices(reply([]))).toEqual([]);
  });

  it('refuses a reply cut inside a device, a name or a class, and a class of length 0', () => {
    const whole = reply([device(4, 'Virtual core XTEST pointer', [3])]);
    expect(() => parseDevices(whole.subarray(0, 32 + 8))).toThrow(/ends inside device 1 of 1/);
    expect(() => parseDevices(whole.subarray(0, 32 + 12 + 4))).toThrow(/ends inside the name of device 4/);
    expect(() => parseDevices(whole.subarray(0, 32 + 12 + 28 + 2))).toThrow(/ends inside a class of device 4/);
    expect(() => parseDevices(reply([device(7, 'x', [0])]))).toThrow(/class of length 0 \(device 7\)/);
  });
});
