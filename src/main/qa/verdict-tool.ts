import { z } from 'zod';
import { RectSchema } from '../../shared/actions.js';
import { QaModelVerdictSchema, type QaLabels } from '../../shared/qa-labels.js';
import type { AgentTool } from '../agent/tools/agent-tool.js';
import type { CaseState } from './case-state.js';
import type { TestCase } from './plan-types.js';

/** The qa_verdict input; the model's JSON Schema is generated from it (agent/tools/agent-tool.ts). */
export const VerdictInputSchema = z
  .object({
    verdict: QaModelVerdictSchema,
    reason: z.string().trim().min(1, 'give the reason: what you expected and what you saw'),
    evidence: z
      .array(z.string())
      .default([])
      .describe('Observation ids of the screenshots that show it ("latest" for the current one); the first and the final screenshot are attached automatically.'),
    checks: z
      .array(
        z
          .object({
            expectation: z.number().int().min(1),
            region: RectSchema.optional(),
          })
          .strict(),
      )
      .default([])
      .describe('For expectations marked "Expect …": the expectation number and, for text on screen, the region of the latest screenshot (its pixels) where it is shown.'),
  })
  .strict();
export type VerdictInput = z.output<typeof VerdictInputSchema>;

/**
 * The tool that ends a QA case. It refuses (and the model must try again) when the
 * input is invalid, cites screenshots that do not exist, points at an expectation
 * that is not there, or when the model's last action has not been seen in a
 * screenshot yet — a verdict needs evidence of the final state.
 */
export function createVerdictTool(testCase: TestCase, state: CaseState): AgentTool<VerdictInput> {
  return {
    name: 'qa_verdict',
    description: 'Give the verdict of the test: pass, fail or blocked, with the reason and the evidence screenshots.',
    input: VerdictInputSchema,
    async handle(input) {
      const known = [...state.observations.keys()];
      const unknown = input.evidence.filter((id) => id !== 'latest' && !state.observations.has(id));
      if (unknown.length) {
        return {
          ok: false,
          text: `qa_verdict was not accepted: unknown evidence ${unknown.map((u) => JSON.stringify(u)).join(', ')}; screenshots of this run: ${known.join(', ')} (or "latest")`,
        };
      }
      const final = state.observedAfterLastAction();
      if (!final) {
        return {
          ok: false,
          text: 'qa_verdict was not accepted: your last action has not been observed yet. Look at the screenshot after it (take one), then give the verdict.',
        };
      }
      const regions = new Map<number, { region: z.infer<typeof RectSchema>; observationId: string }>();
      for (const check of input.checks) {
        if (check.expectation > testCase.expected.length) {
          return {
            ok: false,
            text: `qa_verdict was not accepted: there is no expectation ${check.expectation} (the case has ${testCase.expected.length})`,
          };
        }
        if (check.region) regions.set(check.expectation, { region: check.region, observationId: final.record.id });
      }
      const cited = input.evidence.map((id) => (id === 'latest' ? final.record.id : id));
      const evidence = [...new Set([state.firstObservationId ?? final.record.id, ...cited, final.record.id])];
      state.verdict = { verdict: input.verdict, reason: input.reason, evidence, regions };
      return {
        ok: true,
        text: `Verdict recorded: ${input.verdict}.`,
        endRun: {
          status: input.verdict === 'pass' ? 'done' : 'failed',
          summary: `QA verdict: ${input.verdict} — ${input.reason}`,
          labels: { qaVerdict: input.verdict } satisfies QaLabels,
        },
      };
    },
  };
}
