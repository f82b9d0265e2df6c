/**
 * The shapes of the AT-SPI replies we use, as zod schemas over dbus-next's decoded
 * bodies (a D-Bus struct is an array, a variant is { signature, value }). One schema
 * per reply signature; the reader parses every body through one of these.
 */
import { z } from 'zod';
import { own } from '../../../shared/own.js';

/** (so): a bus name and an object path. */
export const ObjectRef = z.tuple([z.string(), z.string()]);
export type ObjectRef = z.infer<typeof ObjectRef>;

const Variant = z.object({ signature: z.string(), value: z.unknown() });

/** b */
export const BoolReply = z.tuple([z.boolean()]);
/** s */
export const StringReply = z.tuple([z.string()]);
/** u / i */
export const IntReply = z.tuple([z.number().int()]);
/** a(so) */
export const RefsReply = z.tuple([z.array(ObjectRef)]);
/** au: the state set, two 32-bit words. */
export const StatesReply = z.tuple([z.array(z.number().int().nonnegative()).max(4)]);
/** as */
export const StringsReply = z.tuple([z.array(z.string())]);
/** (iiii): x, y, width, height. */
export const ExtentsReply = z.tuple([z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()])]);
/** v (org.freedesktop.DBus.Properties.Get) */
export const VariantReply = z.tuple([Variant]);
/** a{sv} (org.freedesktop.DBus.Properties.GetAll) */
export const PropertiesReply = z.tuple([z.record(z.string(), Variant)]);
/** a(sss): action name, description, key binding. */
export const ActionsReply = z.tuple([z.array(z.tuple([z.string(), z.string(), z.string()]))]);

/** A property of a GetAll reply, checked against the type we expect of it. */
export function prop<T>(all: Record<string, { value: unknown }>, key: string, schema: z.ZodType<T>): T | undefined {
  const entry = own(all, key);
  if (!entry) return undefined;
  const parsed = schema.safeParse(entry.value);
  return parsed.success ? parsed.data : undefined;
}

export const IFACE = {
  accessible: 'org.a11y.atspi.Accessible',
  application: 'org.a11y.atspi.Application',
  component: 'org.a11y.atspi.Component',
  text: 'org.a11y.atspi.Text',
  value: 'org.a11y.atspi.Value',
  action: 'org.a11y.atspi.Action',
  editableText: 'org.a11y.atspi.EditableText',
  properties: 'org.freedesktop.DBus.Properties',
} as const;

export const REGISTRY: ObjectRef = ['org.a11y.atspi.Registry', '/org/a11y/atspi/accessible/root'];
/** AT-SPI's "no object" reference. */
export const NULL_PATH = '/org/a11y/atspi/null';

/**
 * a((so)(so)(so)iiassusau): Cache.GetItems (GTK 4, Qt): per object its reference, its
 * application, its parent, index in parent, child count, interfaces, name, role,
 * description and states.
 */
export const CacheItemsReply = z.tuple([
  z.array(z.tuple([ObjectRef, ObjectRef, ObjectRef, z.number().int(), z.number().int(), z.array(z.string()), z.string(), z.number().int(), z.string(), z.array(z.number().int().nonnegative()).max(4)])),
]);
