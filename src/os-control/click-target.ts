/**
 * Whether an AT-SPI focus or caret report names the object a click landed on
 * (click-answer.ts): the report must come from an object under the click point that is
 * not a whole view (a document, a frame, a window, an application), and a caret report
 * from editable text.
 *
 * Why: the page's own reports from before the click passed for its answer. In the
 * click-then-type reproduction (Chromium, five busy loops, load ~17-35) the probe page
 * replaced its controls just before the click; Chromium's reports of that change (the
 * focus moving to the page, the caret of another field at 0) reached us 24 ms *after* the
 * button press, the keys went out at once, and the click itself was answered 4.3 s later
 * by the field under the pointer: 16 keys before the click, the field empty. A report
 * about another object, or about the whole page, says nothing about this click.
 */
import { z } from 'zod';
import { withTimeout } from '../shared/promises.js';
import type { Point } from '../shared/actions.js';
import { ExtentsReply, StatesReply } from './accessibility/atspi/wire.js';

/** What an answering signal says of a click (click-answer.ts answersClick): something gained the focus, or a caret moved. Here, not there: click-answer imports this file through click-owed (an import cycle otherwise). */
export type ClickAnswerKind = 'focus' | 'caret';

/** AtspiRole numbers (atspi-constants.h) whose focus follows page loads and removed elements, not a click. */
export const WHOLE_VIEW_ROLES: ReadonlySet<number> = new Set([
  14, // desktop frame
  23, // frame
  46, // root pane
  69, // window
  75, // application
  82, // document frame
  92, // document spreadsheet
  93, // document presentation
  94, // document text
  95, // document web
  96, // document email
]);

/** What the report's object is: its role, its screen extents (x, y, width, height), whether it takes typed text. */
export interface ReportedObject {
  role: number;
  extents: readonly [number, number, number, number];
  editable: boolean;
}

/**
 * Whether `object` is what a click at `point` landed on. Without a point (a click whose
 * place is not known) only the role decides. GTK 4 answers extents relative to its window
 * (reader.ts): its reports then miss the point unless the window sits at the screen's
 * corner, its windows are not learnt as answering clicks and keys after a click into them
 * go out at once, as before click-answer.ts — GTK 4 gets a press and the keys after it
 * through one event queue, so they cannot overtake the click there.
 */
export function landedOn(object: ReportedObject, kind: ClickAnswerKind, point: Point | undefined): boolean {
  if (WHOLE_VIEW_ROLES.has(object.role)) return false;
  // A caret outside editable text is the page's reading place: Chromium moved it to 0 in
  // the page's body section (1000×640, the whole page) when the focus went to the page.
  if (kind === 'caret' && !object.editable) return false;
  if (!point) return true;
  const [x, y, width, height] = object.extents;
  return point.x >= x && point.x < x + width && point.y >= y && point.y < y + height;
}

const RoleReply = z.tuple([z.number().int().nonnegative()]);
/** ATSPI_STATE_EDITABLE's bit (constants.ts), in the first 32-bit word of GetState's set. */
const EDITABLE_BIT = 7;

/** One D-Bus method call on the report's object, its reply body as sent. */
export type ObjectCall = (iface: string, member: string, signature: string, body: unknown[]) => Promise<unknown>;

/**
 * How long the object's app may take to say what the object is. Chromium's browser
 * process answers these from its own copy of the page's tree (1-21 ms quiet); under load
 * ~30 a few hundred ms. Past this the report is not taken as the answer (keys then wait
 * for another one, up to click-focus.ts's limit).
 */
export const OBJECT_LOOKUP_MS = 3_000;

/**
 * Asks the report's object for its role and screen extents. Rejects when the object is
 * gone (a report about a removed element: it cannot be where keys go), answers with
 * another shape, or does not answer within OBJECT_LOOKUP_MS.
 */
export async function reportedObject(call: ObjectCall): Promise<ReportedObject> {
  const [role, editable, extents] = await withTimeout(
    Promise.all([
      call('org.a11y.atspi.Accessible', 'GetRole', '', []).then((body) => RoleReply.parse(body)[0]),
      call('org.a11y.atspi.Accessible', 'GetState', '', []).then((body) => ((StatesReply.parse(body)[0][0] ?? 0) & (1 << EDITABLE_BIT)) !== 0),
      // 0: ATSPI_COORD_TYPE_SCREEN.
      call('org.a11y.atspi.Component', 'GetExtents', 'u', [0]).then((body) => ExtentsReply.parse(body)[0]),
    ]),
    OBJECT_LOOKUP_MS,
    'asking a reported object its role, extents and state',
  );
  return { role, extents, editable };
}
