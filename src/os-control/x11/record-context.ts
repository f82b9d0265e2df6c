/**
 * The RECORD extension's plumbing, one place for both of its users: keymap-fetch-watch.ts
 * (every client's keymap requests, so the typist knows an app has caught up) and
 * device-event-record.ts (key and button events with the pointer at each press, for the
 * recorder). A context is created on a connection the caller holds (`control`) and
 * enabled on a second one of its own: EnableContext answers with a stream of replies
 * that never ends while the context is enabled, so that connection can ask nothing else.
 */
import { X11Connection, X11Error } from './connection.js';
import { queryExtension } from './keyboard.js';

/** RECORD minor opcodes and constants (record extension spec, recordconst.h). */
const RECORD = { QueryVersion: 0, CreateContext: 1, EnableContext: 5, FreeContext: 7 } as const;
/** The version asked for: 1.13, the one every X.Org server since 2006 speaks. */
const VERSION = { major: 1, minor: 13 } as const;
const RECORD_ALL_CLIENTS = 3;

/** A data reply's category (byte 1): what its data holds. */
export const RECORD_CATEGORY = { fromServer: 0, fromClient: 1, startOfData: 4 } as const;

/** A RecordRange is 24 bytes: core requests 0–1, core replies 2–3, ext requests 4–9, ext replies 10–15, delivered events 16–17, device events 18–19, errors 20–21, client started/died 22–23. */
export const RECORD_RANGE_BYTES = 24;

export interface RecordContext {
  /** The extension's major opcode on this server. */
  readonly major: number;
  /** Tells `listener` once when the stream ends for any reason (close(), the server gone). */
  onEnd(listener: () => void): void;
  /** Frees the context (on `control`, if it is still open) and closes the stream's connection; `control` stays the caller's. */
  close(): void;
}

/**
 * Starts recording `ranges` (RECORD_RANGE_BYTES each) of all clients: creates the context
 * on `control`, enables it on a new connection to `display`, and resolves once the server
 * said start of data. Every later data reply goes to `onData`, in the order the server
 * processed what it holds. Throws when the server has no RECORD extension or will not
 * start the stream within the request time-out (the stream's connection is closed then).
 */
export async function startRecordContext(control: X11Connection, ranges: Buffer[], onData: (reply: Buffer) => void, display?: string): Promise<RecordContext> {
  const record = await queryExtension(control, 'RECORD');
  if (!record.present) throw new X11Error('the X server has no RECORD extension');
  const major = record.majorOpcode;
  const version = Buffer.alloc(4);
  version.writeUInt16LE(VERSION.major, 0);
  version.writeUInt16LE(VERSION.minor, 2);
  await control.request(major, RECORD.QueryVersion, version);
  const context = control.allocateId();
  // CreateContext: context, element header 0 (bare data), one client spec, the ranges.
  const head = Buffer.alloc(16);
  head.writeUInt32LE(context, 0);
  head.writeUInt32LE(1, 8);
  head.writeUInt32LE(ranges.length, 12);
  const clients = Buffer.alloc(4);
  clients.writeUInt32LE(RECORD_ALL_CLIENTS, 0);
  control.send(major, RECORD.CreateContext, Buffer.concat([head, clients, ...ranges]));
  await control.sync();
  const data = await X11Connection.open(display);
  try {
    let started: () => void = () => {};
    const startOfData = new Promise<void>((resolve) => (started = resolve));
    const enable = Buffer.alloc(4);
    enable.writeUInt32LE(context, 0);
    const streaming = data.startStream(major, RECORD.EnableContext, enable, (reply) => {
      if (reply[1] === RECORD_CATEGORY.startOfData) started();
      else onData(reply);
    });
    // Bounded by the request time-out: a server that never starts the stream fails the start.
    await Promise.all([streaming, startOfData]);
  } catch (err) {
    data.close();
    throw err;
  }
  return {
    major,
    onEnd: (listener) => data.onClose(() => listener()),
    close() {
      try {
        const body = Buffer.alloc(4);
        body.writeUInt32LE(context, 0);
        control.send(major, RECORD.FreeContext, body);
      } catch {
        // the control connection is already gone: the server frees the context with it
      }
      data.close();
    },
  };
}
