import { randomUUID } from 'node:crypto';
import type { Frame } from './frame-pool.js';

/**
 * Frame identity for `Computer.observe`: a capture whose raw pixels equal the previous
 * capture of the same source keeps that capture's frame id, and its encodings are
 * reused instead of resized and encoded again (issue 19: the runner then tells the
 * model "the screen did not change" instead of sending the same image; comparing 8 MB
 * is a memcmp, well under 1 ms, against ~10–20 ms of resize + encode).
 * Holds one frame (the last), so memory stays at one grab: it retains that frame and
 * releases it when another replaces it (frame-pool.ts).
 */
export class FrameCache<Encoded> {
  private last: { source: string; frame: Frame; frameId: string; encodings: Map<string, Encoded> } | undefined;

  /**
   * The frame id of `data` grabbed from `source` (a display id), and the encoding made
   * earlier for `encoding` (target, thumbnail size, drawn pointer) when the pixels are the same.
   */
  identify(source: string, frame: Frame, encoding: string): { frameId: string; cached?: Encoded } {
    const last = this.last;
    const data = frame.data;
    if (last && last.source === source && last.frame.data.length === data.length && last.frame.data.equals(data)) {
      const cached = last.encodings.get(encoding);
      return cached === undefined ? { frameId: last.frameId } : { frameId: last.frameId, cached };
    }
    const frameId = randomUUID();
    // Kept by reference, not copied: the cache holds its own count on the frame.
    last?.frame.release();
    this.last = { source, frame: frame.retain(), frameId, encodings: new Map() };
    return { frameId };
  }

  remember(frameId: string, encoding: string, encoded: Encoded): void {
    if (this.last?.frameId !== frameId) return;
    // A handful of targets at most (the model's, a zoom-free preview); cap it anyway.
    if (this.last.encodings.size >= 4) this.last.encodings.clear();
    this.last.encodings.set(encoding, encoded);
  }

  forget(): void {
    this.last?.frame.release();
    this.last = undefined;
  }
}
