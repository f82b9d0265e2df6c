import type { z } from 'zod';
import type { Rect } from '../../../shared/actions.js';
import { globalToImage, imageToGlobal } from '../../../os-control/coords.js';
import { findText } from '../../../os-control/ocr/index.js';
import type { Computer } from '../../../os-control/types.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import type { AgentTool } from './agent-tool.js';
import { latestScreen, lookupForRun, type ScreensSeen } from './screens-seen.js';
import { FIND_TEXT } from './lookup-tools.js';

const MAX_MATCHES = 5;

/**
 * find_text for models without reliable coordinates: OCR a fresh full-resolution
 * capture of the display the model watches, and answer with each match's click point
 * in the pixel space of the model's latest screenshot (mapped through both
 * observation records, so downscaling and HiDPI are accounted for).
 */
export function createFindTextTool(computer: Computer, state: ScreensSeen): AgentTool<z.output<typeof FIND_TEXT.input>> {
  return {
    ...FIND_TEXT,
    async handle(input, context) {
      const latest = latestScreen(state, context);
      if (!latest) return { ok: false, text: 'find_text: no screenshot yet' };
      const model = latest.record;
      const found = await textOnScreen(computer, model, input, context.signal);
      const lines = found.map((m) => `"${m.text}" at x=${m.x}, y=${m.y} (score ${m.score.toFixed(2)})`);
      if (!lines.length) return { ok: true, text: `find_text: "${input.text}" is not visible on the screen (OCR found no match).` };
      return {
        ok: true,
        text: `find_text: ${lines.length} match(es) for "${input.text}" in the pixels of screenshot ${model.id}, best first:\n${lines.join('\n')}`,
      };
    },
  };
}

/** One OCR match of a label, its centre in the pixels of the model's screenshot. */
export interface TextOnScreen {
  text: string;
  x: number;
  y: number;
  score: number;
}

/**
 * The label's OCR matches on a fresh full-resolution capture, best first (at most 5),
 * each centre in the pixels of `model` (the screenshot the model has): find_text's
 * answer, and the code harness's computer.screen.find_text.
 */
export async function textOnScreen(computer: Pick<Computer, 'observe'>, model: ObservationRecord, input: { text: string; region?: Rect | undefined }, signal?: AbortSignal): Promise<TextOnScreen[]> {
  const shot = await computer.observe({ displayId: model.display.id, target: { format: 'png' }, signal });
  const full = shot.record;
  let region: Rect | undefined;
  if (input.region) {
    // Model-image region → global → pixels of the full-resolution capture.
    const r = input.region;
    const a = toFullImage(imageToGlobalClamped({ x: r.x, y: r.y }, model), full);
    const b = toFullImage(imageToGlobalClamped({ x: r.x + r.width, y: r.y + r.height }, model), full);
    if (a && b) region = { x: a.x, y: a.y, width: Math.max(1, b.x - a.x), height: Math.max(1, b.y - a.y) };
  }
  const matches = await findText(shot.image, input.text, {
    ...(region ? { region } : {}),
    pixelRatio: model.display.scaleFactor,
    signal,
  });
  const found: TextOnScreen[] = [];
  for (const m of matches.slice(0, MAX_MATCHES)) {
    const p = globalToImage(imageToGlobal(m.center, full), model);
    if (p) found.push({ text: m.text, x: Math.round(p.x), y: Math.round(p.y), score: m.score });
  }
  return found;
}

/**
 * find_text for any run (not only QA): the tool plus the event listener that lets it
 * know the run's screenshots. Pass `tool` in RunOptions.tools and call `onEvent`
 * from RunOptions.onEvent.
 */
export const findTextForRun = (computer: Computer) => lookupForRun((state) => createFindTextTool(computer, state));

function imageToGlobalClamped(p: { x: number; y: number }, record: Parameters<typeof imageToGlobal>[1]) {
  return imageToGlobal({ x: Math.max(0, Math.min(p.x, record.image.width - 1)), y: Math.max(0, Math.min(p.y, record.image.height - 1)) }, record);
}

function toFullImage(p: { x: number; y: number }, full: Parameters<typeof globalToImage>[1]) {
  return globalToImage(p, full);
}
