/**
 * A D-Bus "bus" on a unix socket that does the start of the protocol and then goes quiet
 * on one method: it takes the EXTERNAL authentication, answers Hello with a unique name
 * (so a dbus-next client reaches 'connect'), answers every other method call with an empty
 * return, and never answers calls of the member named `silentOn`. For the time limits of
 * calls made after connecting (settle-echo's AddMatch and RegisterEvent): a real
 * dbus-daemon answers AddMatch at once and cannot be told not to.
 *
 * Wire format: the D-Bus specification's "Message Format" (a 16-byte fixed header, an
 * array of (code, variant) header fields padded to 8, then the body), little-endian only
 * — what dbus-next sends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface HalfMuteBus {
  /** unix:path=… for AT_SPI_BUS_ADDRESS / DBUS_SESSION_BUS_ADDRESS. */
  address: string;
  /** Every method called on it, in order, as interface.member. */
  calls: string[];
  stop(): Promise<void>;
}

const METHOD_CALL = 1;
const METHOD_RETURN = 2;
const FIELD = { member: 3, interface: 2, replySerial: 5, signature: 8 } as const;

const pad = (n: number, to: number) => (to - (n % to)) % to;

/** A header field's value read at `at`: the string of s/o/g, the number of u; `end` is past it. */
function readField(buf: Buffer, at: number, sig: string): { value: string | number; end: number } {
  if (sig === 'g') {
    const len = buf.readUInt8(at);
    return { value: buf.toString('utf8', at + 1, at + 1 + len), end: at + 2 + len };
  }
  at += pad(at, 4);
  if (sig === 'u') return { value: buf.readUInt32LE(at), end: at + 4 };
  if (sig === 's' || sig === 'o') {
    const len = buf.readUInt32LE(at);
    return { value: buf.toString('utf8', at + 4, at + 4 + len), end: at + 5 + len };
  }
  throw new Error(`half-mute bus: header field of signature ${sig} not handled`);
}

/** One whole message at the start of `buf`, or undefined until all of it arrived. */
function readMessage(buf: Buffer): { type: number; serial: number; fields: Map<number, string | number>; size: number } | undefined {
  if (buf.length < 16) return undefined;
  if (buf[0] !== 0x6c) throw new Error('half-mute bus: only little-endian messages are handled');
  const fieldsLength = buf.readUInt32LE(12);
  const size = 16 + fieldsLength + pad(fieldsLength, 8) + buf.readUInt32LE(4);
  if (buf.length < size) return undefined;
  const fields = new Map<number, string | number>();
  let at = 16;
  while (at < 16 + fieldsLength) {
    at += pad(at, 8);
    const code = buf.readUInt8(at);
    const sigLen = buf.readUInt8(at + 1);
    const sig = buf.toString('ascii', at + 2, at + 2 + sigLen);
    const field = readField(buf, at + 3 + sigLen, sig);
    fields.set(code, field.value);
    at = field.end;
  }
  return { type: buf.readUInt8(1), serial: buf.readUInt32LE(8), fields, size };
}

/** A method return to `replySerial`, with one string as its body when `text` is given. */
function methodReturn(serial: number, replySerial: number, text?: string): Buffer {
  const fields: Buffer[] = [];
  const replyField = Buffer.alloc(8);
  replyField.write('\x05\x01u\x00', 'latin1');
  replyField.writeUInt32LE(replySerial, 4);
  fields.push(replyField);
  let body = Buffer.alloc(0);
  if (text !== undefined) {
    fields.push(Buffer.from([FIELD.signature, 1, 0x67, 0, 1, 0x73, 0, 0])); // (8, 'g', "s"), padded to 8
    body = Buffer.alloc(4 + Buffer.byteLength(text) + 1);
    body.writeUInt32LE(Buffer.byteLength(text), 0);
    body.write(text, 4);
  }
  const fieldBytes = Buffer.concat(fields);
  const header = Buffer.alloc(16);
  header.write('l', 0, 'latin1');
  header.writeUInt8(METHOD_RETURN, 1);
  header.writeUInt8(1, 3);
  header.writeUInt32LE(body.length, 4);
  header.writeUInt32LE(serial, 8);
  header.writeUInt32LE(fieldBytes.length - (text === undefined ? 0 : 1), 12); // the array's length excludes the last pad
  return Buffer.concat([header, fieldBytes, body]);
}

export async function startHalfMuteBus(silentOn: string): Promise<HalfMuteBus> {
  const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-half-mute-bus-'));
  const socketPath = path.join(dir, 'bus');
  const calls: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    let authenticated = false;
    let serial = 0;
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (!authenticated) {
        const eol = pending.indexOf('\r\n');
        if (eol < 0) return;
        const line = pending.toString('latin1', 0, eol).replace(/^\0/, '');
        pending = pending.subarray(eol + 2);
        if (line.startsWith('AUTH EXTERNAL')) socket.write(`OK ${'0123456789abcdef'.repeat(2)}\r\n`);
        else if (line === 'NEGOTIATE_UNIX_FD') socket.write('ERROR\r\n');
        else if (line === 'BEGIN') authenticated = true;
        else socket.write('ERROR\r\n');
      }
      for (let message = readMessage(pending); message; message = readMessage(pending)) {
        pending = pending.subarray(message.size);
        if (message.type !== METHOD_CALL) continue;
        const member = String(message.fields.get(FIELD.member));
        calls.push(`${String(message.fields.get(FIELD.interface))}.${member}`);
        if (member === silentOn) continue;
        socket.write(methodReturn(++serial, message.serial, member === 'Hello' ? ':1.1' : undefined));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    address: `unix:path=${socketPath}`,
    calls,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
