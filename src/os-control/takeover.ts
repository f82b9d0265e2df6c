/**
 * Takeover detection: the agent remembers where it left the pointer; if the pointer is
 * somewhere else later, a person moved it.
 */
import type { Point } from '../shared/actions.js';

export interface TakeoverReport {
  expected: Point;
  actual: Point;
  /** Distance in points. */
  distance: number;
}

export class TakeoverDetector {
  private expected: Point | undefined;

  constructor(
    private readonly readPointer: () => Promise<Point>,
    /** Movement below this many points is not a takeover (rounding, HiDPI). */
    private readonly tolerance = 2,
  ) {}

  /** Called by the input layer after every pointer action. */
  agentLeftPointerAt(p: Point): void {
    this.expected = { x: Math.round(p.x), y: Math.round(p.y) };
  }

  /** Forget the expectation (e.g. after the person was asked to use the mouse). */
  reset(): void {
    this.expected = undefined;
  }

  /** A report when the pointer is not where the agent left it, else undefined. */
  async check(): Promise<TakeoverReport | undefined> {
    if (!this.expected) return undefined;
    const actual = await this.readPointer();
    const distance = Math.hypot(actual.x - this.expected.x, actual.y - this.expected.y);
    return distance > this.tolerance ? { expected: this.expected, actual, distance } : undefined;
  }
}
