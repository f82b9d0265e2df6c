/**
 * The typed text, as the app reports it back: proof for settle (settle.ts rule 5) that
 * the app has handled every key of a `type`, where the screen and the window system
 * cannot give it.
 *
 * Why: Chromium's browser process answers `_NET_WM_PING` (settle-ping.ts) in 1–21 ms
 * while its renderer is still turning the keys into text, and the renderer may stop
 * drawing for longer than any quiet window between two parts of the same text: the
 * probe page drew `Replay ` and only later the rest of `Replay ✓ Grüße 7`. An app with
 * its accessibility bridge on says what it inserted: Chromium sends AT-SPI
 * `object:text-changed:insert` with the inserted text once its renderer has put it in the
 * field (measured on the probe page, quiet 2-core machine: "Re" then "play ✓ Grüße 7",
 * each within ~25 ms of the pixels that show it). The typist knows what it typed, so
 * settle waits until everything typed has come back.
 *
 * The proof is asked only of an app that answers: until the first insert after the keys
 * arrives, nothing is awaited (an app without the bridge, a terminal's password prompt,
 * cost nothing); once one has, settle waits for the rest, bounded by its reaction limit.
 *
 * What counts as "all of it" (`EchoMatch`): the typed characters, control characters
 * left out (Return submits, Tab moves on: neither is inserted), appear in order among
 * the inserted ones (an autocompletion may insert more between them); or a password
 * field's mask — as many inserted characters as typed, all the same one.
 *
 * Toolkits send these events only while someone listens for them (atk-bridge asks the
 * registry), so the watch registers `object:text-changed` with the AT-SPI registry; the
 * registry forgets it when our connection closes.
 */
import { z } from 'zod';
import { withTimeout } from '../shared/promises.js';
import { accessibilityBusAddress } from './accessibility/atspi/bus.js';
import { answersClick, CLICK_ANSWER_EVENTS, CLICK_ANSWER_MATCHES, OpenClickAnswer, type ClickAnswer } from './click-answer.js';
import { owedAnswer } from './click-owed.js';
import { landedOn, reportedObject, type ObjectCall, type ReportedObject } from './click-target.js';

/** Control characters are keys, never inserted text. */
const CONTROL = /\p{Cc}/u;

/**
 * Whether the inserts seen so far contain everything typed: a streaming match (no text
 * kept), fed with each insert's characters in the order they came.
 */
export class EchoMatch {
  private readonly expected: string[] = [];
  private matched = 0;
  private inserted = 0;
  /** The one character every insert consisted of so far (a password mask), '' once two differed. */
  private mask: string | undefined;

  /** Characters typed (added before their keys go out). */
  expect(text: string): void {
    for (const ch of text) if (!CONTROL.test(ch)) this.expected.push(ch);
  }

  /** Characters the app inserted. */
  insert(text: string): void {
    for (const ch of text) {
      this.inserted++;
      this.mask = this.mask === undefined || this.mask === ch ? ch : '';
      if (this.matched < this.expected.length && this.expected[this.matched] === ch) this.matched++;
    }
  }

  /** Something was inserted since the first expect. */
  get seen(): boolean {
    return this.inserted > 0;
  }

  get complete(): boolean {
    const all = this.expected.length;
    return this.matched === all || (this.mask !== undefined && this.mask !== '' && this.inserted >= all);
  }
}

/** What settle reads from an echo on each grab. */
export interface EchoProgress {
  /** The app inserted something since the keys went out. */
  seen: boolean;
  /** performance.now() when all of the typed text had come back, undefined before. */
  completeAt: number | undefined;
  /**
   * The window the keys went to reported typed text back before (echo-memory.ts): its
   * report is owed even while none of it has come yet.
   */
  expected?: boolean;
}

/** One typing call's echo (or several calls' before one settle), collected until `end`. */
export interface TypedEcho {
  expect(text: string): void;
  progress(): EchoProgress;
  end(): void;
}

/** A TextChanged signal's body (AT-SPI Event.Object): detail, offset, length, the text as a variant, properties. */
const TextChangedBody = z.tuple([z.string(), z.number(), z.number(), z.object({ signature: z.string(), value: z.unknown() }), z.unknown()]).rest(z.unknown());

/** The inserted text of a TextChanged signal's body, undefined for a deletion or another shape. */
export function insertedText(body: unknown): string | undefined {
  const parsed = TextChangedBody.safeParse(body);
  if (!parsed.success) return undefined;
  const [detail, , , data] = parsed.data;
  return detail.startsWith('insert') && typeof data.value === 'string' ? data.value : undefined;
}

type DbusModule = typeof import('dbus-next');
type MessageBus = import('dbus-next').MessageBus;
type Message = import('dbus-next').Message;

const TEXT_CHANGED_MATCH = "type='signal',interface='org.a11y.atspi.Event.Object',member='TextChanged'";
const SIGNAL = 4;

/**
 * A signal as the bus daemon passes it on: the daemon sets every message's sender, and a
 * signal carries its object's path and its interface and member (D-Bus specification,
 * "Message Format"). Read once at the edge, so a report's object is always asked by both
 * its sender and its path; anything else on the connection (the replies to our own calls)
 * is no report.
 */
const BusSignal = z.object({ type: z.literal(SIGNAL), sender: z.string(), path: z.string(), interface: z.string(), member: z.string(), body: z.unknown() });

export class TextEchoWatch {
  private readonly open = new Set<{ match: EchoMatch; completeAt: number | undefined }>();
  /** Clicks collecting their answer (click-answer.ts). */
  private readonly clicks = new Set<OpenClickAnswer>();
  private closed = false;

  private constructor(
    private readonly bus: MessageBus,
    private readonly dbus: DbusModule,
  ) {
    bus.on('message', (message: Message) => {
      const signal = BusSignal.safeParse(message);
      if (!signal.success) return;
      const { sender, path, interface: iface, member, body } = signal.data;
      const answer = answersClick(iface, member, body);
      if (answer && this.clicks.size > 0) {
        // One question to the object's app per report, whatever the number of open clicks.
        let object: Promise<ReportedObject> | undefined;
        const asked = () => (object ??= reportedObject(this.caller(sender, path)));
        for (const click of this.clicks) void click.note(answer, sender, async (kind, point) => landedOn(await asked(), kind, point));
      }
      if (member !== 'TextChanged' || iface !== 'org.a11y.atspi.Event.Object') return;
      const text = insertedText(body);
      if (text === undefined) return;
      for (const echo of this.open) {
        echo.match.insert(text);
        if (echo.completeAt === undefined && echo.match.complete) echo.completeAt = performance.now();
      }
    });
    // A connection that fails or ends (the bus daemon exits with the session) closes the
    // watch, so the next typing opens a new one (currentTextEchoWatch). dbus-next reports a
    // stream's error on the bus but its end only on the connection: a watch on a bus that
    // went away stayed open, and deaf, for the rest of the process.
    const closeOnFailure = () => this.close();
    bus.on('error', closeOnFailure);
    connectionStream(bus)?.once('close', closeOnFailure);
  }

  /**
   * Connects to the accessibility bus of `env`'s session and asks toolkits for text
   * events. Rejects (AtspiBusUnavailable, a call's error) when there is no bus to ask.
   */
  static async open(env: NodeJS.ProcessEnv = process.env): Promise<TextEchoWatch> {
    const address = await accessibilityBusAddress(env);
    const imported = await import('dbus-next');
    const dbus = ((imported as { default?: DbusModule }).default ?? imported) as DbusModule;
    const bus = dbus.sessionBus({ busAddress: address });
    try {
      await bounded(new Promise<void>((resolve, reject) => {
        bus.on('connect', () => resolve());
        bus.on('error', (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))));
      }), `connecting to the accessibility bus`);
      const call = (destination: string, path: string, iface: string, member: string, body: unknown[]) =>
        bounded(bus.call(new dbus.Message({ destination, path, interface: iface, member, signature: 's', body })), `${iface}.${member}`);
      for (const rule of [TEXT_CHANGED_MATCH, ...CLICK_ANSWER_MATCHES]) await call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'AddMatch', [rule]);
      for (const event of ['object:text-changed', ...CLICK_ANSWER_EVENTS]) await call('org.a11y.atspi.Registry', '/org/a11y/atspi/registry', 'org.a11y.atspi.Registry', 'RegisterEvent', [event]);
    } catch (error) {
      bus.disconnect();
      throw error;
    }
    // Kept for the process's life: it must not hold a CLI open.
    connectionStream(bus)?.unref?.();
    return new TextEchoWatch(bus, dbus);
  }

  /** Method calls on one object of the bus (a report's sender and path), their reply bodies. */
  private caller(destination: string, path: string): ObjectCall {
    return async (iface, member, signature, body) => {
      // dbus-next resolves null only for a call flagged NO_REPLY_EXPECTED; these never are.
      const reply = (await this.bus.call(new this.dbus.Message({ destination, path, interface: iface, member, signature, body }))) as Message;
      return reply.body;
    };
  }

  /** Starts collecting inserts now, before the keys go out. */
  begin(): TypedEcho {
    const echo = { match: new EchoMatch(), completeAt: undefined as number | undefined };
    if (!this.closed) this.open.add(echo);
    return {
      expect: (text) => {
        echo.match.expect(text);
        echo.completeAt = undefined;
      },
      progress: () => ({ seen: echo.match.seen, completeAt: echo.completeAt }),
      end: () => this.open.delete(echo),
    };
  }

  /** Starts collecting a click's answer (the focus or the caret moved) now, right after the button press. */
  beginClick(): ClickAnswer {
    const click = new OpenClickAnswer(
      (ended) => this.clicks.delete(ended),
      (app, point) => owedAnswer((destination, path) => this.caller(destination, path), app, point),
    );
    if (!this.closed) this.clicks.add(click);
    return click;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.open.clear();
    this.clicks.clear();
    this.bus.disconnect();
  }
}

/** The socket under a dbus-next bus (its connection keeps it as `stream`; its types leave it out). */
function connectionStream(bus: MessageBus): { unref?: () => void; once(event: 'close', listener: () => void): unknown } | undefined {
  return (bus as unknown as { _connection?: { stream?: { unref?: () => void; once(event: 'close', listener: () => void): unknown } } })._connection?.stream;
}

/**
 * How long opening may take: not on any action's path (typing uses a watch only once it
 * is open), so generous — at load ~37 on 2 cores the 2 s call limit of the tree reader
 * was not enough and the first bench had no watch at all.
 */
const OPEN_TIMEOUT_MS = 15_000;
/** After a failed open, the next typing tries again only this much later. */
const RETRY_MS = 10_000;

function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  return withTimeout(promise, OPEN_TIMEOUT_MS, what);
}

/** The process's watch per accessibility bus: open, opening, or failed at some time. */
const watches = new Map<string, { watch?: TextEchoWatch; opening?: Promise<TextEchoWatch | undefined>; failedAt?: number }>();

const busKey = (env: NodeJS.ProcessEnv) => `${env.AT_SPI_BUS_ADDRESS ?? ''}|${env.DBUS_SESSION_BUS_ADDRESS ?? ''}`;

/**
 * Opens the process's echo watch for `env`'s session, or joins the opening under way;
 * undefined when there is no accessibility bus (typing is then settled from the screen
 * and the app's round trip alone). For warm-up: typing itself never waits for it.
 */
export function openTextEchoWatch(env: NodeJS.ProcessEnv = process.env): Promise<TextEchoWatch | undefined> {
  const key = busKey(env);
  if (key === '|') return Promise.resolve(undefined);
  const slot = watches.get(key) ?? {};
  watches.set(key, slot);
  if (slot.watch?.isOpen) return Promise.resolve(slot.watch);
  slot.opening ??= TextEchoWatch.open(env).then(
    (watch) => {
      slot.watch = watch;
      slot.opening = undefined;
      return watch;
    },
    () => {
      slot.failedAt = performance.now();
      slot.opening = undefined;
      return undefined;
    },
  );
  return slot.opening;
}

/**
 * The open watch for `env`'s session, if there is one now. Starts opening it when there
 * is none (again RETRY_MS after a failure, and after its connection failed), for the
 * next typing: the keys never wait for the bus.
 */
export function currentTextEchoWatch(env: NodeJS.ProcessEnv = process.env): TextEchoWatch | undefined {
  const slot = watches.get(busKey(env));
  if (slot?.watch?.isOpen) return slot.watch;
  if (!slot?.opening && (slot?.failedAt === undefined || performance.now() - slot.failedAt >= RETRY_MS)) void openTextEchoWatch(env);
  return undefined;
}
