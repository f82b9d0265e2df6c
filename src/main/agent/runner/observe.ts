import type { Rect } from '../../../shared/actions.js';
import type { RunEventOf } from '../../../shared/events.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import type { RunLog } from '../../sessions/types.js';
import type { TranscriptImage } from '../transcript.js';
import type { RunContext, SeenObservation } from './context.js';
import { groundStep, readStepTree, type StepGrounding } from '../grounding/ground-step.js';
import { fillSecretRegions } from '../../sessions/redact-image.js';
import { passwordFieldBounds, unionRegions } from '../../sessions/secret-regions.js';

const MEDIA_TYPES = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;
const EXTENSIONS = { jpeg: 'jpg', png: 'png', webp: 'webp' } as const;

/** A transcript image that stays on disk until a request is built (no buffers held between steps). */
export function imageOnDisk(log: RunLog, record: ObservationRecord, relativePath: string, zoom = false): TranscriptImage {
  return {
    observationId: record.id,
    mediaType: MEDIA_TYPES[record.image.format],
    width: record.image.width,
    height: record.image.height,
    ...(zoom ? { zoom: true } : {}),
    load: () => log.readFile(relativePath),
  };
}

/** The physical pixel size of the display the run watches: what the provider sizes its image from. */
export function captureSize(ctx: Pick<RunContext, 'display'>): { width: number; height: number } {
  const { bounds, scaleFactor } = ctx.display;
  return { width: Math.round(bounds.width * scaleFactor), height: Math.round(bounds.height * scaleFactor) };
}

/**
 * Takes a screenshot sized for the run's model, writes image and thumbnail into the
 * run folder, logs the `observation` event (with the tool results it answers) and
 * makes it the screenshot whose pixel space the model's next coordinates are in.
 */
export async function observeScreen(
  ctx: RunContext,
  extra: { settleMs?: number; toolResults?: RunEventOf<'observation'>['toolResults']; correction?: string } = {},
): Promise<SeenObservation> {
  const target = ctx.provider.imageTarget(captureSize(ctx));
  const treeRead = readStepTree(ctx.computer, ctx.grounding);
  const shot = await ctx.computer.observe({ displayId: ctx.display.id, target, signal: ctx.control.signal, ...(ctx.provider.wantsScreenPixels ? { grey: true } : {}) });
  const { record } = shot;
  const base = `screens/${String(ctx.step).padStart(4, '0')}-${record.id}`;
  const ext = EXTENSIONS[record.image.format];
  // Grounding is a help, not a safety path: a tree that cannot be read makes a pixels step, said in the log.
  const grounded = groundStep(treeRead, ctx.grounding, record, shot.image, target.quality).catch((error: unknown): StepGrounding => {
    ctx.emit({ type: 'error', message: `no element list this step: ${error instanceof Error ? error.message : String(error)}`, fatal: false });
    return {};
  });
  // Secrets on screen (issue 28 item 8): the password fields of this step's tree and those
  // the run typed into are filled in the stored image and thumbnail, never in the model's
  // copy. A step without a tree read writes at once; one with a tree writes once it is read.
  const secretRegions = Promise.resolve(treeRead).then((read) => unionRegions(passwordFieldBounds(read?.status === 'fulfilled' ? read.value : undefined), ctx.secretFields?.regions));
  const stored = (bytes: Buffer | Promise<Buffer>) => Promise.all([bytes, secretRegions]).then(([data, regions]) => fillSecretRegions(data, record, regions));
  const [imagePath, thumbPath, grounding, regions] = await Promise.all([
    stored(shot.image).then((bytes) => ctx.log.writeFile(`${base}.${ext}`, bytes)),
    stored(shot.thumb).then((bytes) => ctx.log.writeFile(`${base}.thumb.jpg`, bytes)),
    grounded,
    secretRegions,
  ]);
  // The model sees the marked copy when there is one (never the plain one as well), else the
  // screenshot as taken: its own copy beside the stored one when regions were filled.
  const modelCopy = regions.length > 0 && !grounding.marked ? await ctx.log.writeFile(`${base}.model.${ext}`, shot.image) : undefined;
  const modelImagePath = grounding.marked ? await ctx.log.writeFile(`${base}.marks.${ext}`, grounding.marked) : (modelCopy ?? imagePath);
  ctx.emit({
    type: 'observation',
    step: ctx.step,
    observation: record,
    image: imagePath,
    thumb: thumbPath,
    ...(modelCopy ? { modelImage: modelCopy } : {}),
    ...(regions.length > 0 ? { secretRegions: regions } : {}),
    settleMs: extra.settleMs ?? 0,
    ...(extra.toolResults ? { toolResults: extra.toolResults } : {}),
    ...(extra.correction !== undefined ? { correction: extra.correction } : {}),
  });
  const seen: SeenObservation = {
    record,
    image: imageOnDisk(ctx.log, record, modelImagePath),
    imagePath,
    thumbPath,
    ...(shot.frameId !== undefined ? { frameId: shot.frameId } : {}),
    ...(grounding.tree ? { grounding } : {}),
    ...(shot.grey ? { screenPixels: shot.grey } : {}),
  };
  ctx.latest = seen;
  return seen;
}

/**
 * A zoom: the region (global desktop coordinates) captured at full resolution. Written
 * to the run folder as evidence; it does not change the coordinate space of the next
 * turn (that stays the last full screenshot).
 */
export async function observeZoom(ctx: RunContext, region: Rect): Promise<TranscriptImage> {
  // The model's own caps (long edge, patches) hold; the overview's pixel budget does not:
  // detail is what a zoom is for.
  const { maxPixels: _overviewBudget, ...target } = ctx.provider.imageTarget({
    width: Math.max(1, Math.round(region.width * ctx.display.scaleFactor)),
    height: Math.max(1, Math.round(region.height * ctx.display.scaleFactor)),
  });
  const shot = await ctx.computer.observe({ displayId: ctx.display.id, target, region, signal: ctx.control.signal });
  const path = await ctx.log.writeFile(
    `screens/${String(ctx.step).padStart(4, '0')}-zoom-${shot.record.id}.${EXTENSIONS[shot.record.image.format]}`,
    shot.image,
  );
  return imageOnDisk(ctx.log, shot.record, path, true);
}
