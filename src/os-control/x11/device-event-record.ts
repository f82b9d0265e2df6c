/**
 * A person's key and button presses with the pointer's place AT the press, from the X
 * server itself: a RECORD context for device events (core KeyPress..ButtonRelease), on
 * its own connection (record-context.ts, as keymap-fetch-watch.ts's keymap requests). Each recorded
 * event is the core event the server made of the input, root x/y included — so a click
 * whose pointer moves on at once is still placed where the button went down (reading
 * the pointer after the press, as `xinput test-xi2` forced, placed it where the pointer
 * had got to). Input sent through XTEST (xdotool) is processed like a real device's, so it
 * is recorded too (device-event-record.desktop checks it on Xvfb).
 */
import { X11Connection } from './connection.js';
import { RECORD_CATEGORY, RECORD_RANGE_BYTES, startRecordContext, type RecordContext } from './record-context.js';

/** Core event codes (X.h): the four a recording needs. */
const KEY_PRESS = 2;
const BUTTON_RELEASE = 5;
/** A RecordRange's device-events first/last are bytes 18 and 19. */
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
  if (reply[1] !== RECORD_CATEGORY.fromServer) return [];
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
    private readonly recording: RecordContext,
  ) {}

  /**
   * Starts recording on `display`: every key and button event from then on goes to
   * `onEvent`, in the order the server processed them. Throws when the server has no
   * RECORD extension or will not start the stream within the request time-out.
   * `onEnd` is told once when the stream ends for any reason (close(), the server gone).
   */
  static async start(onEvent: (event: DeviceEvent) => void, display?: string, onEnd?: () => void): Promise<DeviceEventRecord> {
    const control = await X11Connection.open(display);
    try {
      const range = Buffer.alloc(RECORD_RANGE_BYTES);
      range[DEVICE_EVENTS_AT] = KEY_PRESS;
      range[DEVICE_EVENTS_AT + 1] = BUTTON_RELEASE;
      const recording = await startRecordContext(control, [range], (reply) => {
        for (const event of parseDeviceEvents(reply)) onEvent(event);
      }, display);
      if (onEnd) recording.onEnd(onEnd);
      return new DeviceEventRecord(control, recording);
    } catch (err) {
      control.close();
      throw err;
    }
  }

  close(): void {
    this.recording.close();
    this.control.close();
  }
}
