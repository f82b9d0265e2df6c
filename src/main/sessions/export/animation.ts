import sharp from 'sharp';
import { readFileInRun } from '../files.js';
import { actionsOnImage, cursorInImage, type ReadRunImage } from './common.js';
import { overlaySvg } from './overlay.js';
import type { RunView } from './timeline.js';

/** Decoded pixels of all frames together (about 190 MB as RGB). */
export const ANIMATION_PIXEL_BUDGET = 64_000_000;

export interface AnimationOptions {
  format: 'webp' | 'gif';
  /** Frame width in pixels; the height follows the first screenshot's aspect. Default: the first screenshot's width, at most 960, less for long runs (pixel budget). */
  width?: number;
  /** Time each frame shows. */
  frameMs?: number;
  /** How a screenshot is read (default: as stored in the run folder). */
  readImage?: ReadRunImage;
}

/**
 * An animation of the run (the export once called "replay"; `deskpilot replay` now re-runs a run): one frame per step that has a screenshot, the step's actions
 * drawn on it (same overlay as the HTML report). Frames are made one at a time from the
 * files on disk (raw RGB, within ANIMATION_PIXEL_BUDGET) and stacked into one animation.
 */
export async function renderAnimation(dir: string, view: RunView, options: AnimationOptions): Promise<Buffer> {
  const steps = view.steps.filter((s) => s.observation);
  if (steps.length === 0) throw new Error(`run ${view.runId} has no screenshots to animate`);
  const first = steps[0]!.observation!.observation.image;
  // sharp holds every decoded frame while it joins them: long runs get smaller frames
  // so the whole animation stays within ANIMATION_PIXEL_BUDGET.
  const budgetWidth = Math.floor(Math.sqrt((ANIMATION_PIXEL_BUDGET * first.width) / (first.height * steps.length)));
  const width = Math.max(16, Math.round(options.width ?? Math.min(first.width, 960, budgetWidth)));
  const height = Math.max(1, Math.round((width * first.height) / first.width));
  const frames: Buffer[] = [];
  for (const step of steps) {
    const obs = step.observation!;
    const file = await (options.readImage ? options.readImage(obs.image) : readFileInRun(dir, obs.image));
    const meta = await sharp(file).metadata();
    const actual = { width: meta.width ?? obs.observation.image.width, height: meta.height ?? obs.observation.image.height };
    // The overlay is drawn in the model's image space and rendered at the file's real size.
    const svg = overlaySvg(actionsOnImage(step), obs.observation.image, { cursor: cursorInImage(obs.observation), render: actual });
    const drawn = await sharp(file).composite([{ input: Buffer.from(svg), top: 0, left: 0 }]).png({ compressionLevel: 0 }).toBuffer();
    // Raw RGB frames, stacked into one tall image that sharp treats as pages: no per-frame encode/decode.
    frames.push(await sharp(drawn).resize(width, height, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 1 } }).removeAlpha().raw().toBuffer());
  }
  const delay = Array.from({ length: frames.length }, () => options.frameMs ?? 900);
  const joined = sharp(Buffer.concat(frames), { raw: { width, height: height * frames.length, channels: 3, pageHeight: height } });
  frames.length = 0;
  return options.format === 'gif'
    ? joined.gif({ delay, loop: 0, effort: 3 }).toBuffer()
    : joined.webp({ delay, loop: 0, quality: 85, alphaQuality: 100, effort: 2 }).toBuffer();
}
