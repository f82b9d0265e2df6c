import path from 'node:path';
import { describeAction, mapActionPoints, type Action, type Point, type ScrollDirection } from '../../../shared/actions.js';
import type { ActionTarget, RunEventInput } from '../../../shared/events.js';
import type { DisplayInfo } from '../../../shared/observation.js';
import { globalToImage } from '../../../os-control/coords.js';
import { pickDisplay } from '../../../os-control/displays.js';
import { readKeysymTable, startInputRecorder, type RawInput } from '../../../os-control/input-recorder.js';
import type { Computer, ImageTarget } from '../../../os-control/types.js';
import { writePrivateFile } from '../../private-files.js';
import { readRunLog } from '../../sessions/reader.js';
import { typedPassword } from '../../sessions/scrub.js';
import { fillSecretRegions } from '../../sessions/redact-image.js';
import { carriesSecret, TypedSecretFields } from '../../sessions/secret-regions.js';
import { createRunLog, type FileRunLog } from '../../sessions/run-log.js';
import { ZERO_USAGE } from '../pricing.js';
import { readActionTarget } from '../action-target.js';
import { typingInto } from '../typing-into.js';
import { skillDraft } from './skill-draft.js';
import { DEFAULT_STOP_KEY } from './stop-key.js';

/**
 * `deskpilot record "<task>"`: a person does the task; their clicks, scrolls, keys and
 * text become a run in the same log format as a model's (observation → action_proposed
 * → action_executed by the person, with the element under each click), so its
 * trajectory is derived and replayed like any run's (agent/replay). Nothing is acted:
 * the person already did it. The recording stops on the stop key, which is not recorded.
 */

/** Typed characters closer together than this are one `type` action. */
const TEXT_GAP_MS = 800;
/** The screenshots of a recording: full size, JPEG 90 (what a replay compares against). */
const RECORD_IMAGE_TARGET: ImageTarget = { format: 'jpeg', quality: 90 };
const MODIFIERS: Record<string, string> = { Control_L: 'ctrl', Control_R: 'ctrl', Alt_L: 'alt', Alt_R: 'alt', Super_L: 'super', Super_R: 'super', Meta_L: 'alt', Meta_R: 'alt', Shift_L: 'shift', Shift_R: 'shift', ISO_Level3_Shift: 'altgr' };
const SCROLL: Record<number, ScrollDirection> = { 4: 'up', 5: 'down', 6: 'left', 7: 'right' };
const BUTTONS = { 1: 'left', 2: 'middle', 3: 'right', 8: 'back', 9: 'forward' } as const;

/** A person's input before it becomes an action: a key press, or a button press where the pointer is. */
export type PersonInput = { kind: 'key' } | { kind: 'button'; point: Point };

export interface RecordOptions {
  task: string;
  computer: Computer;
  home: string;
  /** Keysym name that ends the recording (default Pause). */
  stopKey?: string;
  displayId?: string;
  /** Told once the first screenshot is taken: the person may start. */
  onReady?(runId: string): void;
  onAction?(description: string): void;
  /**
   * Input that went to the recorder's own front end, not to the task (the desktop app's
   * Record and Stop controls): left out of the recording. The stop key always stops.
   */
  ignore?(input: PersonInput): boolean;
  signal?: AbortSignal;
}

export interface RecordResult {
  runId: string;
  dir: string;
  steps: number;
  skillFile: string;
}

/** Keysym → the single character it types, for the printable ones. */
function charOf(keysym: string): string | undefined {
  if (keysym.length === 1) return keysym;
  if (keysym === 'space') return ' ';
  const named: Record<string, string> = { period: '.', comma: ',', minus: '-', plus: '+', equal: '=', slash: '/', colon: ':', semicolon: ';', at: '@', exclam: '!', question: '?', underscore: '_', asterisk: '*', apostrophe: "'", quotedbl: '"', parenleft: '(', parenright: ')' };
  return named[keysym];
}

export async function recordDemonstration(options: RecordOptions): Promise<RecordResult> {
  const { computer } = options;
  const stopKey = options.stopKey ?? DEFAULT_STOP_KEY;
  const display = pickDisplay(await computer.listDisplays(), options.displayId);
  const keysyms = await readKeysymTable();
  const log = await createRunLog({ home: options.home });
  const emit = (e: RunEventInput) => log.append(e);
  emit({ type: 'run_started', task: options.task, provider: 'person', model: 'recording', policy: 'auto', limits: { maxSteps: 10_000, maxWallMs: 24 * 3_600_000, maxCostUsd: 5 }, skills: [], labels: { recorded: 'person' }, display });
  // Without RECORD the pointer is read after each press (xinput's raw events carry no position): said once in the log.
  const recorder = await startInputRecorder(process.env, (reason) =>
    emit({ type: 'error', message: `the recorder reads the pointer after each press, not at it (${reason}): a pointer that moves on at once is recorded where it got to`, fatal: false }),
  );
  options.signal?.addEventListener('abort', () => recorder.stop(), { once: true });
  // Stopped while the recorder was starting: the listener above will never fire.
  if (options.signal?.aborted) recorder.stop();
  const steps: Array<{ action: Action; target?: ActionTarget }> = [];
  let step = 0;
  const secretFields = new TypedSecretFields();
  let seen = await observe(log, computer, display, step, secretFields);
  options.onReady?.(log.runId);

  const nextInput = inputs(recorder);
  const held = new Set<string>();
  let text = '';
  const act = async (action: Action, target?: ActionTarget) => {
    const proposalId = `${step}.0.0`;
    const intent = target?.element ? `${describeAction(action).split(' at ')[0]} ${target.element.role} "${target.element.name}"` : describeAction(action);
    const image = mapActionPoints(action, (p) => globalToImage(p, seen.record) ?? p);
    emit({ type: 'action_proposed', step, proposalId, action: image, observationId: seen.record.id, reasoning: intent, callId: `person-${step}` });
    emit({ type: 'action_executed', step, proposalId, action, by: { kind: 'person', detail: 'recorded' }, ok: true, durationMs: 0, ...(target ? { target } : {}) });
    steps.push({ action, ...(target ? { target } : {}) });
    options.onAction?.(intent);
    step += 1;
    await computer.settle({ maxMs: 1_500, displayId: display.id });
    seen = await observe(log, computer, display, step, secretFields);
  };
  const flushText = async () => {
    if (!text) return;
    const typed = text;
    text = '';
    // Typed into a password field (or a window whose title says password): masked before it is logged, everywhere after.
    const focusedTree = () => computer.elementTree({ scope: 'focused' });
    const into = await typingInto({ focusedTree, freshTree: focusedTree, activeWindow: () => computer.activeWindow() }, (message) =>
      emit({ type: 'error', message: `the recorder ${message}`, fatal: false }),
    );
    const secret = typedPassword(typed, into);
    if (secret !== undefined) log.markSecret(secret);
    // The field's pixels are filled in every screenshot the recording stores from now on (issue 28 items 1 and 8): whatever the log masks.
    if (carriesSecret(log, typed)) secretFields.add(into.fieldBounds);
    await act({ type: 'type', text: typed });
  };

  for (;;) {
    const input = await nextInput(text ? TEXT_GAP_MS : undefined);
    if (input === 'idle') {
      await flushText();
      continue;
    }
    if (!input) break;
    if (input.kind === 'key') {
      const [plain, shifted] = keysyms.get(input.detail) ?? [`0x${input.detail.toString(16)}`, undefined];
      const modifier = MODIFIERS[plain];
      if (modifier) {
        if (input.down) held.add(modifier);
        else held.delete(modifier);
        continue;
      }
      if (!input.down) continue;
      if (plain === stopKey) break;
      if (options.ignore?.({ kind: 'key' })) continue;
      const shift = held.has('shift');
      const sym = shift && shifted ? shifted : plain;
      const ch = charOf(sym);
      const chord = [...held].filter((m) => m !== 'shift' || !ch);
      if (ch && chord.length === 0) {
        text += ch;
        continue;
      }
      await flushText();
      await act({ type: 'key', keys: [...chord, ch ? plain : sym].join('+'), repeat: 1 });
      continue;
    }
    if (!input.down) continue;
    await flushText();
    // Where the button went down (RECORD's root x/y), not where the pointer is by now.
    const point = input.point ?? (await computer.cursorPosition());
    if (options.ignore?.({ kind: 'button', point })) continue;
    const direction = SCROLL[input.detail];
    if (direction) {
      await act({ type: 'scroll', x: point.x, y: point.y, direction, amount: 1, modifiers: [...held] }, { point });
      continue;
    }
    const button = BUTTONS[input.detail as keyof typeof BUTTONS];
    if (!button) continue;
    // The element under the click, read right after it (the press is seen ~10 ms late).
    const target = await readActionTarget(() => computer.elementTree({ scope: 'focused' }), point);
    await act({ type: 'click', x: point.x, y: point.y, button, clicks: 1, modifiers: [...held] }, target);
  }
  await flushText();
  recorder.stop();
  emit({ type: 'run_ended', status: 'done', summary: `recorded ${steps.length} actions of the person`, steps: step, total: { ...ZERO_USAGE } });
  await log.sync();
  await log.close();
  // The draft skill ends up in model prompts: it is written from the scrubbed log, never from the raw actions.
  const skillFile = path.join(log.dir, 'SKILL.md');
  await writePrivateFile(skillFile, skillDraft(options.task, log.runId, await loggedSteps(log.dir)));
  return { runId: log.runId, dir: log.dir, steps: steps.length, skillFile };
}

/** The person's actions as the log holds them (scrubbed: a password typed is masked there). */
async function loggedSteps(dir: string): Promise<Array<{ action: Action; target?: ActionTarget }>> {
  const { events } = await readRunLog(dir);
  return events.flatMap((e) => (e.type === 'action_executed' && e.by.kind === 'person' ? [{ action: e.action, ...(e.target ? { target: e.target } : {}) }] : []));
}

/** The recorder's inputs one by one, or 'idle' when `idleMs` passes first (the input then still comes next time). */
function inputs(recorder: { next(): Promise<RawInput | undefined> }): (idleMs: number | undefined) => Promise<RawInput | undefined | 'idle'> {
  let pending: Promise<RawInput | undefined> | undefined;
  return async (idleMs) => {
    pending ??= recorder.next();
    let timer: NodeJS.Timeout | undefined;
    const idle = idleMs === undefined ? undefined : new Promise<'idle'>((resolve) => (timer = setTimeout(() => resolve('idle'), idleMs)));
    const first = await (idle ? Promise.race([pending, idle]) : pending);
    clearTimeout(timer);
    if (first !== 'idle') pending = undefined;
    return first;
  };
}

/** A screenshot of the recording, stored with the password fields typed into filled (no model sees it: one copy). */
async function observe(log: FileRunLog, computer: Computer, display: DisplayInfo, step: number, secretFields: TypedSecretFields) {
  const shot = await computer.observe({ displayId: display.id, target: RECORD_IMAGE_TARGET });
  const base = `screens/${String(step).padStart(4, '0')}-${shot.record.id}`;
  const regions = [...secretFields.regions];
  const [image, thumb] = await Promise.all([
    fillSecretRegions(shot.image, shot.record, regions).then((bytes) => log.writeFile(`${base}.jpg`, bytes)),
    shot.thumb.then((bytes) => fillSecretRegions(bytes, shot.record, regions)).then((bytes) => log.writeFile(`${base}.thumb.jpg`, bytes)),
  ]);
  log.append({ type: 'observation', step, observation: shot.record, image, thumb, settleMs: 0, ...(regions.length > 0 ? { secretRegions: regions } : {}) });
  return shot;
}
