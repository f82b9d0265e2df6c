import { z } from 'zod';
import { RectSchema } from '../../shared/actions.js';
import { MAX_TIMER_MESSAGE, MAX_TIMER_MS } from '../../shared/timers.js';

/**
 * A test plan, after parsing its Markdown (docs/TEST-PLANS.md). Every element keeps
 * the line it came from, so later errors (a failed check, a bad region) can point
 * back into the file.
 */

/** Names an expectation cannot use as a region: they mean something else. */
export const RESERVED_REGION_NAMES = ['title', 'screen', 'text', 'element'] as const;

const TextMatchSchema = z.enum(['equals', 'contains']);
/** What every expectation has: the text, and the plan line it was written on (`source` as written). */
const expectedText = { text: z.string().min(1), line: z.number().int().positive(), source: z.string() };

export const ExpectationSchema = z.discriminatedUnion('kind', [
  /** The text OCR reads in a named region equals / contains `text`. */
  z.object({ kind: z.literal('region_text'), region: z.string().min(1), match: TextMatchSchema, ...expectedText }).strict(),
  /** The text appears on screen: in the region the agent points at, else anywhere on the screen. */
  z.object({ kind: z.literal('screen_text'), ...expectedText }).strict(),
  /**
   * An element of the app's accessibility tree (element-check.ts): the first element on
   * screen with that role (and name, when given) has that value / name / state, or
   * exists (`text` "yes") or not ("no").
   */
  z
    .object({
      kind: z.literal('element'),
      role: z.string().min(1).max(64),
      name: z.string().optional(),
      property: z.enum(['value', 'name', 'state', 'exists']),
      match: TextMatchSchema,
      ...expectedText,
    })
    .strict(),
  /** The app's window title equals / contains `text`. */
  z.object({ kind: z.literal('title'), match: TextMatchSchema, ...expectedText }).strict(),
]);
export type Expectation = z.infer<typeof ExpectationSchema>;

export const GeometrySchema = z
  .object({
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    x: z.number().int(),
    y: z.number().int(),
  })
  .strict();
export type Geometry = z.infer<typeof GeometrySchema>;

export const CaseLimitsSchema = z
  .object({
    timeoutMs: z.number().int().positive().max(MAX_TIMER_MS, MAX_TIMER_MESSAGE),
    maxSteps: z.number().int().positive().max(500),
    retries: z.number().int().min(0).max(5),
  })
  .strict();
export type CaseLimits = z.infer<typeof CaseLimitsSchema>;

export const TestCaseSchema = z
  .object({
    name: z.string().min(1),
    line: z.number().int().positive(),
    steps: z.array(z.string().min(1)).min(1),
    /** Every expected result as written, the exact ones ("Expect …") included. */
    expected: z.array(z.string().min(1)).min(1),
    expectations: z.array(ExpectationSchema),
    limits: CaseLimitsSchema,
  })
  .strict();
export type TestCase = z.infer<typeof TestCaseSchema>;

export const TestPlanSchema = z
  .object({
    title: z.string().min(1),
    description: z.string(),
    file: z.string().optional(),
    app: z
      .object({
        /** Shell command that starts the app (run with /bin/sh -c). */
        launch: z.string().min(1),
        /** Part of the window title to wait for after launching. */
        window: z.string().min(1).optional(),
        /** Move and resize the window to this once it appears. */
        geometry: GeometrySchema.optional(),
        /** Named regions, relative to the app window's top-left corner, in logical pixels. */
        regions: z.record(z.string(), RectSchema),
        startTimeoutMs: z.number().int().positive().max(MAX_TIMER_MS, MAX_TIMER_MESSAGE),
        /** restart: a fresh app for every case (default); keep: one app for the whole plan. */
        reset: z.enum(['restart', 'keep']),
      })
      .strict(),
    setup: z
      .object({
        /** Shell commands run before each launch. */
        commands: z.array(z.string().min(1)),
        /** Plain-language setup the agent does at the start of each case. */
        instructions: z.array(z.string().min(1)),
      })
      .strict(),
    cases: z.array(TestCaseSchema).min(1),
  })
  .strict();
export type TestPlan = z.infer<typeof TestPlanSchema>;

export const DEFAULT_CASE_LIMITS: CaseLimits = { timeoutMs: 180_000, maxSteps: 30, retries: 0 };
export const DEFAULT_START_TIMEOUT_MS = 15_000;

/** A plan that cannot be run; the message names the file and line. */
export class PlanError extends Error {
  constructor(
    readonly problems: Array<{ line: number; message: string }>,
    readonly file = 'plan',
    /** Problems listed in the message; the rest are counted (35 MB of junk must not print 2M lines). */
    shown = 20,
  ) {
    const listed = problems.slice(0, shown).map((p) => `${file}:${p.line}: ${p.message}`);
    if (problems.length > shown) listed.push(`${file}: … and ${problems.length - shown} more problems`);
    super(listed.join('\n'));
    this.name = 'PlanError';
  }
}
