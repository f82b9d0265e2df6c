import { z } from 'zod';

/**
 * The labels of an eval task's run (`deskpilot eval` passes them with `--label` to each
 * `deskpilot run` / `deskpilot replay` it starts), one schema for the writer
 * (eval/run/matrix.ts, `satisfies EvalLabels`) and the readers (the renderer's History
 * grouping: `readEvalLabels`). An eval is one `deskpilot eval` invocation's out-dir: its
 * runs are grouped by `evalSuite` like a QA suite's by `qaSuite`.
 */
export const EvalLabelsSchema = z.object({
  /** The eval (one out-dir: a `--resume` goes on in the same group). */
  evalSuite: z.string().optional(),
  /** What a person calls it: the suite's name and mode, e.g. "builtin (reference)". */
  evalName: z.string().optional(),
  /** The task's id in its suite. */
  evalTask: z.string().optional(),
  /** The column: the profile (or "(flags)"), the model and the harness the run used. */
  evalProfile: z.string().optional(),
  evalModel: z.string().optional(),
  evalHarness: z.string().optional(),
  /** 1, 2, … with --runs K. */
  evalRun: z.string().optional(),
  /** The eval's report.html (absolute path), which History opens. */
  evalReport: z.string().optional(),
});
export type EvalLabels = z.infer<typeof EvalLabelsSchema>;

/** The eval labels among a run's labels; a value that is not a string is left out. */
export function readEvalLabels(labels: Readonly<Record<string, string>> | undefined): EvalLabels {
  const out: EvalLabels = {};
  if (!labels) return out;
  for (const key of Object.keys(EvalLabelsSchema.shape) as Array<keyof EvalLabels>) {
    const value = labels[key];
    if (typeof value === 'string') out[key] = value;
  }
  return out;
}

/**
 * The checker's verdict on an eval task's run, appended to the run's log as an
 * `eval_outcome` event once the checker has decided (the run itself ended before it):
 * History and `sessions list` show it, never the model's own claim.
 */
export const EvalVerdictSchema = z.enum(['passed', 'failed', 'error', 'needed a person', 'interrupted']);
export type EvalVerdict = z.infer<typeof EvalVerdictSchema>;
