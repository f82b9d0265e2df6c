/**
 * An X display that is a real one minus one extension, for testing a fallback that runs
 * where the server lacks it. Xvfb cannot drop RECORD alone: `-extension RECORD` also turns
 * XTEST off (one switch for both in the server, measured: xdpyinfo lists neither), and
 * without XTEST xdotool cannot act as the person. This proxy listens on a display socket
 * of its own, passes every byte through to the real server, and answers QueryExtension for
 * the hidden name "not present" (the server's reply with its present byte cleared). X's
 * own framing, little-endian clients only (x86: Node's X11Connection, xcb).
 */
import { existsSync, rmSync } from 'node:fs';
import net from 'node:net';

const QUERY_EXTENSION = 98;

export interface HiddenExtensionDisplay {
  /** ":N", the proxy's display. */
  display: string;
  close(): Promise<void>;
}

/** Splits a byte stream into whole X messages with `size(head)` (undefined: not enough bytes yet); each goes to `out` as it completes. */
function framer(size: (buffered: Buffer) => number | undefined, out: (message: Buffer) => void): (chunk: Buffer) => void {
  let buffered = Buffer.alloc(0);
  return (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      const n = size(buffered);
      if (n === undefined || buffered.length < n) return;
      out(buffered.subarray(0, n));
      buffered = buffered.subarray(n);
    }
  };
}

const pad4 = (n: number) => (n + 3) & ~3;

export async function hideExtension(realDisplay: string, hidden: string): Promise<HiddenExtensionDisplay> {
  const realSocket = `/tmp/.X11-unix/X${/^:(\d+)/.exec(realDisplay)![1]}`;
  let number = 300;
  while (existsSync(`/tmp/.X11-unix/X${number}`) || existsSync(`/tmp/.X${number}-lock`)) number++;
  const path = `/tmp/.X11-unix/X${number}`;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(realSocket);
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    // Client → server: the setup request, then requests; the sequence numbers of QueryExtension(hidden) are noted.
    let setupSent = false;
    let sequence = 0;
    const hiddenAt = new Set<number>();
    client.on(
      'data',
      framer(
        (b) => {
          if (!setupSent) {
            if (b.length < 12) return undefined;
            if (b[0] !== 0x6c) throw new Error('hideExtension: only little-endian clients');
            return 12 + pad4(b.readUInt16LE(6)) + pad4(b.readUInt16LE(8));
          }
          if (b.length < 4) return undefined;
          const words = b.readUInt16LE(2);
          if (words > 0) return words * 4;
          // BIG-REQUESTS: a zero length is followed by the real one.
          return b.length < 8 ? undefined : b.readUInt32LE(4) * 4;
        },
        (message) => {
          if (!setupSent) setupSent = true;
          else {
            sequence = (sequence + 1) & 0xffff;
            if (message[0] === QUERY_EXTENSION && message.subarray(8, 8 + message.readUInt16LE(4)).toString('latin1') === hidden) hiddenAt.add(sequence);
          }
          upstream.write(message);
        },
      ),
    );
    // Server → client: the setup reply, then replies, errors and events; a noted QueryExtension's reply says "absent".
    let setupAnswered = false;
    upstream.on(
      'data',
      framer(
        (b) => {
          if (b.length < 8) return undefined;
          if (!setupAnswered) return 8 + b.readUInt16LE(6) * 4;
          // A reply, or a GenericEvent (XI2's), carries more words; errors and other events are 32 bytes.
          return b[0] === 1 || (b[0]! & 0x7f) === 35 ? 32 + b.readUInt32LE(4) * 4 : 32;
        },
        (message) => {
          if (!setupAnswered) setupAnswered = true;
          else if (message[0] === 1 && hiddenAt.delete(message.readUInt16LE(2))) {
            const changed = Buffer.from(message);
            changed.fill(0, 8, 12); // present, major opcode, first event, first error
            message = changed;
          }
          client.write(message);
        },
      ),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path, resolve));
  return {
    display: `:${number}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(path, { force: true });
    },
  };
}
