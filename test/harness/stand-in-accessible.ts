/**
 * An app's accessible objects as a toolkit's AT-SPI bridge serves them, on a real bus
 * connection (dbus-next): a test's stand-in app answers the calls click-target.ts and
 * click-owed.ts make of the object that reported a focus or caret (GetRole, GetState,
 * GetExtents) and of the app's tree under a click (GetChildren from the root,
 * GetAccessibleAtPoint). Wire shapes as atk-bridge sends them (atspi/wire.ts): role u,
 * states au (two 32-bit words), extents (iiii) in screen pixels, refs (so).
 * Calls to any path not listed are left to dbus-next (an UnknownObject error), as the
 * bridge answers for a removed object.
 */
import type { Message, MessageBus } from 'dbus-next';

type DbusModule = typeof import('dbus-next');

export interface StandInObject {
  /** AtspiRole number. */
  role: number;
  /** GetState's first word (AtspiStateType bits). */
  states: number;
  /** Screen x, y, width, height. */
  extents: readonly [number, number, number, number];
  /** Paths of its children, in order (GetAccessibleAtPoint answers the first under the point). */
  children?: readonly string[];
}

export interface ServedTree {
  /** Every call answered or refused, as "path member", in the order they came. */
  calls: string[];
  stop(): void;
}

const NULL_PATH = '/org/a11y/atspi/null';

const contains = ([x, y, width, height]: readonly number[], px: number, py: number) =>
  px >= x! && px < x! + width! && py >= y! && py < y! + height!;

/** Serves `objects` (path → object) on `bus` until `stop`. */
export function serveAccessibleTree(bus: MessageBus, dbus: DbusModule, objects: Readonly<Record<string, StandInObject>>): ServedTree {
  const calls: string[] = [];
  const own = (path: string | undefined) => (path !== undefined && Object.hasOwn(objects, path) ? objects[path] : undefined);
  const reply = (msg: Message, signature: string, body: unknown[]) => {
    bus.send(dbus.Message.newMethodReturn(msg, signature, body));
    return true;
  };
  const handler = (msg: Message): boolean => {
    const object = own(msg.path);
    if (!object) return false;
    calls.push(`${msg.path} ${msg.member}`);
    // dbus-next sets `name` (the unique name) once connected; its types leave it out.
    const ref = (path: string) => [(bus as unknown as { name: string }).name, path];
    switch (msg.member) {
      case 'GetRole':
        return reply(msg, 'u', [object.role]);
      case 'GetState':
        return reply(msg, 'au', [[object.states, 0]]);
      case 'GetExtents':
        return reply(msg, '(iiii)', [[...object.extents]]);
      case 'GetChildren':
        return reply(msg, 'a(so)', [(object.children ?? []).map(ref)]);
      case 'GetAccessibleAtPoint': {
        const [px, py] = msg.body as [number, number, number];
        const hit = (object.children ?? []).find((child) => contains(own(child)?.extents ?? [0, 0, 0, 0], px, py));
        return reply(msg, '(so)', [ref(hit ?? NULL_PATH)]);
      }
      default:
        return false;
    }
  };
  bus.addMethodHandler(handler);
  return { calls, stop: () => bus.removeMethodHandler(handler) };
}
