import type { Rect } from '../../shared/actions.js';
import type { Expectation } from './plan-types.js';

/**
 * The shapes of a deterministic check's result and of a region-text source, apart from
 * checks.ts so a source (element-check.ts) and the checks that call it do not import
 * each other.
 */

/**
 * pass / fail / inconclusive. Inconclusive: DeskPilot could not read the thing well
 * enough to overrule anyone (low OCR confidence, readings that disagree or change
 * between two captures, characters the expected text could not contain). It never
 * fails a case; the model's verdict stands (decide.ts).
 */
export type CheckStatus = 'pass' | 'fail' | 'inconclusive';

/** The outcome of one exact expectation, checked by DeskPilot itself. */
export interface CheckResult {
  /** 1-based number of the expectation in the case's Expected list. */
  expectation: number;
  source: string;
  status: CheckStatus;
  /** What was found: the OCR text or the window title. */
  actual: string;
  /** One sentence for the report. */
  detail: string;
  /** The captured region, when one was read (absolute path). */
  image?: string;
}

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
