/**
 * A person's key and button presses with the pointer's place AT the press, from the X
 * server itself: a RECORD context for device events (core KeyPress..ButtonRelease), on
 * its own connection, as keymap-fetch-watch.ts records keymap requests. Each recorded
 * event is the core event the server made of the input, root x/y included — so a click
 * whose pointer moves on at once is still placed where the button went down (reading
 * the pointer after the press, as `xinput test-xi2` forced, placed it where the pointer
 * had got to). Input sent through XTEST (xdotool) is processed like a real device's, so it
 * is recorded too (device-event-record.desktop checks it on Xvfb).
 */
import { X11Connection, X11Error } from './connection.js';
import { queryExtension } from './keyboard.js';

/** RECORD minor opcodes and constants (record extension spec, recordconst.h). */
const RECORD = { QueryVersion: 0, CreateContext: 1, EnableContext: 5, FreeContext: 7 } as const;
const RECORD_ALL_CLIENTS = 3;
const CATEGORY_FROM_SERVER = 0;
const CATEGORY_START_OF_DATA = 4;
/** Core event codes (X.h): the four a recording needs. */
const KEY_PRESS = 2;
const BUTTON_RELEASE = 5;
/** A RecordRange is 24 bytes; its device-events first/last are bytes 18 and 19. */
const RANGE_BYTES = 24;
const DEVICE_EVENTS_AT = 18;
/** X's GenericEvent (XI2 and others): 32 bytes plus a length in words at byte 4. */
const GENERIC_EVENT = 35;

export interface DeviceEvent {
  kind: 'key' | 'button';
  down: boolean;
  /** Keycode, or X button number. */
  detail: number;
  /** The pointer on the root window when the server processed the event. */
  x: number;
  y: number;
  /** Server time in ms (wraps at 2^32). */
  time: number;
}

const KINDS: Record<number, Pick<DeviceEvent, 'kind' | 'down'>> = {
  2: { kind: 'key', down: true },
  3: { kind: 'key', down: false },
  4: { kind: 'button', down: true },
  5: { kind: 'button', down: false },
};

/**
 * The device events in one RECORD data reply (element header 0, so the data is the
 * 32-byte events back to back). Other categories (start/end of data, client
 * started/died) hold none.
 */
export function parseDeviceEvents(reply: Buffer): DeviceEvent[] {
  if (reply[1] !== CATEGORY_FROM_SERVER) return [];
  const data = reply.subarray(32, 32 + reply.readUInt32LE(4) * 4);
  const events: DeviceEvent[] = [];
  let at = 0;
  while (at + 32 <= data.length) {
    const code = data[at]! & 0x7f;
    const kind = KINDS[code];
    // xEvent: type, detail, sequence, time, root, event, child, rootX, rootY, …
    if (kind) events.push({ ...kind, detail: data[at + 1]!, time: data.readUInt32LE(at + 4), x: data.readInt16LE(at + 20), y: data.readInt16LE(at + 22) });
    at += code === GENERIC_EVENT ? 32 + data.readUInt32LE(at + 4) * 4 : 32;
  }
  return events;
}

export class DeviceEventRecord {
  private constructor(
    private readonly control: X11Connection,
    private readonly data: X11Connection,
    private readonly major: number,
    private readonly context: number,
  ) {}

  /**
   * Starts recording on `display`: every key and button event from then on goes to
   * `onEvent`, in the order the server processed them. Throws when the server has no
   * RECORD extension or will not start the stream within the request time-out.
   * `onEnd` is told once when the stream ends for any reason (close(), the server gone).
   */
  static async start(onEvent: (event: DeviceEvent) => void, display?: string, onEnd?: () => void): Promise<DeviceEventRecord> {
    const control = await X11Connection.open(display);
    let data: X11Connection | undefined;
    try {
      const record = await queryExtension(control, 'RECORD');
      if (!record.present) throw new X11Error('the X server has no RECORD extension');
      const version = Buffer.alloc(4);
      version.writeUInt16LE(1, 0);
      version.writeUInt16LE(13, 2);
      await control.request(record.majorOpcode, RECORD.QueryVersion, version);
      const context = control.allocateId();
      const head = Buffer.alloc(16);
      head.writeUInt32LE(context, 0);
      head.writeUInt32LE(1, 8); // one client spec
      head.writeUInt32LE(1, 12); // one range
      const clients = Buffer.alloc(4);
      clients.writeUInt32LE(RECORD_ALL_CLIENTS, 0);
      const range = Buffer.alloc(RANGE_BYTES);
      range[DEVICE_EVENTS_AT] = KEY_PRESS;
      range[DEVICE_EVENTS_AT + 1] = BUTTON_RELEASE;
      control.send(record.majorOpcode, RECORD.CreateContext, Buffer.concat([head, clients, range]));
      await control.sync();
      data = await X11Connection.open(display);
      let started: () => void = () => {};
      const startOfData = new Promise<void>((resolve) => (started = resolve));
      const enable = Buffer.alloc(4);
      enable.writeUInt32LE(context, 0);
      const streaming = data.startStream(record.majorOpcode, RECORD.EnableContext, enable, (reply) => {
        if (reply[1] === CATEGORY_START_OF_DATA) started();
        else for (const event of parseDeviceEvents(reply)) onEvent(event);
      });
      await Promise.all([streaming, startOfData]);
      if (onEnd) data.onClose(() => onEnd());
      return new DeviceEventRecord(control, data, record.majorOpcode, context);
    } catch (err) {
      data?.close();
      control.close();
      throw err;
    }
  }

  close(): void {
    try {
      const body = Buffer.alloc(4);
      body.writeUInt32LE(this.context, 0);
      this.control.send(this.major, RECORD.FreeContext, body);
    } catch {
      // the control connection is already gone: the server frees the context with it
    }
    this.data.close();
    this.control.close();
  }
}
