import type { Point } from '../../../shared/actions.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import type { ActionView, StepView } from './timeline.js';
import { observationFor } from './timeline.js';
import type { Action } from '../../../shared/actions.js';

/** The pointer of an observation, in the pixel space of its image (for placing typing labels). */
export function cursorInImage(record: ObservationRecord): Point | undefined {
  const c = record.cursor;
  if (!c) return undefined;
  const x = ((c.x - record.region.x) / record.region.width) * record.image.width;
  const y = ((c.y - record.region.y) / record.region.height) * record.image.height;
  if (x < 0 || y < 0 || x > record.image.width || y > record.image.height) return undefined;
  return { x, y };
}

/**
 * The actions to draw on a step's screenshot: those proposed against that screenshot,
 * as edited by the person when they edited them (an edit is in the same image space).
 */
export function actionsOnImage(step: StepView): Action[] {
  if (!step.observation) return [];
  const id = step.observation.observation.id;
  return step.actions
    .filter((a: ActionView) => observationFor(step, a)?.observation.id === id)
    .map((a) => (a.answered?.answer.decision === 'edit' ? a.answered.answer.action : a.proposed.action));
}

export { formatUsd } from '../../../shared/usage-text.js';

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}

export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

/** True when the model's text of the step already says `reasoning` (it is logged twice: as text and with the action). */
export function saidInStep(step: StepView, reasoning: string): boolean {
  const r = reasoning.trim();
  return step.texts.some((t) => t.kind === 'text' && t.text.trim().includes(r));
}

/**
 * How an export reads a step's screenshot from the run folder: as stored (secret regions
 * already filled), or through `sessions export --redact`'s filter (OCR words the secret
 * detectors flag, filled too).
 */
export type ReadRunImage = (relativePath: string) => Promise<Buffer>;
