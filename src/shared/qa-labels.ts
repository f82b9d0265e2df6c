import { z } from 'zod';

/** The model's verdict, as the qa_verdict tool takes it and the run_ended label keeps it. */
export const QaModelVerdictSchema = z.enum(['pass', 'fail', 'blocked']);
export type QaModelVerdict = z.infer<typeof QaModelVerdictSchema>;

/**
 * The labels of a QA case run, one schema for the writers (the QA runner on run_started,
 * the verdict tool on run_ended: `satisfies QaLabels`) and the readers (the outcome fold,
 * `sessions list`, the renderer's suite grouping: `readQaLabels`).
 */
export const QaLabelsSchema = z.object({
  /** The suite (one `deskpilot qa` invocation) the case run belongs to. */
  qaSuite: z.string().optional(),
  /** The case's name in the plan. */
  qaCase: z.string().optional(),
  /** 1, 2, … (a retried case has several attempts). */
  qaAttempt: z.string().optional(),
  /** The plan's title. */
  qaPlan: z.string().optional(),
  /** The shard of the suite ("2/3"), when the plan was split with --shard. */
  qaShard: z.string().optional(),
  /** The worker (virtual display) that ran the case, with --workers. */
  qaWorker: z.string().optional(),
  /** The model's verdict (run_ended), before DeskPilot's own checks. */
  qaVerdict: QaModelVerdictSchema.optional(),
});
export type QaLabels = z.infer<typeof QaLabelsSchema>;

/**
 * The QA labels among a run's labels. Labels come from a log file: a value that does
 * not fit (a verdict that is not pass / fail / blocked) is left out, never guessed.
 */
export function readQaLabels(labels: Readonly<Record<string, string>> | undefined): QaLabels {
  const out: QaLabels = {};
  if (!labels) return out;
  const shape = QaLabelsSchema.shape;
  for (const key of Object.keys(shape) as Array<keyof QaLabels>) {
    const parsed = shape[key].safeParse(labels[key]);
    if (parsed.success && parsed.data !== undefined) Object.assign(out, { [key]: parsed.data });
  }
  return out;
}

/** A run is a QA case run when it carries a suite or a case label. */
export function isQaRun(labels: Readonly<Record<string, string>>): boolean {
  const qa = readQaLabels(labels);
  return qa.qaSuite !== undefined || qa.qaCase !== undefined;
}
