/**
 * A tiny X server on a real socket, for what a real one will not do on demand: listen on
 * a chosen TCP address (so a connection's peer is "another host"), record the setup
 * request a client sends (its cookie), answer the setup or never, and then never answer
 * a request (a hung server). Speaks just enough of the protocol: the setup reply is a
 * minimal valid one (one 24-bit TrueColor screen, 32 bits per pixel).
 */
import { createServer, type Server, type Socket } from 'node:net';

export interface SetupSeen {
  /** The auth protocol name and data the client sent ('' and empty when none). */
  authName: string;
  authData: Buffer;
}

/** A request received after the setup: its major opcode, data byte, sequence number and body (without the 4-byte header). */
export interface XRequestSeen {
  major: number;
  data: number;
  sequence: number;
  body: Buffer;
}

export interface FakeXServer {
  /** DISPLAY for it: "<host>:<port - 6000>". */
  display: string;
  /** Every setup request received, in order. */
  setups: SetupSeen[];
  /** Bytes received after the setup, per connection (the requests nobody answers). */
  requestBytes: () => number;
  /** Resolves once `n` setups have been seen. */
  setupsSeen(n: number): Promise<void>;
  /** Resolves once `n` client connections have closed. */
  closedSeen(n: number): Promise<void>;
  close(): Promise<void>;
}

const pad4 = (n: number) => (4 - (n % 4)) % 4;

/** A minimal accepted setup reply: no vendor, one pixmap format, one screen with one depth and one visual. */
export function minimalSetupReply(): Buffer {
  const format = Buffer.from([24, 32, 32, 0, 0, 0, 0, 0]);
  const visual = Buffer.alloc(24);
  visual.writeUInt32LE(0x21, 0); // visual id
  visual[4] = 4; // TrueColor
  visual[5] = 8;
  visual.writeUInt16LE(256, 6);
  visual.writeUInt32LE(0xff0000, 8);
  visual.writeUInt32LE(0xff00, 12);
  visual.writeUInt32LE(0xff, 16);
  const depth = Buffer.alloc(8);
  depth[0] = 24;
  depth.writeUInt16LE(1, 2);
  const screen = Buffer.alloc(40);
  screen.writeUInt32LE(0x100, 0); // root
  screen.writeUInt16LE(640, 20);
  screen.writeUInt16LE(480, 22);
  screen.writeUInt32LE(0x21, 32); // root visual
  screen[38] = 24; // root depth
  screen[39] = 1; // one depth
  const body = Buffer.alloc(32);
  body.writeUInt32LE(0x200000, 4); // resource-id base
  body.writeUInt32LE(0x1fffff, 8); // resource-id mask
  body.writeUInt16LE(0, 16); // vendor length
  body.writeUInt16LE(0xffff, 18); // max request length
  body[20] = 1; // screens
  body[21] = 1; // pixmap formats
  body[22] = 0; // image byte order LSBFirst
  body[26] = 8; // min keycode
  body[27] = 255; // max keycode
  const rest = Buffer.concat([body, format, screen, depth, visual]);
  const head = Buffer.alloc(8);
  head[0] = 1;
  head.writeUInt16LE(11, 2);
  head.writeUInt16LE(rest.length / 4, 6);
  return Buffer.concat([head, rest]);
}

function readSetup(got: Buffer): { seen: SetupSeen; length: number } | undefined {
  if (got.length < 12) return undefined;
  const nameLength = got.readUInt16LE(6);
  const dataLength = got.readUInt16LE(8);
  const length = 12 + nameLength + pad4(nameLength) + dataLength + pad4(dataLength);
  if (got.length < length) return undefined;
  const nameAt = 12;
  const dataAt = nameAt + nameLength + pad4(nameLength);
  return { seen: { authName: got.subarray(nameAt, nameAt + nameLength).toString('latin1'), authData: Buffer.from(got.subarray(dataAt, dataAt + dataLength)) }, length };
}

/**
 * A reply's 32 bytes for `request`: reply code 1, its sequence number, no extra length, `fields`
 * from byte 8 on (QueryExtension: present, major opcode, first event, first error).
 */
export function shortReply(request: XRequestSeen, fields: number[]): Buffer {
  const reply = Buffer.alloc(32);
  reply[0] = 1;
  reply.writeUInt16LE(request.sequence, 2);
  Buffer.from(fields).copy(reply, 8);
  return reply;
}

/**
 * `answerSetup`: false for a server that accepts the socket and then says nothing at all.
 * `answer`: the reply to a request after the setup, or undefined for none (the default: a hung server).
 */
export async function startFakeXServer(host: string, options: { answerSetup: boolean; answer?: (request: XRequestSeen) => Buffer | undefined }): Promise<FakeXServer> {
  const setups: SetupSeen[] = [];
  const sockets = new Set<Socket>();
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const closeWaiters: Array<{ n: number; resolve: () => void }> = [];
  let closed = 0;
  let afterSetup = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      closed++;
      for (const w of closeWaiters.filter((x) => closed >= x.n)) w.resolve();
    });
    socket.on('error', () => undefined);
    let got = Buffer.alloc(0);
    let setupDone = false;
    let requests = Buffer.alloc(0);
    let sequence = 0;
    const answerRequests = (chunk: Buffer) => {
      requests = Buffer.concat([requests, chunk]);
      // Each request: major, data, length in 4-byte units (header included; 0 is BIG-REQUESTS', not spoken here).
      while (requests.length >= 4) {
        const length = requests.readUInt16LE(2) * 4;
        if (length === 0 || requests.length < length) return;
        sequence = (sequence + 1) & 0xffff;
        const reply = options.answer?.({ major: requests[0]!, data: requests[1]!, sequence, body: Buffer.from(requests.subarray(4, length)) });
        if (reply) socket.write(reply);
        requests = requests.subarray(length);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      if (setupDone) {
        afterSetup += chunk.length;
        answerRequests(chunk);
        return;
      }
      got = Buffer.concat([got, chunk]);
      const parsed = readSetup(got);
      if (!parsed) return;
      setupDone = true;
      setups.push(parsed.seen);
      afterSetup += got.length - parsed.length;
      for (const w of waiters.filter((x) => setups.length >= x.n)) w.resolve();
      if (options.answerSetup) socket.write(minimalSetupReply());
      if (got.length > parsed.length) answerRequests(got.subarray(parsed.length));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the fake X server has no TCP address');
  return {
    display: `${host}:${address.port - 6000}`,
    setups,
    requestBytes: () => afterSetup,
    setupsSeen: (n) => (setups.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    closedSeen: (n) => (closed >= n ? Promise.resolve() : new Promise((resolve) => closeWaiters.push({ n, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
