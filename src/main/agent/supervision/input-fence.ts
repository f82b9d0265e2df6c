/**
 * Fences in an input event stream, each matched to its own event. A fence is a change of
 * a property the stream reports (x11-input-activity.ts: a property of the XTEST device,
 * read from `xinput test-xi2`); it shows up in the stream behind every event the server
 * sent before it, so once it is read, everything of ours still in the pipe has been read.
 *
 * Each fence in flight has a property of its own (a slot), so an event says which fence
 * it is. The review of d31485d found the old single property's flaw: the next event
 * resolved the oldest waiter, so one change that never showed up (one made before the
 * stream listened, one the server refused, one past its time limit) shifted every later
 * fence onto the wrong event for the rest of the stream.
 *
 * Order: the sender puts the changes on one connection in fence order, and the server
 * reports them in the order it applied them. So when fence n's event is read, every older
 * fence has been passed too (its event was read before, or never comes) and is resolved
 * with it, and its slot is free again. A fence that failed or ran out of time resolves
 * (lost: not waited for) but keeps its slot until a later fence's event proves its own can
 * no longer come; a slot is never reused while its old event may still arrive.
 */

/**
 * The longest a fence is waited for before it counts as lost (its event never read: the
 * stream ended, or the server dropped the property change). 40× the longest lag of the
 * stream measured: an XTEST click read 755 ms after xdotool returned, load ~35, a reader
 * niced 10 (40 clicks; median 1 ms).
 */
export const FENCE_LIMIT_MS = 30_000;

/**
 * Fences held at once, at most. A slot is freed by its own event or a later one, so in a
 * live stream one or two are held (an action every few hundred ms, events read within
 * ~1 ms, 755 ms at worst under load). Eight held means eight changes in a row never came
 * back: the stream does not carry them, and further fences are lost at once rather than
 * making a property (a server atom, kept until the server exits) per action.
 */
export const FENCE_SLOTS = 8;

export interface FenceSender {
  /**
   * Changes slot `slot`'s property to `value` (the fence's number); resolves once the
   * server applied it, rejects when it did not. Called in fence order; the sender keeps
   * that order on the wire.
   */
  set(slot: number, value: number): Promise<void>;
  /** Removes the properties of these slots (the stream closes). */
  remove(slots: number[]): void;
}

export interface Fences {
  /** Resolves once the stream passed every event sent before this call, or the fence is lost. */
  next(): Promise<void>;
  /** The stream read a change of slot `slot`'s property. */
  seen(slot: number): void;
  /** Resolves every fence waiting and removes the slots' properties. */
  close(): void;
}

interface Fence {
  slot: number;
  /** Resolves the fence's promise (again: no effect). */
  release: () => void;
}

export function createFences(sender: FenceSender, limitMs = FENCE_LIMIT_MS): Fences {
  /** Fences whose event may still come, oldest first; each holds its slot. */
  const held: Fence[] = [];
  let count = 0;
  /** Slots 0..used-1 have had a property made. */
  let used = 0;
  let closed = false;

  const freeSlot = (): number | undefined => {
    for (let slot = 0; slot < FENCE_SLOTS; slot++) if (!held.some((f) => f.slot === slot)) return slot;
    return undefined;
  };

  return {
    next() {
      const slot = closed ? undefined : freeSlot();
      if (slot === undefined) return Promise.resolve();
      used = Math.max(used, slot + 1);
      return new Promise<void>((resolve) => {
        const limit = setTimeout(release, limitMs);
        limit.unref();
        function release(): void {
          clearTimeout(limit);
          resolve();
        }
        held.push({ slot, release });
        // Not applied (or not known to be): lost, not waited for; the slot stays held (above).
        sender.set(slot, ++count).catch(release);
      });
    },
    seen(slot) {
      // -1 (no fence in flight holds it: a change before this stream's first fence, or a stale one) releases none.
      const at = held.findIndex((f) => f.slot === slot);
      for (const fence of held.splice(0, at + 1)) fence.release();
    },
    close() {
      if (closed) return;
      closed = true;
      for (const fence of held.splice(0)) fence.release();
      if (used > 0) sender.remove(Array.from({ length: used }, (_, slot) => slot));
    },
  };
}
