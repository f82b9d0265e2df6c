import type { Rect } from '../../shared/actions.js';
import type { CheckResult } from './results-schema.js';
import type { Expectation } from './plan-types.js';

/**
 * The shapes of a deterministic check's result and of a region-text source, apart from
 * checks.ts so a source (element-check.ts) and the checks that call it do not import
 * each other.
 */

/** A check's status and result: inferred from the one QA result schema (results-schema.ts). */
export type { CheckResult, CheckStatus } from './results-schema.js';

/** What a region-text check gives a source: the expectation, where, and two captures of it. */
export interface RegionQuery {
  expectation: Extract<Expectation, { kind: 'region_text' | 'screen_text' }>;
  /** Desktop coordinates of the region. */
  region: Rect;
  /** Two captures of the region, taken CAPTURE_GAP_MS apart (PNG). */
  captures: [Buffer, Buffer];
  /** Words used in the detail: `region "display"`, `the screen`, … */
  where: string;
  pixelRatio: number;
  signal?: AbortSignal;
}

export interface RegionTextSource {
  readonly name: 'tree' | 'ocr';
  /** The check's status and detail, or undefined when this source cannot read that region. */
  check(query: RegionQuery): Promise<Omit<CheckResult, 'expectation' | 'source' | 'image'> | undefined>;
}
