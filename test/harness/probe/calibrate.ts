/**
 * Where the probe page's client (0,0) is on the screen, measured by moving the pointer.
 *
 * A pointermove the page reports after our move is not always *from* our move: Chromium
 * also reports one for wherever the pointer already was when its window is mapped or
 * raised, and under load that one can arrive after the move was sent. Taking it made the
 * origin wrong by exactly (our point − the old pointer): in the fresh Debian root the
 * pointer still sat at Xvfb's start-up centre (640, 400) and serve-e2e's probe took
 * (650, 485) as its point, so every later click was reported (+11, +85) off (three
 * failures in each of two runs, 12-04 17:28 and 12-05 04:35).
 *
 * So a reading counts only when a second move, to another point, agrees with it: an event
 * after the move to B whose origin (B − its client position) is also the origin of an event
 * after the move to A. A stale event agrees with neither, whenever it arrives; if no pair
 * agrees within the wait, the attempt is made again a little further on.
 */
import type { ProbeEvent } from './server.js';

export interface Point {
  x: number;
  y: number;
}

export interface CalibrationIo {
  /** Puts the pointer on a screen pixel (returns once the X server has it). */
  move(to: Point): void;
  /** The sequence number the page's next event will get. */
  nextSeq(): number;
  /** The first event at or after `sinceSeq` matching `accept`; rejects after `timeoutMs`. */
  waitFor(accept: (e: ProbeEvent) => boolean, sinceSeq: number, timeoutMs: number): Promise<ProbeEvent>;
  /** The events recorded so far at or after `sinceSeq`. */
  eventsSince(sinceSeq: number): ProbeEvent[];
}

/** Per attempt the two points move on by this much, so no move is to where the pointer already is. */
const ATTEMPT_STEP: Point = { x: 7, y: 5 };
/** B's offset from A: both coordinates differ, so an event from A cannot pass for one from B. */
const SECOND_POINT: Point = { x: 13, y: 9 };

const clientOf = (e: ProbeEvent): Point | undefined =>
  e.type === 'pointermove' && e.clientX !== undefined && e.clientY !== undefined ? { x: e.clientX, y: e.clientY } : undefined;

/** The screen position of client (0,0), confirmed by two moves; `start` must be inside the page. */
export async function calibrateOrigin(io: CalibrationIo, start: Point, options: { attempts?: number; waitMs?: number } = {}): Promise<Point> {
  const attempts = options.attempts ?? 5;
  const waitMs = options.waitMs ?? 2_000;
  const tried: string[] = [];
  for (let k = 0; k < attempts; k++) {
    const a = { x: start.x + k * ATTEMPT_STEP.x, y: start.y + k * ATTEMPT_STEP.y };
    const b = { x: a.x + SECOND_POINT.x, y: a.y + SECOND_POINT.y };
    const sinceA = io.nextSeq();
    io.move(a);
    // B only once the page reported a move: Chromium sends at most one pointermove per frame,
    // so a move to B right behind A's would merge the two and leave nothing to confirm with.
    try {
      await io.waitFor((e) => clientOf(e) !== undefined, sinceA, waitMs);
    } catch {
      tried.push(`move to (${a.x}, ${a.y}): the page reported no pointermove`);
      continue;
    }
    const sinceB = io.nextSeq();
    io.move(b);
    const originFrom = (p: Point, e: ProbeEvent): Point | undefined => {
      const c = clientOf(e);
      return c && { x: p.x - c.x, y: p.y - c.y };
    };
    // An event after B's move, and another after A's move, that put client (0,0) at the same pixel.
    const confirmed = (eb: ProbeEvent): boolean => {
      const ob = originFrom(b, eb);
      return (
        ob !== undefined &&
        io.eventsSince(sinceA).some((ea) => {
          const oa = ea !== eb ? originFrom(a, ea) : undefined;
          return oa !== undefined && oa.x === ob.x && oa.y === ob.y;
        })
      );
    };
    try {
      const eb = await io.waitFor(confirmed, sinceB, waitMs);
      return originFrom(b, eb)!;
    } catch {
      const seen = io
        .eventsSince(sinceA)
        .map((e) => clientOf(e))
        .filter((c) => c !== undefined)
        .map((c) => `(${c.x}, ${c.y})`);
      tried.push(`moves to (${a.x}, ${a.y}) then (${b.x}, ${b.y}): page saw the pointer at ${seen.join(' ') || 'nothing'}`);
    }
  }
  throw new Error(`probe: could not measure where the page is on the screen; ${tried.join('; ')}`);
}
