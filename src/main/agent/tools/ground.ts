import type { z } from 'zod';
import { globalToImage } from '../../../os-control/coords.js';
import type { Computer } from '../../../os-control/types.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import { resolveTarget } from '../resolve/chain.js';
import { ocrWords } from '../resolve/ocr-words.js';
import type { Grounder } from '../resolve/grounder.js';
import { DescriptionError, type Resolution } from '../resolve/types.js';
import type { AgentTool } from './agent-tool.js';
import { GROUND } from './lookup-tools.js';
import { latestScreen, lookupForRun, type ScreensSeen } from './screens-seen.js';

/**
 * ground (issue 33 item 3, the MCP tool): the resolve chain `deskpilot ground` runs, on the
 * display of the caller's latest screenshot, its points given in that screenshot's pixels
 * (the ones the click tool takes) instead of the CLI's logical desktop pixels. The grounding
 * model is asked for lazily: a profile whose key is missing is this call's error, not the
 * session's.
 */
export function createGroundTool(computer: Computer, state: ScreensSeen, grounder: () => Grounder | undefined): AgentTool<z.output<typeof GROUND.input>> {
  return {
    ...GROUND,
    async handle(input, context) {
      const latest = latestScreen(state, context);
      if (!latest) return { ok: false, text: 'ground: no screenshot yet' };
      let r: Resolution;
      try {
        const model = grounder();
        r = await resolveTarget(input.description, { computer, readWords: ocrWords, displayId: latest.record.display.id, ...(model ? { grounder: model } : {}) }, context.signal);
      } catch (error) {
        if (error instanceof DescriptionError) return { ok: false, text: `ground: ${error.message}` };
        return { ok: false, text: `ground: the target could not be resolved: ${(error as Error).message}` };
      }
      return { ok: true, text: groundAnswer(r, latest.record) };
    },
  };
}

/** The answer in words, each point in the pixels of `shot`; a point off that screenshot says so. */
export function groundAnswer(r: Resolution, shot: ObservationRecord): string {
  const at = (p: { x: number; y: number }): string => {
    const q = globalToImage(p, shot);
    return q ? `x=${Math.round(q.x)}, y=${Math.round(q.y)}` : 'a point off the screenshot';
  };
  const head = (() => {
    switch (r.kind) {
      case 'found':
        return `ground: found by ${r.stage} (confidence ${r.confidence.toFixed(2)}): ${r.label} at ${at(r.point)} in the pixels of screenshot ${shot.id}`;
      case 'ambiguous':
        return `ground: ambiguous: ${r.candidates.length} equally good matches for ${JSON.stringify(r.description)}; describe the one you mean by its place or a nearby label`;
      case 'not-found':
        return `ground: not found: ${JSON.stringify(r.description)}`;
    }
  })();
  const lines = [head];
  for (const c of r.candidates) lines.push(`candidate ${c.stage} ${c.confidence.toFixed(2)}: ${c.label} at ${at(c.point)}`);
  for (const n of r.notes) lines.push(`note ${n.stage}: ${n.note}`);
  return lines.join('\n');
}

/** ground for any run (screens-seen.ts lookupForRun). */
export const groundForRun = (computer: Computer, grounder: () => Grounder | undefined) => lookupForRun((state) => createGroundTool(computer, state, grounder));
