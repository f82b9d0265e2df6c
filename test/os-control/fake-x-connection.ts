/**
 * An X11Connection stand-in for settle-ping.ts's fast tests: the requests AppPinger makes
 * answered from a small model of a desktop — atoms, the DAMAGE extension, a window tree with
 * properties, the focus and the pointer's top-level — and the two parties that answer it:
 * apps (a ping sent to their window comes back as the EWMH answer, to the root) and a window
 * manager (a _NET_REQUEST_FRAME_EXTENTS comes back as a PropertyNotify of _NET_FRAME_EXTENTS).
 * Replies and answers come on a later turn of the event loop, as from a socket.
 * Reply layouts are the core protocol's (section 9, 10) as the helpers read them.
 */
import { X11Error } from '../../src/os-control/x11/connection.js';

export interface FakeWindow {
  parent: number;
  children: number[];
  /** atom → [type, bytes] */
  props: Map<number, [number, Buffer]>;
  /** Whether its app answers a ping (default true). */
  answers?: boolean;
}

export interface SentEvent {
  destination: number;
  mask: number;
  event: Buffer;
}

export const ROOT = 0x100;
export const ATOMS = { WM_PROTOCOLS: 40, _NET_WM_PING: 41, WM_STATE: 42, _NET_SUPPORTED: 43, _NET_REQUEST_FRAME_EXTENTS: 44, _NET_FRAME_EXTENTS: 45, WM_DELETE_WINDOW: 46 } as const;
export const DAMAGE_EXT = { majorOpcode: 143, firstEvent: 91 };

const later = <T>(value: () => T): Promise<T> => new Promise((resolve, reject) => setImmediate(() => {
  try {
    resolve(value());
  } catch (error) {
    reject(error);
  }
}));

export class FakeXConnection {
  readonly setup = { root: ROOT, resourceIdBase: 0x0a00000, resourceIdMask: 0x1fffff };
  /** Atoms the server knows (InternAtom only-if-exists answers 0 for the others). */
  atoms = new Map<string, number>(Object.entries(ATOMS));
  damage = true;
  windows = new Map<number, FakeWindow>([[ROOT, { parent: 0, children: [], props: new Map() }]]);
  focus = 0;
  pointerChild = 0;
  /** Whether the window manager answers frame-extents requests. */
  wmAnswers = true;
  /** Requests as sent: [major, minor, body]. */
  readonly requests: [number, number, Buffer][] = [];
  readonly sentEvents: SentEvent[] = [];
  /** Errors the next sync() throws (the connection's void errors). */
  voidErrors: Error[] = [];
  /** A request with this major opcode fails with this error (e.g. the connection broke). */
  failing: { major: number; error: Error } | undefined;
  /** Called as a GetProperty is answered: may change the model, or throw the request's error. */
  beforePropertyRead: ((window: number, atom: number) => void) | undefined;
  closed = false;
  unrefs = 0;
  private nextId = 0;
  private readonly listeners: ((event: Buffer) => void)[] = [];

  /** A top-level window (child of the root) holding a client window (WM_STATE set) that lists `protocols`. */
  addClient(frame: number, client: number, protocols: number[] = [ATOMS.WM_DELETE_WINDOW, ATOMS._NET_WM_PING], options: { answers?: boolean; depth?: number } = {}): void {
    const chain = [frame];
    for (let i = 1; i < (options.depth ?? 1); i++) chain.push(frame + i);
    this.windows.get(ROOT)!.children.push(frame);
    let parent = ROOT;
    for (const w of chain) {
      this.windows.set(w, { parent, children: [], props: new Map() });
      if (parent !== ROOT) this.windows.get(parent)!.children.push(w);
      parent = w;
    }
    const props = new Map<number, [number, Buffer]>([[ATOMS.WM_STATE, [ATOMS.WM_STATE, Buffer.alloc(8)]]]);
    if (protocols.length) props.set(ATOMS.WM_PROTOCOLS, [4, Buffer.concat(protocols.map((p) => u32(p)))]);
    this.windows.set(client, { parent, children: [], props, ...(options.answers === false ? { answers: false } : {}) });
    this.windows.get(parent)!.children.push(client);
  }

  /** The window manager lists these atoms in _NET_SUPPORTED on the root. */
  supports(...atoms: number[]): void {
    this.windows.get(ROOT)!.props.set(ATOMS._NET_SUPPORTED, [4, Buffer.concat(atoms.map((a) => u32(a)))]);
  }

  onEvent(listener: (event: Buffer) => void): () => void {
    this.listeners.push(listener);
    return () => undefined;
  }

  emit(event: Buffer): void {
    for (const l of this.listeners) l(event);
  }

  allocateId(): number {
    return this.setup.resourceIdBase + ++this.nextId;
  }

  unref(): void {
    this.unrefs++;
  }

  close(): void {
    this.closed = true;
  }

  async sync(): Promise<void> {
    await this.request(43, 0, Buffer.alloc(0));
    const errors = this.voidErrors;
    this.voidErrors = [];
    if (errors.length) throw errors[0]!;
  }

  send(major: number, minor: number, body: Buffer): number {
    this.requests.push([major, minor, body]);
    if (major === 25) this.sendEvent(body);
    return this.requests.length;
  }

  request(major: number, minor: number, body: Buffer): Promise<Buffer> {
    this.requests.push([major, minor, body]);
    if (this.failing?.major === major) {
      const { error } = this.failing;
      return later(() => {
        throw error;
      });
    }
    return later(() => this.reply(major, minor, body));
  }

  /** The requests of one major opcode, in order. */
  sent(major: number): Buffer[] {
    return this.requests.filter(([m]) => m === major).map(([, , body]) => body);
  }

  private reply(major: number, minor: number, body: Buffer): Buffer {
    const r = Buffer.alloc(32);
    r[0] = 1;
    switch (major) {
      case 16: {
        // InternAtom: only-if-exists in `minor`; a created atom gets a fresh number.
        const name = body.subarray(4, 4 + body.readUInt16LE(0)).toString('latin1');
        let atom = this.atoms.get(name) ?? 0;
        if (!atom && minor === 0) this.atoms.set(name, (atom = 500 + this.atoms.size));
        r.writeUInt32LE(atom, 8);
        return r;
      }
      case 98: {
        const name = body.subarray(4, 4 + body.readUInt16LE(0)).toString('latin1');
        if (name === 'DAMAGE' && this.damage) {
          r[8] = 1;
          r[9] = DAMAGE_EXT.majorOpcode;
          r[10] = DAMAGE_EXT.firstEvent;
        }
        return r;
      }
      case DAMAGE_EXT.majorOpcode:
        return r;
      case 3:
        // GetWindowAttributes: every window InputOutput (class at byte 12), known to the fake or not.
        r.writeUInt16LE(1, 12);
        return r;
      case 43:
        r.writeUInt32LE(this.focus, 8);
        return r;
      case 38:
        r.writeUInt32LE(this.pointerChild, 12);
        return r;
      case 15: {
        const w = this.window(body.readUInt32LE(0));
        const tree = Buffer.alloc(32 + 4 * w.children.length);
        tree[0] = 1;
        tree.writeUInt32LE(w.parent, 12);
        tree.writeUInt16LE(w.children.length, 16);
        w.children.forEach((c, i) => tree.writeUInt32LE(c, 32 + 4 * i));
        return tree;
      }
      case 20: {
        this.beforePropertyRead?.(body.readUInt32LE(0), body.readUInt32LE(4));
        const w = this.window(body.readUInt32LE(0));
        const prop = w.props.get(body.readUInt32LE(4));
        const type = body.readUInt32LE(8);
        // Unset, or of another type than asked (AnyPropertyType is 0): format 0, no bytes.
        if (!prop || (type !== 0 && type !== prop[0])) return r;
        const out = Buffer.alloc(32 + prop[1].length);
        out[0] = 1;
        out[1] = 32;
        out.writeUInt32LE(prop[1].length / 4, 16);
        prop[1].copy(out, 32);
        return out;
      }
      default:
        throw new Error(`the fake server has no request ${major}`);
    }
  }

  private window(id: number): FakeWindow {
    const w = this.windows.get(id);
    if (!w) throw new X11Error(`X error 3 (request ?, value ${id})`, 3);
    return w;
  }

  private sendEvent(body: Buffer): void {
    const destination = body.readUInt32LE(0);
    const event = Buffer.from(body.subarray(8, 40));
    this.sentEvents.push({ destination, mask: body.readUInt32LE(4), event });
    if (event[0] !== 33) return;
    const type = event.readUInt32LE(8);
    if (destination === ROOT && type === ATOMS._NET_REQUEST_FRAME_EXTENTS) {
      if (!this.wmAnswers) return;
      const notify = Buffer.alloc(32);
      notify[0] = 28;
      notify.writeUInt32LE(event.readUInt32LE(4), 4);
      notify.writeUInt32LE(ATOMS._NET_FRAME_EXTENTS, 8);
      setImmediate(() => this.emit(notify));
      return;
    }
    if (type === ATOMS.WM_PROTOCOLS && event.readUInt32LE(12) === ATOMS._NET_WM_PING && this.windows.get(destination)?.answers !== false) {
      // The app's answer: the same message, window set to the root, sent to the root (bit 7: sent).
      const answer = Buffer.from(event);
      answer[0] = 33 | 0x80;
      answer.writeUInt32LE(ROOT, 4);
      setImmediate(() => this.emit(answer));
    }
  }
}

function u32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v >>> 0);
  return b;
}
