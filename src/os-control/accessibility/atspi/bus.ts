/**
 * One connection to the AT-SPI accessibility bus, through dbus-next with raw messages
 * (its proxy objects introspect every object first, which AT-SPI objects answer badly
 * and which would double the calls). Every reply body is parsed with zod: a toolkit
 * that answers with another shape is a clear error, never a wrong tree.
 *
 * Where the bus is: AT_SPI_BUS_ADDRESS when set (libatspi honours it too), otherwise
 * the session bus's org.a11y.Bus.GetAddress. (libatspi also reads the X root window's
 * AT_SPI_BUS property; a session without a session bus is not supported here.)
 */
import type { z } from 'zod';
import { ACCESSIBILITY_LIMITS } from '../limits.js';

type DbusModule = typeof import('dbus-next');
type MessageBus = import('dbus-next').MessageBus;

let dbusModule: Promise<DbusModule> | undefined;
/** dbus-next loads on first use: `deskpilot --help` and runs without the tree never pay for it. */
function loadDbus(): Promise<DbusModule> {
  dbusModule ??= import('dbus-next').then((m) => ((m as { default?: DbusModule }).default ?? m) as DbusModule);
  return dbusModule;
}

export class AtspiCallError extends Error {
  constructor(
    message: string,
    /** The D-Bus error name (org.freedesktop.DBus.Error.UnknownMethod …), when the peer answered with one. */
    readonly dbusName?: string,
  ) {
    super(message);
    this.name = 'AtspiCallError';
  }
}

export class AtspiBusUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AtspiBusUnavailable';
  }
}

export interface CallSpec {
  destination: string;
  path: string;
  iface: string;
  member: string;
  signature?: string;
  body?: unknown[];
}

export interface AtspiBus {
  readonly address: string;
  /** One method call; the reply body parsed with `schema`. Rejects with AtspiCallError. */
  call<T>(spec: CallSpec, schema: z.ZodType<T>): Promise<T>;
  /** Calls made on this connection so far (the bench reports them). */
  readonly calls: number;
  close(): void;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new AtspiCallError(`${what}: no answer within ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

async function connect(address: string): Promise<{ bus: MessageBus; dbus: DbusModule; failed: Promise<never> }> {
  const dbus = await loadDbus();
  const bus = dbus.sessionBus({ busAddress: address });
  // A connection error is an 'error' event: unhandled it would end the process.
  let fail: (e: Error) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  failed.catch(() => undefined); // observed through the races below; never an unhandled rejection
  bus.on('error', (err: unknown) => fail(new AtspiBusUnavailable(`D-Bus connection to ${address.split(',')[0]} failed: ${err instanceof Error ? err.message : String(err)}`)));
  await withTimeout(
    Promise.race([new Promise<void>((resolve) => bus.on('connect', () => resolve())), failed]),
    ACCESSIBILITY_LIMITS.connectTimeoutMs,
    `connecting to ${address.split(',')[0]}`,
  ).catch((err: unknown) => {
    bus.disconnect();
    throw err instanceof AtspiBusUnavailable ? err : new AtspiBusUnavailable(err instanceof Error ? err.message : String(err));
  });
  return { bus, dbus, failed };
}

function makeBus(address: string, conn: { bus: MessageBus; dbus: DbusModule; failed: Promise<never> }): AtspiBus {
  const { bus, dbus, failed } = conn;
  let calls = 0;
  let closed = false;
  return {
    address,
    get calls() {
      return calls;
    },
    async call<T>(spec: CallSpec, schema: z.ZodType<T>): Promise<T> {
      if (closed) throw new AtspiCallError('the accessibility bus connection is closed');
      calls++;
      const what = `${spec.iface}.${spec.member} on ${spec.destination}${spec.path}`;
      const message = new dbus.Message({
        destination: spec.destination,
        path: spec.path,
        interface: spec.iface,
        member: spec.member,
        signature: spec.signature ?? '',
        body: spec.body ?? [],
      });
      let reply: import('dbus-next').Message | null;
      try {
        reply = await withTimeout(Promise.race([bus.call(message), failed]), ACCESSIBILITY_LIMITS.callTimeoutMs, what);
      } catch (err) {
        if (err instanceof AtspiCallError || err instanceof AtspiBusUnavailable) throw err;
        const name = (err as { type?: unknown }).type;
        throw new AtspiCallError(`${what}: ${err instanceof Error ? err.message : String(err)}`, typeof name === 'string' ? name : undefined);
      }
      const parsed = schema.safeParse(reply?.body ?? []);
      if (!parsed.success) {
        throw new AtspiCallError(`${what}: unexpected reply ${JSON.stringify(reply?.body ?? []).slice(0, 200)} (${parsed.error.issues[0]?.message ?? 'invalid'})`);
      }
      return parsed.data;
    },
    close() {
      if (closed) return;
      closed = true;
      bus.disconnect();
    },
  };
}

/**
 * The accessibility bus's address: AT_SPI_BUS_ADDRESS, or asked from the session bus.
 * Throws AtspiBusUnavailable with the reason when there is none.
 */
export async function accessibilityBusAddress(env: NodeJS.ProcessEnv): Promise<string> {
  const direct = env.AT_SPI_BUS_ADDRESS?.trim();
  if (direct) return direct;
  const session = env.DBUS_SESSION_BUS_ADDRESS?.trim();
  if (!session) throw new AtspiBusUnavailable('no session bus (DBUS_SESSION_BUS_ADDRESS is not set), so no accessibility bus');
  const conn = await connect(session);
  const bus = makeBus(session, conn);
  try {
    const [address] = await bus.call(
      { destination: 'org.a11y.Bus', path: '/org/a11y/bus', iface: 'org.a11y.Bus', member: 'GetAddress' },
      (await import('./wire.js')).StringReply,
    );
    if (!address) throw new AtspiBusUnavailable('the session bus gave an empty accessibility bus address');
    return address;
  } catch (err) {
    if (err instanceof AtspiBusUnavailable) throw err;
    throw new AtspiBusUnavailable(`the session bus answers, the accessibility bus launcher does not (at-spi2-core): ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    bus.close();
  }
}

/** Opens a new connection to the accessibility bus. Throws AtspiBusUnavailable with the reason. */
export async function openAccessibilityBus(env: NodeJS.ProcessEnv = process.env): Promise<AtspiBus> {
  const address = await accessibilityBusAddress(env);
  return makeBus(address, await connect(address));
}

/**
 * The one connection a process keeps to the accessibility bus of its session, opened on
 * first use (a new one costs two connections and a GetAddress: 40–300 ms on a busy
 * 2-core machine, more than reading a calculator's tree). Its socket does not keep the
 * process alive. A connection that failed is dropped and the next call opens a new one.
 */
const shared = new Map<string, Promise<AtspiBus>>();

export function sharedAccessibilityBus(env: NodeJS.ProcessEnv = process.env): Promise<AtspiBus> {
  const key = `${env.AT_SPI_BUS_ADDRESS ?? ''}|${env.DBUS_SESSION_BUS_ADDRESS ?? ''}`;
  let bus = shared.get(key);
  if (!bus) {
    bus = (async () => {
      const address = await accessibilityBusAddress(env);
      const conn = await connect(address);
      unrefSocket(conn.bus);
      conn.failed.catch(() => shared.delete(key));
      return makeBus(address, conn);
    })();
    bus.catch(() => shared.delete(key));
    shared.set(key, bus);
  }
  return bus;
}

/** Forgets a shared connection that failed, so the next call reconnects. */
export function dropSharedBus(bus: AtspiBus): void {
  for (const [key, value] of shared) {
    void value.then(
      (b) => {
        if (b === bus) shared.delete(key);
      },
      () => undefined,
    );
  }
  bus.close();
}

/** dbus-next keeps its socket referenced; this connection must not hold a CLI open. */
function unrefSocket(bus: MessageBus): void {
  const stream = (bus as unknown as { _connection?: { stream?: { unref?: () => void } } })._connection?.stream;
  stream?.unref?.();
}
