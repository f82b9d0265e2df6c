import { stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { actionCategory, actionSpec, type Action, type Point, type Rect } from '../../../shared/actions.js';
import { looksLikeSecret } from '../../../shared/secrets.js';
import { codeBlockOf } from '../../../shared/code-block.js';
import type { ActionTarget, RunEventOf } from '../../../shared/events.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import {
  TRAJECTORY_FILE,
  TRAJECTORY_FORMAT,
  TRAJECTORY_SCHEMA,
  TrajectorySchema,
  type Trajectory,
  type TrajectoryAction,
  type TrajectoryShot,
  type TrajectoryStep,
  type TrajectoryTarget,
} from '../../../shared/trajectory.js';
import { globalToImage } from '../../../os-control/coords.js';
import { readText } from '../../../os-control/ocr/index.js';
import { decodeGrey, patchContrast, screenFingerprint } from '../../../os-control/screen-match.js';
import { mkdirPrivate, writePrivateFile } from '../../private-files.js';
import { readFileInRun } from '../../sessions/files.js';
import { EVENTS_FILE, readRunLog } from '../../sessions/reader.js';
import { MASKED_SECRET, REDACTED } from '../../sessions/scrub.js';
import { pointerTargetPoint } from '../action-target.js';
import { REPLAY_CALL_PREFIX, REPLAY_LABELS } from './labels.js';

/**
 * A run's trajectory, derived from its events.jsonl and the screenshots it names — the
 * one source of truth — and cached as `trajectory.json` (+ `trajectory/*.png` patches)
 * in the run folder. A step is one model turn's actions that ran; each pointer action
 * keeps its target in four forms (shared/trajectory.ts).
 */

/** The patch cut around a point, in logical px: a button label and its edges (72×40 holds "Save" in a 13 px font with its border). */
export const PATCH_SIZE = { width: 72, height: 40 } as const;
/** How far around the point the OCR anchor is read (logical px). */
const TEXT_REGION = { width: 260, height: 48 } as const;
/** Words farther than this from the point (logical px) are not its text. */
const TEXT_REACH = 24;

/** Which executed actions a replay repeats: everything that changes the world; looking (screenshot, zoom, cursor) is the model's own business. */
function replays(action: Action): boolean {
  return actionSpec(action).replays;
}

/** The placeholder variable a masked secret is typed from on replay: DESKPILOT_SECRET_1, _2 … in the order they were typed. */
export const SECRET_ENV_PREFIX = 'DESKPILOT_SECRET_';

/**
 * The text an action puts into the world as written: typed text, a set value, a shell
 * command or a code block (whose code types what it holds: a block that wrote a password
 * literal into a password field is logged, once the field made it a secret, with the mask
 * in its code, and run again as is it would type the mask).
 */
export function carriedText(action: Action): string | undefined {
  if (action.type === 'type') return action.text;
  if (action.type === 'element') return action.value;
  if (action.type === 'shell') return action.command;
  return undefined;
}

/** Does the action carry text that the log masked (a password, a key)? */
export function maskedText(action: Action): boolean {
  const text = carriedText(action);
  return text !== undefined && (text.includes(MASKED_SECRET) || text.includes(REDACTED));
}

interface Shot {
  event: RunEventOf<'observation'>;
  data: Buffer;
}

/** Derives the trajectory of the run in `dir`, writing its patches under `dir/trajectory/`. Does not write trajectory.json. */
export async function deriveTrajectory(dir: string): Promise<Trajectory> {
  const { events } = await readRunLog(dir);
  const started = events.find((e): e is RunEventOf<'run_started'> => e.type === 'run_started');
  if (!started) throw new Error(`the run in ${dir} has no run_started event: nothing to replay`);
  const observations = new Map<string, RunEventOf<'observation'>>();
  const proposals = new Map<string, RunEventOf<'action_proposed'>>();
  const shots = new Map<string, Promise<Shot>>();
  const shot = (event: RunEventOf<'observation'>) => {
    let s = shots.get(event.image);
    if (!s) shots.set(event.image, (s = readFileInRun(dir, event.image).then((data) => ({ event, data }))));
    return s;
  };
  const replayOf = started.labels[REPLAY_LABELS.of];
  const steps: TrajectoryStep[] = [];
  /** Each action of the current step: the call it came from and when it ran (blockOwn below). */
  let current: { step: TrajectoryStep; lastSeq: number; from: Array<{ callId: string | undefined; seq: number }> } | undefined;
  const finishStep = async (nextObservation?: RunEventOf<'observation'>) => {
    if (!current) return;
    if (nextObservation) current.step.after = await shotOf(await shot(nextObservation));
    steps.push(current.step);
    current = undefined;
  };
  let lastObservation: RunEventOf<'observation'> | undefined;
  let secrets = 0;
  for (const event of events) {
    if (event.type === 'observation') {
      if (!event.observation.region || event.image.includes('-zoom-')) continue;
      observations.set(event.observation.id, event);
      lastObservation = event;
      await finishStep(event);
      continue;
    }
    if (event.type === 'action_proposed') proposals.set(event.proposalId, event);
    if (event.type !== 'action_executed' || !event.ok || !replays(event.action)) continue;
    const proposal = proposals.get(event.proposalId);
    const before = proposal?.observationId ? observations.get(proposal.observationId) : undefined;
    if (!proposal || !before) continue;
    if (current && current.step.step !== event.step) await finishStep();
    if (!current) {
      const origin: TrajectoryStep['origin'] = replayOf === undefined ? 'model' : proposal.callId?.startsWith(REPLAY_CALL_PREFIX) ? 'replay' : 'healed';
      current = {
        step: { step: event.step, intent: proposal.reasoning.trim(), actions: [], before: await shotOf(await shot(before)), origin },
        lastSeq: event.seq,
        from: [],
      };
    }
    if (codeBlockOf(event.action)) {
      const dropped = dropBlockOwn(current, proposal);
      // Their masked texts are typed again by the block, not from a variable: the numbers stay in the order of what is kept.
      secrets -= dropped.filter((a) => a.secretRef).length;
      // A step its block's first call opened is the block's: the model's words are its intent.
      if (current.step.actions.length === 0) current.step.intent = proposal.reasoning.trim();
    }
    const index = current.step.actions.length;
    const target = await targetOf(dir, event.action, event.target, await shot(before), `s${String(event.step).padStart(4, '0')}-a${index}`);
    const secretRef = maskedText(event.action) ? { env: `${SECRET_ENV_PREFIX}${++secrets}` } : undefined;
    current.step.actions.push({ action: event.action, ...(target ? { target } : {}), ...(secretRef ? { secretRef } : {}) } satisfies TrajectoryAction);
    current.from.push({ callId: proposal.callId, seq: event.seq });
    current.lastSeq = event.seq;
  }
  await finishStep();
  const display = started.display?.bounds ?? lastObservation?.observation.region;
  if (!display) throw new Error(`the run in ${dir} has no screenshot: nothing to replay`);
  const revision = Number(started.labels[REPLAY_LABELS.revision] ?? '0') + 1;
  const healedFrom = replayOf !== undefined && steps.some((s) => s.origin === 'healed') ? { runId: replayOf, revision: revision - 1 } : undefined;
  return TrajectorySchema.parse({
    format: TRAJECTORY_FORMAT,
    schema: TRAJECTORY_SCHEMA,
    revision,
    task: started.task,
    runId: started.runId,
    ...(healedFrom ? { healedFrom } : {}),
    display,
    steps,
    ...(lastObservation ? { final: await shotOf(await shot(lastObservation)) } : {}),
  } satisfies Trajectory);
}

/**
 * A code block's own computer calls are not steps of their own: the block, replayed in
 * its language, makes them again (each gated), so replaying them too would click and
 * type twice. They are the actions of the block's call that ran after the block was
 * proposed and before it ended (its computer calls run inside it; the call's other
 * actions run before or after it, never between), which holds for every run's log.
 */
function dropBlockOwn(current: { step: TrajectoryStep; from: Array<{ callId: string | undefined; seq: number }> }, block: RunEventOf<'action_proposed'>): TrajectoryAction[] {
  const own = current.from.map((f) => f.callId === block.callId && f.seq > block.seq);
  const dropped = current.step.actions.filter((_, i) => own[i]);
  current.step.actions = current.step.actions.filter((_, i) => !own[i]);
  current.from = current.from.filter((_, i) => !own[i]);
  return dropped;
}

async function shotOf(s: Shot): Promise<TrajectoryShot> {
  const { width, height } = s.event.observation.image;
  // The fingerprint is of the stored image, secret regions filled: a replay fills the same regions of its screen (secret-mask.ts).
  const masked = s.event.secretRegions;
  return { image: s.event.image, fingerprint: await screenFingerprint(s.data), size: { width, height }, ...(masked?.length ? { masked } : {}) };
}

/** A pointer action's target in its four forms; undefined for actions that point at nothing. */
async function targetOf(dir: string, action: Action, logged: ActionTarget | undefined, before: Shot, name: string): Promise<TrajectoryTarget | undefined> {
  const point = logged?.point ?? pointerTargetPoint(action);
  if (!point || actionCategory(action) !== 'input') return undefined;
  const record = before.event.observation;
  const [text, patch] = await Promise.all([textUnder(before.data, record, point), patchAround(dir, before.data, record, point, name)]);
  const window = logged?.window?.bounds
    ? { title: logged.window.title, app: logged.window.app, bounds: logged.window.bounds, offset: { x: point.x - logged.window.bounds.x, y: point.y - logged.window.bounds.y } }
    : undefined;
  // An element action names its element itself (the path from the list the model was sent).
  const named = action.type === 'element' && action.target ? { path: action.target.path, role: action.target.role, name: action.target.name } : undefined;
  const element = logged?.element ?? named;
  return {
    point,
    ...(element ? { element } : {}),
    ...(text ? { text } : {}),
    ...(patch ? { patch } : {}),
    ...(window ? { window } : {}),
  };
}

/** The region's scale: image px per logical point. */
function scaleOf(record: ObservationRecord): { sx: number; sy: number } {
  return { sx: record.image.width / record.region.width, sy: record.image.height / record.region.height };
}

/** The words under the point (or the nearest within TEXT_REACH on its line), read by OCR around it; in global points. */
export async function textUnder(image: Buffer, record: ObservationRecord, point: Point): Promise<{ text: string; bbox: Rect } | undefined> {
  const at = globalToImage(point, record);
  if (!at) return undefined;
  const { sx, sy } = scaleOf(record);
  const region = clip(
    { x: at.x - (TEXT_REGION.width / 2) * sx, y: at.y - (TEXT_REGION.height / 2) * sy, width: TEXT_REGION.width * sx, height: TEXT_REGION.height * sy },
    record.image,
  );
  if (!region) return undefined;
  // 3×: UI labels are 10–14 px (read at 2×, the probe's 14 px "c6" came out "cb").
  const { words } = await readText(image, { region, layout: 'sparse', scale: 3 });
  const toGlobal = (b: Rect): Rect => ({ x: record.region.x + b.x / sx, y: record.region.y + b.y / sy, width: b.width / sx, height: b.height / sy });
  const distance = (b: Rect) => Math.hypot(Math.max(b.x - point.x, 0, point.x - (b.x + b.width)), Math.max(b.y - point.y, 0, point.y - (b.y + b.height)));
  const near = words
    .filter((w) => /[\p{L}\p{N}]/u.test(w.text))
    .map((w) => ({ ...w, global: toGlobal(w.bbox) }))
    .filter((w) => distance(w.global) <= TEXT_REACH)
    .sort((a, b) => distance(a.global) - distance(b.global));
  const first = near[0];
  if (!first) return undefined;
  // The label is the nearest word and its neighbours on the same line (gaps under a word space of ~1 em).
  const line = near.filter((w) => w.line === first.line).sort((a, b) => a.global.x - b.global.x);
  const picked = [first];
  for (const dir of [-1, 1] as const) {
    let edge = first;
    for (;;) {
      const next = line.find((w) => !picked.includes(w) && (dir > 0 ? w.global.x >= edge.global.x + edge.global.width - 1 && w.global.x - (edge.global.x + edge.global.width) < edge.global.height : w.global.x + w.global.width <= edge.global.x + 1 && edge.global.x - (w.global.x + w.global.width) < edge.global.height));
      if (!next) break;
      picked.push(next);
      edge = next;
    }
  }
  picked.sort((a, b) => a.global.x - b.global.x);
  const x0 = Math.min(...picked.map((w) => w.global.x));
  const y0 = Math.min(...picked.map((w) => w.global.y));
  const x1 = Math.max(...picked.map((w) => w.global.x + w.global.width));
  const y1 = Math.max(...picked.map((w) => w.global.y + w.global.height));
  const text = picked.map((w) => w.text).join(' ');
  // Words the secret detectors flag ("the password is …") are not written into trajectory.json: the target keeps its other forms.
  if (looksLikeSecret(text)) return undefined;
  return { text, bbox: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } };
}

function clip(r: Rect, size: { width: number; height: number }): Rect | undefined {
  const x = Math.max(0, Math.round(r.x));
  const y = Math.max(0, Math.round(r.y));
  const width = Math.min(size.width, Math.round(r.x + r.width)) - x;
  const height = Math.min(size.height, Math.round(r.y + r.height)) - y;
  return width > 4 && height > 4 ? { x, y, width, height } : undefined;
}

/** The PATCH_SIZE pixels centred on the point, at logical size, written as `trajectory/<name>.png`. */
async function patchAround(dir: string, image: Buffer, record: ObservationRecord, point: Point, name: string): Promise<TrajectoryTarget['patch']> {
  const logical = { width: Math.round(record.region.width), height: Math.round(record.region.height) };
  const local = { x: Math.round(point.x - record.region.x - PATCH_SIZE.width / 2), y: Math.round(point.y - record.region.y - PATCH_SIZE.height / 2) };
  // A patch cut off by the screen edge would not be centred on the point: none then.
  if (local.x < 0 || local.y < 0 || local.x + PATCH_SIZE.width > logical.width || local.y + PATCH_SIZE.height > logical.height) return undefined;
  const png = await sharp(image)
    .resize(logical.width, logical.height, { fit: 'fill', kernel: 'linear' })
    .extract({ left: local.x, top: local.y, width: PATCH_SIZE.width, height: PATCH_SIZE.height })
    .png()
    .toBuffer();
  const rel = `trajectory/${name}.png`;
  await mkdirPrivate(path.join(dir, 'trajectory'));
  await writePrivateFile(path.join(dir, ...rel.split('/')), png);
  const grey = await decodeGrey(png, PATCH_SIZE);
  return { image: rel, bounds: { x: point.x - PATCH_SIZE.width / 2, y: point.y - PATCH_SIZE.height / 2, ...PATCH_SIZE }, contrast: Math.round(patchContrast(grey) * 10) / 10 };
}

/**
 * The run's trajectory: `trajectory.json` in its folder when it is newer than the
 * events it came from, else derived again and written there.
 */
export async function trajectoryOfRun(dir: string): Promise<Trajectory> {
  const file = path.join(dir, TRAJECTORY_FILE);
  const [cached, events] = await Promise.all([stat(file).catch(() => undefined), stat(path.join(dir, EVENTS_FILE))]);
  if (cached && cached.mtimeMs >= events.mtimeMs) {
    const parsed = TrajectorySchema.safeParse(JSON.parse((await readFileInRun(dir, TRAJECTORY_FILE)).toString('utf8')));
    if (parsed.success) return parsed.data;
  }
  const trajectory = await deriveTrajectory(dir);
  await writePrivateFile(file, `${JSON.stringify(trajectory, null, 2)}\n`);
  return trajectory;
}
