import { describeAction, mapActionPoints, type Action, type Point, type Rect } from '../../../shared/actions.js';
import type { Trajectory, TrajectoryShot, TrajectoryStep } from '../../../shared/trajectory.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import { globalToImage } from '../../../os-control/coords.js';
import { changedPixels, decodeGrey, decodeScreen, fingerprintDistance, greyOf, regionDistance, screenFromGrey, type GreyImage } from '../../../os-control/screen-match.js';
import { maskedCells, maskGrey, regionsToMask } from './secret-mask.js';
import { unionRegions } from '../../sessions/secret-regions.js';
import type { Computer, ImageTarget } from '../../../os-control/types.js';
import type { ModelTurn, Provider, TurnRequest } from '../providers/types.js';
import type { Driver, DriverTurnRequest } from '../driver.js';
import type { ModelCall, TranscriptImage } from '../transcript.js';
import { pointerTargetPoint } from '../action-target.js';
import { elementEffectDiverges, isElementOp, placeElementOp, type ElementExpectation, type ElementOpAction } from './element-ops.js';
import { findTarget, PLAIN_CONTRAST, type ElementLookups, type ScreenNow, type TargetLookup } from './find-target.js';
import { REPLAY_CALL_PREFIX } from './labels.js';
import { carriedText, maskedText } from './derive.js';
import { codeBlockOf } from '../../../shared/code-block.js';
import { MASKED_SECRET, REDACTED } from '../../sessions/scrub.js';
import { SETTLE_DEFAULTS } from '../../../os-control/settle.js';
import { earlyLookups, pathsToLookUp } from './early-lookups.js';
import { ownChange } from './effect.js';
import { areaAround, cellsChangedIn, fingerprintMovedBack, pixelsAgree, recordedShot, typedWords, wordsDiffer, wordsIn } from './text-near.js';
import { Judgement, judgePrompt, stepHealRequest, type JudgeWith } from './heal.js';

/**
 * A replay is a run whose "model" is the trajectory (like `deskpilot mcp`, whose model is
 * the MCP client): each turn hands the runner the next recorded step's actions, moved to
 * where their targets are now, and the runner checks, gates (the policy and the one
 * approval queue decide), executes and logs them exactly as it does a model's. There is
 * no second path to the desktop.
 *
 * Before a step: the screen must resemble the recorded one (SCREEN_MATCH) and every
 * pointer target must be found again (find-target.ts). After it (on the next turn's
 * screenshot): the screen must resemble the recorded "after", a step that changed
 * the screen must change it again, and an element op's effect must show in the tree
 * (element-ops.ts: the value set, the focus taken, the check box toggled). Any of
 * these failing is a divergence: `strict` ends
 * the run there (nothing of the step is acted), `heal` hands the step to the model with
 * its recorded intent and goes on with the next step once the model has acted.
 */

/**
 * Share of fingerprint cells allowed to differ for "the same screen": a caret, a clock
 * or a hover highlight move under 1%; a 1000×700 window moved by 60 px changes ~25%;
 * a dialog on top, 10% or more.
 */
export const SCREEN_MATCH = 0.06;
/**
 * The recording "changed the screen" when a fingerprint cell moved (a typed word in a
 * 14 px font: 1–2 cells of 2,560; a caret blink moves none). The replay's own two
 * screenshots are compared pixel by pixel (same encoder, so an unchanged screen is
 * identical): CHANGED_PIXELS pixels by more than 32 levels is a change.
 */
const CHANGED_PIXELS = 4;

/**
 * The quiet window a replay asks the runner to settle on after each step (a model run
 * settles on SETTLE_DEFAULTS.quietMs, 75 ms). A replay may take less because it checks
 * every screen against its recording: a screen that does not match yet (an app slower
 * than 25 ms to show a click) is not a divergence until the replay has settled a full
 * window and looked once more (lookAgain). 25 ms is one and a half frames at 60 Hz, so a
 * frame on its way is still seen. At 35 ms the 10-step bench replayed in 2.04–2.40 s
 * (ratio 0.101–0.116×); at 25 ms in 1.80–2.04 s (0.088–0.099×), none looking again
 * (bench/replay.bench.ts, idle machine, three runs each).
 */
export const REPLAY_SETTLE_QUIET_MS = 25;

export type ReplayMode = 'strict' | 'heal';

/**
 * `refused`: the gate (a person, a policy rule) did not let a replayed action run.
 * `secret`: the step types a secret that was masked when logged, and none was given for
 * it (secretRef): a mask is never typed, and a model is never asked to make one up.
 */
export type DivergenceKind = 'screen' | 'target' | 'effect' | 'final' | 'refused' | 'secret';

/** Why a replay stopped following the recording at one step. */
export interface Divergence {
  kind: DivergenceKind;
  /** Index into trajectory.steps (steps.length for the final state). */
  index: number;
  /** One sentence: what was expected and what was seen. */
  message: string;
  /** The recorded screenshot (relative to the trajectory) and the one seen now (the run's). */
  expectedImage?: string;
  seen: Buffer;
  /**
   * Where `seen` shows the desktop (global), and the secret regions the comparison filled
   * in it (the recorded shots' `masked`): the report fills them in `seen` too, with the
   * run's own (report.ts), before it is stored. `seen` itself is the model's copy, unfilled.
   */
  region: Rect;
  masked: Rect[];
  distance?: number;
  /** Target forms tried. */
  tried?: string[];
}

export interface ReplayStats {
  /** Steps replayed without the model. */
  replayed: number;
  /** Turns the model was asked for (healing). */
  modelCalls: number;
  /** Steps the model healed (their indexes). */
  healed: number[];
  divergences: Divergence[];
  /** How each target was found: rule → count. */
  rules: Record<string, number>;
}

export interface ReplayProviderOptions {
  trajectory: Trajectory;
  mode: ReplayMode;
  computer: Pick<Computer, 'findElement' | 'elementTree' | 'settle'>;
  /** Reads a file the trajectory names, relative to it. */
  readFile(relativePath: string): Promise<Buffer>;
  /** The model for healing (required in heal mode). */
  healer?: Provider;
  /** Where a masked secret's `secretRef.env` is looked up (process.env by default). */
  env?: NodeJS.ProcessEnv;
  /** Told each secret taken from the environment before any event carries it (the run log's scrubber masks it). */
  markSecret?(value: string): void;
  /** Called on a divergence in strict mode, before the run ends (the report is written there). */
  onDivergence?(divergence: Divergence): Promise<void>;
  /**
   * The calls that end a replay that reached the recorded final screen, instead of
   * `finish` (QA: its verdict tool, so DeskPilot's own checks then decide the case).
   * Sent only for a replay the model never touched: after any heal, the model gives the
   * verdict (heal.ts).
   */
  endCalls?(): ModelCall[];
}

const ZERO_TOKENS = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/**
 * The replay's screenshot for itself: capture size, JPEG at quality 90 (encoding is 3–5×
 * faster than PNG; compared at the recording's resolution the probe's unchanged buttons
 * still differ by under 0.002 of a grey level on average). Not at the recording's smaller
 * size, though that decodes ~13 ms faster: softened by it, the effect of the replay
 * bench's last click (the probe's c2) was not seen on the first look in 2 runs of 2, and
 * the step looked again (0 of 2 at capture size).
 */
const REPLAY_IMAGE_TARGET: ImageTarget = { format: 'jpeg', quality: 90 };

export class ReplayProvider implements Driver {
  readonly family: Provider['family'];
  readonly model = 'replay';
  readonly settleQuietMs = REPLAY_SETTLE_QUIET_MS;
  readonly wantsScreenPixels = true;
  readonly stats: ReplayStats = { replayed: 0, modelCalls: 0, healed: [], divergences: [], rules: {} };
  /** Next step to replay. */
  private index = 0;
  /** The step the last turn handed to the runner, and how (its effect is checked on the next turn). */
  private last: { index: number; by: 'replay' | 'model'; before?: GreyImage; beforeFingerprint?: string; elements?: ElementExpectation[] } | undefined;
  private calls = 0;
  private ended = false;
  /** The check that failed was already looked at again on a fully settled screen: it now diverges. */
  private lookedAgain = false;
  /** This turn's `last` (the step whose effect it checks), put back when it looks again. */
  private checking: ReplayProvider['last'];
  /**
   * The window the steps act in moved since the recording: where it was (global) and by
   * how much. Screens are then compared inside the window (its content moved with it,
   * what was behind it did not), found from the first target of a step that was found
   * again (by its element path, words or pixels) somewhere else.
   */
  private moved: { window: Rect; shift: Point } | undefined;
  /** The secret regions this turn's comparison fills (regionsToMask): a divergence's seen screen is stored with them filled. */
  private maskedNow: Rect[] = [];
  /** Set once the end is handed to the model to judge (heal.ts): every later turn is the model's. */
  private judgement: Judgement | undefined;
  /**
   * The words of the text this replay typed in the steps it replayed (typed, set as a value;
   * never a secret put back from the environment, never a shell command), tokenised once as
   * each step is replayed: a word of it read near a later target is the run's own, not a
   * changed screen (text-near.ts typedWords).
   */
  private readonly typedWords: string[] = [];

  constructor(private readonly options: ReplayProviderOptions) {
    if (options.mode === 'heal' && !options.healer) throw new Error('a healing replay needs a model');
    this.family = options.healer?.family ?? 'anthropic';
  }

  imageTarget(capture: { width: number; height: number }): ImageTarget {
    // Healing shows the model the same screenshot the replay looked at: it must be one the model takes.
    return this.options.healer ? this.options.healer.imageTarget(capture) : REPLAY_IMAGE_TARGET;
  }

  async turn(request: DriverTurnRequest, signal: AbortSignal): Promise<ModelTurn> {
    if (this.judgement) return this.askModel(this.judgement.request(request), signal);
    const image = latestImage(request);
    const { steps } = this.options.trajectory;
    const upcoming = steps[this.index];
    // The lookups this turn will make anyway run on the accessibility bus while the screenshot decodes.
    const computer = earlyLookups(this.options.computer, upcoming ? pathsToLookUp(upcoming) : []);
    const region = request.observation.region;
    const via = upcoming?.before.size;
    // The runner hands over the pixels of this turn's capture (wantsScreenPixels): no JPEG to
    // decode. They are the latest image's too: a capture whose pixels equal the last one's
    // is not sent again (the latest image is then that one). The encoded file is still
    // read, for OCR and a divergence report.
    const pixels = request.screen;
    const loading = image.load();
    // Secret regions the recorded shots were stored with are filled here too before anything is compared (secret-mask.ts).
    const masked = regionsToMask(this.options.trajectory, this.index, this.last?.index);
    this.maskedNow = masked;
    const decoded =
      masked.length === 0
        ? pixels
          ? screenFromGrey(pixels, region, via)
          : loading.then((d) => decodeScreen(d, region, via))
        : Promise.resolve(pixels ?? loading.then(greyOf)).then((own) => screenFromGrey(maskGrey(own, masked, region), region, via));
    const [data, { fingerprint, grey, greyVia }] = await Promise.all([loading, decoded]);

    // After a replayed step: did it do what it did when recorded?
    const previous = this.last;
    this.last = undefined;
    this.checking = previous;
    const refusal = previous?.by === 'replay' ? refusedResult(request) : undefined;
    if (previous && refusal !== undefined) {
      const step = steps[previous.index]!;
      return this.diverge({ kind: 'refused', index: previous.index, message: `the replayed action was not run: ${refusal}`, seen: data, expectedImage: step.before.image }, request, image, signal);
    }
    if (previous?.by === 'replay') {
      const step = steps[previous.index]!;
      const elementDiverged = previous.elements?.length ? await elementEffectDiverges(previous.elements, computer) : undefined;
      if (elementDiverged) return this.diverge({ kind: 'effect', index: previous.index, message: elementDiverged, seen: data, ...(step.after ? { expectedImage: step.after.image } : {}) }, request, image, signal);
      const diverged = await this.effectDiverges(step, previous, grey, fingerprint, greyVia, request.observation.region);
      if (diverged) return this.diverge({ kind: 'effect', index: previous.index, message: diverged, seen: data, ...(step.after ? { expectedImage: step.after.image } : {}) }, request, image, signal);
    }
    if (this.index >= steps.length) return this.end(request, image, data, fingerprint, greyVia, previous, signal);

    const step = steps[this.index]!;
    // Patches are compared at the recording's resolution (screen-match.ts decodeGrey).
    const screen: ScreenNow = { record: request.observation, image: data, grey: greyVia };
    // A target that will be checked in place needs the through-size pixels: they start now,
    // beside the screen check. (A failure reaches the compare that awaits the same promise.)
    if (step.actions.some((a) => a.target?.patch && a.target.patch.contrast >= PLAIN_CONTRAST)) void greyVia().catch(() => undefined);
    let distance = await this.resembles(step.before, fingerprint, greyVia, request.observation.region);
    if (distance > SCREEN_MATCH && !this.moved) {
      this.moved = await this.windowMove(step, screen);
      if (this.moved) distance = await this.resembles(step.before, fingerprint, greyVia, request.observation.region);
    }
    if (distance > SCREEN_MATCH) {
      return this.diverge(
        { kind: 'screen', index: this.index, message: `the screen before the step differs from the recorded one (${pct(distance)} of it changed)`, expectedImage: step.before.image, seen: data, distance },
        request,
        image,
        signal,
      );
    }
    const actions: Action[] = [];
    const found: string[] = [];
    const rules: string[] = [];
    const elements: ElementExpectation[] = [];
    for (const recorded of step.actions) {
      const secret = this.unmask(recorded);
      if (secret.kind === 'missing') return this.diverge({ kind: 'secret', index: this.index, message: secret.message, expectedImage: step.before.image, seen: data }, request, image, signal);
      const placed = await this.place(secret.action, recorded.target, screen, computer);
      if (placed.kind === 'missing') {
        return this.diverge(
          { kind: 'target', index: this.index, message: `the target of "${describeAction(recorded.action)}" was not found (${placed.tried.join('; ')})`, expectedImage: step.before.image, seen: data, tried: placed.tried },
          request,
          image,
          signal,
        );
      }
      actions.push(placed.action);
      if (placed.found) found.push(placed.found);
      if (placed.rule) rules.push(placed.rule);
      if (placed.element) elements.push(placed.element);
    }
    // Every target is found again (a missing one says which form failed); the words around them must still read as recorded.
    const textChanged = await this.textNearTargets(step, fingerprint, data, request.observation, greyVia);
    if (textChanged) return this.diverge({ kind: 'screen', index: this.index, message: textChanged, expectedImage: step.before.image, seen: data }, request, image, signal);
    for (const rule of rules) this.stats.rules[rule] = (this.stats.rules[rule] ?? 0) + 1;
    this.lookedAgain = false;
    for (const { action } of step.actions) {
      if (action.type === 'shell' || maskedText(action)) continue;
      const text = carriedText(action);
      if (text !== undefined) this.typedWords.push(...typedWords([text]));
    }
    this.last = { index: this.index, by: 'replay', before: grey, beforeFingerprint: fingerprint, ...(elements.length ? { elements } : {}) };
    this.index += 1;
    this.stats.replayed += 1;
    const call: ModelCall = {
      callId: `${REPLAY_CALL_PREFIX}${this.index}-${++this.calls}`,
      name: 'replay',
      // Logged with the turn: how each target was found again (the audit trail of a replay).
      input: { step: this.index, of: steps.length, found },
      actions: actions.map((action) => ({ ok: true as const, action })),
      // Its element ops carry the element found again by path: the runner keeps those targets.
      ...(elements.length ? { foundElements: true as const } : {}),
      // A recorded code block's computer calls are in the pixels of the screenshot its model had.
      ...(actions.some((action) => codeBlockOf(action)) ? { blockSpace: step.before.size } : {}),
    };
    // The recorded intent is logged as this step's reasoning: a healed trajectory keeps it.
    return { assistant: { role: 'assistant', text: step.intent || `step ${this.index} of ${steps.length}`, calls: [call] }, usage: ZERO_TOKENS, stopReason: 'tool_use' };
  }

  /**
   * Every recorded step is done: how the replay ends.
   *   1. The model never acted (no heal): the recorded final screen must be reached after
   *      a replayed step (else a `final` divergence); then the end calls (QA: the passing
   *      run's verdict, which DeskPilot's checks then test) or finish.
   *   2. The model healed something and this is a plain replay whose final screen matches
   *      the recording: finish.
   *   3. Otherwise (a QA case after any heal, or a healed replay ending elsewhere): the
   *      model judges the end like a model run (heal.ts) — never a verdict in its name.
   */
  private async end(request: TurnRequest, image: TranscriptImage, data: Buffer, fingerprint: string, greyVia: () => Promise<GreyImage>, previous: ReplayProvider['last'], signal: AbortSignal): Promise<ModelTurn> {
    const { steps, final } = this.options.trajectory;
    const distance = final ? await this.resembles(final, fingerprint, greyVia, request.observation.region) : 0;
    const summary = `replayed ${this.stats.replayed} of ${steps.length} steps${this.stats.healed.length ? `, ${this.stats.healed.length} healed by the model` : ''}`;
    if (this.stats.modelCalls === 0) {
      if (final && previous?.by === 'replay' && distance > SCREEN_MATCH) {
        return this.diverge({ kind: 'final', index: steps.length, message: `the final screen differs from the recorded one (${pct(distance)} of it)`, expectedImage: final.image, seen: data, distance }, request, image, signal);
      }
      const end = this.ended ? undefined : this.options.endCalls?.();
      this.ended = true;
      if (end?.length) return { assistant: { role: 'assistant', text: summary, calls: end }, usage: ZERO_TOKENS, stopReason: 'tool_use' };
      return this.finish(summary);
    }
    const judgeWith: JudgeWith = this.options.endCalls ? 'verdict' : 'finish';
    if (judgeWith === 'finish' && distance <= SCREEN_MATCH) return this.finish(summary);
    const why = judgeWith === 'verdict' ? 'the model acted in it, so the recorded verdict no longer stands' : `the final screen differs from the recorded one (${pct(distance)} of it)`;
    return this.judge(request, image, judgePrompt(this.options.trajectory.task, summary, why, judgeWith), signal);
  }

  /** Hands the end of the replay to the model for good (heal.ts Judgement). */
  private judge(request: TurnRequest, image: TranscriptImage, prompt: string, signal: AbortSignal): Promise<ModelTurn> {
    this.judgement = new Judgement(request, prompt, image);
    return this.askModel(this.judgement.request(request), signal);
  }

  private askModel(request: TurnRequest, signal: AbortSignal): Promise<ModelTurn> {
    this.stats.modelCalls += 1;
    return this.options.healer!.turn(request, signal);
  }

  /**
   * The recorded action with a masked secret put back from the environment variable its
   * secretRef names (the value is told to the log's scrubber first); or what is missing.
   */
  private unmask(recorded: TrajectoryStep['actions'][number]): { kind: 'ok'; action: Action } | { kind: 'missing'; message: string } {
    const { action } = recorded;
    if (!maskedText(action)) return { kind: 'ok', action };
    const name = recorded.secretRef?.env;
    const value = name === undefined ? undefined : (this.options.env ?? process.env)[name];
    if (!value) {
      const need = name === undefined ? 'the trajectory names no secretRef {"env": …} to take it from' : `set the environment variable ${name} to it (or replay at a terminal, which asks for it)`;
      return { kind: 'missing', message: `the step types a secret that was masked when recorded, and a mask is never typed: ${need}` };
    }
    this.options.markSecret?.(value);
    // A function as the replacement: a string one reads "$&", "$1" … in the secret as patterns.
    const put = (text: string) => text.replaceAll(MASKED_SECRET, () => value).replaceAll(REDACTED, () => value);
    if (action.type === 'type') return { kind: 'ok', action: { ...action, text: put(action.text) } };
    if (action.type === 'element' && action.value !== undefined) return { kind: 'ok', action: { ...action, value: put(action.value) } };
    // A block's code (or a command) held the secret where the mask is now: put back, it is the code that ran.
    if (action.type === 'shell') return { kind: 'ok', action: { ...action, command: put(action.command) } };
    return { kind: 'ok', action };
  }

  /** The recorded action moved to its target now, in the pixels of this screenshot; or why it cannot be. */
  private async place(
    action: Action,
    target: TrajectoryStep['actions'][number]['target'],
    screen: ScreenNow,
    computer: ElementLookups,
  ): Promise<{ kind: 'placed'; action: Action; found?: string; rule?: string; element?: ElementExpectation } | Extract<TargetLookup, { kind: 'missing' }>> {
    // An element action's id named an entry of the list the model was sent; a replay has no
    // such list. A click is replayed as a click on the element found again (the target
    // rules below); focus, set_value and invoke as the same op on the element its recorded
    // path finds now (element-ops.ts), never on one it does not find.
    if (action.type === 'element') {
      if (isElementOp(action)) return this.placeElementOp(action, screen, computer);
      if (!action.target) return { kind: 'missing', tried: ['the recorded element click names no element'] };
      action = { type: 'click', x: action.target.x, y: action.target.y, button: 'left', clicks: 1, modifiers: [] };
    }
    const recordedPoint = pointerTargetPoint(action);
    let shift: Point = { x: 0, y: 0 };
    let how: string | undefined;
    let rule: string | undefined;
    if (recordedPoint && target) {
      const found = await findTarget(target, screen, { computer, readFile: (p) => this.options.readFile(p) });
      if (found.kind === 'missing') return found;
      rule = found.rule;
      shift = { x: found.point.x - target.point.x, y: found.point.y - target.point.y };
      how = `${found.rule}: ${found.detail}`;
    }
    const placed = inScreenshot(action, shift, screen);
    if (!placed) return { kind: 'missing', tried: ['the target is found, but off the screen the replay watches'] };
    return { kind: 'placed', action: placed, ...(how ? { found: how } : {}), ...(rule ? { rule } : {}) };
  }

  private async placeElementOp(
    action: ElementOpAction,
    screen: ScreenNow,
    computer: ElementLookups,
  ): Promise<{ kind: 'placed'; action: Action; found: string; rule: string; element: ElementExpectation } | Extract<TargetLookup, { kind: 'missing' }>> {
    const placed = await placeElementOp(action, computer);
    if (placed.kind === 'missing') return placed;
    // Its point is what the approval card and the overlays show, in this screenshot's pixels;
    // the runner's check refuses a point outside it, so an element off this screen is missing here.
    const inImage = inScreenshot(placed.action, { x: 0, y: 0 }, screen);
    if (!inImage) return { kind: 'missing', tried: [`${placed.found}: found, but off the screen the replay watches`] };
    return { kind: 'placed', action: inImage, found: placed.found, rule: 'element-path', element: placed.expect };
  }

  /**
   * How far the screen now is from a recorded one (share of fingerprint cells): the whole
   * screen, or, once the window is known to have moved, inside the window where it is now.
   */
  private async resembles(shot: TrajectoryShot, fingerprint: string, nowVia: () => Promise<GreyImage>, region: Rect): Promise<number> {
    const whole = fingerprintDistance(fingerprint, shot.fingerprint);
    if (whole <= SCREEN_MATCH || !this.moved) return whole;
    const then = await decodeGrey(await this.options.readFile(shot.image), region);
    const { window, shift } = this.moved;
    const was = { x: window.x - region.x, y: window.y - region.y, width: window.width, height: window.height };
    return regionDistance(then, was, await nowVia(), { ...was, x: was.x + shift.x, y: was.y + shift.y });
  }

  /**
   * The words around each of the step's targets, as recorded (text-near.ts): a changed
   * sentence in a dialog passes the whole-screen check. Read by OCR only where the
   * fingerprint cells there moved (in a moved window: the same cells where they are now),
   * and a word counts only where its pixels differ too, aligned by the window's move.
   */
  private async textNearTargets(step: TrajectoryStep, fingerprint: string, image: Buffer, record: ObservationRecord, nowVia: () => Promise<GreyImage>): Promise<string | undefined> {
    const shift = this.moved?.shift ?? { x: 0, y: 0 };
    let file: Promise<Buffer> | undefined;
    let greys: Promise<[GreyImage, GreyImage]> | undefined;
    const recorded = () => (file ??= this.options.readFile(step.before.image));
    const bothGrey = () => (greys ??= Promise.all([recorded().then((b) => decodeGrey(b, record.region)), nowVia()]));
    for (const { target } of step.actions) {
      if (!target) continue;
      const area = areaAround(target);
      // Unchanged cells there say the text is the same (in a moved window: its pixels moved back first).
      const cells = this.moved ? await fingerprintMovedBack(await nowVia(), shift, record.region) : fingerprint;
      const changed = cellsChangedIn(step.before.fingerprint, cells, area, record.region);
      if (changed === 0) continue;
      const then = recordedShot(await recorded(), step.before, this.options.trajectory.display, record.image);
      const [wordsThen, wordsNow, [greyThen, greyNow]] = await Promise.all([wordsIn(then, area), wordsIn({ image, record }, areaAround(target, shift)), bothGrey()]);
      const origin = { x: record.region.x, y: record.region.y };
      const differ = wordsDiffer(wordsThen, wordsNow, pixelsAgree({ grey: greyThen, origin }, { grey: greyNow, origin }, shift), this.typedWords);
      if (differ) return differ;
    }
    return undefined;
  }

  /** Did the step's window move? Its first pointer target, found again somewhere else, says by how much. */
  private async windowMove(step: TrajectoryStep, screen: ScreenNow): Promise<{ window: Rect; shift: Point } | undefined> {
    const first = step.actions.find((a) => a.target?.window && pointerTargetPoint(a.action));
    const target = first?.target;
    if (!target?.window) return undefined;
    const found = await findTarget(target, screen, { computer: this.options.computer, readFile: (p) => this.options.readFile(p) });
    if (found.kind !== 'found' || found.rule === 'in-place' || found.rule === 'point') return undefined;
    const shift = { x: Math.round(found.point.x - target.point.x), y: Math.round(found.point.y - target.point.y) };
    return shift.x === 0 && shift.y === 0 ? undefined : { window: target.window.bounds, shift };
  }

  /**
   * Did the step do what it did when recorded? The screen after it must resemble the
   * recorded one, and a step whose recording changed the screen must change it now —
   * but only by the change that is the step's own (effect.ts ownChange): one that was
   * already on the screen before the step (an earlier step's text drawn late in the
   * recording) or in cells that show neither recorded state now (a clock, a spinner)
   * is not asked of it again.
   */
  private async effectDiverges(step: TrajectoryStep, placed: NonNullable<ReplayProvider['last']>, now: GreyImage, fingerprint: string, nowVia: () => Promise<GreyImage>, region: Rect): Promise<string | undefined> {
    if (!step.after) return undefined;
    const distance = await this.resembles(step.after, fingerprint, nowVia, region);
    if (distance > SCREEN_MATCH) return `after the step the screen differs from the recorded one (${pct(distance)} of it)`;
    // Inside a moved window the cells are not where they were recorded: any recorded change counts.
    // A secret region's cells are left out, and the screen before the step gets the fills the one after it got: both sides hide the same field (secret-mask.ts).
    const hidden = maskedCells(unionRegions(step.before.masked, step.after.masked), region);
    const own = placed.beforeFingerprint === undefined || this.moved ? fingerprintDistance(step.before.fingerprint, step.after.fingerprint) > 0 : ownChange(step.before.fingerprint, step.after.fingerprint, placed.beforeFingerprint, hidden) > 0;
    const changedNow = placed.before === undefined || changedPixels(maskGrey(placed.before, this.maskedNow, region), now) >= CHANGED_PIXELS;
    if (own && !changedNow) return 'the step changed the screen when recorded, and nothing changed now';
    return undefined;
  }

  private async diverge(found: Omit<Divergence, 'region' | 'masked'>, request: TurnRequest, image: TranscriptImage, signal: AbortSignal): Promise<ModelTurn> {
    const divergence: Divergence = { ...found, region: request.observation.region, masked: this.maskedNow };
    const onScreen = divergence.kind !== 'refused' && divergence.kind !== 'secret';
    if (onScreen && !this.lookedAgain) return this.lookAgain(divergence, request, signal);
    this.lookedAgain = false;
    this.stats.divergences.push(divergence);
    const { steps } = this.options.trajectory;
    const at = where(divergence, steps.length);
    if (this.options.mode === 'strict' || !this.options.healer || divergence.kind === 'secret') {
      await this.options.onDivergence?.(divergence);
      return this.finish(`replay diverged at ${at}: ${divergence.message}; nothing of the step was done`, false);
    }
    // Heal: the model does this step from the screen as it is now; the end of the task, it judges (end()).
    const step = steps[divergence.index];
    if (!step) {
      const summary = `replayed ${this.stats.replayed} of ${steps.length} steps`;
      return this.judge(request, image, judgePrompt(this.options.trajectory.task, summary, divergence.message, this.options.endCalls ? 'verdict' : 'finish'), signal);
    }
    const intent = step.intent || step.actions.map((a) => describeAction(a.action)).join(', ');
    const text = [
      `Task: ${this.options.trajectory.task}`,
      '',
      `A recorded run of this task is being replayed, and at ${at} the screen no longer matches the recording: ${divergence.message}.`,
      `What that step did when recorded: ${intent} (${step.actions.map((a) => describeAction(a.action)).join(', ')}).`,
      'Do that step on the screen as it is now. The replay continues with the next recorded step after your actions.',
    ].join('\n');
    const turn = await this.askModel(stepHealRequest(request, text, image), signal);
    this.stats.healed.push(divergence.index);
    this.index = divergence.index + 1;
    this.last = { index: divergence.index, by: 'model' };
    return turn;
  }

  /**
   * The screen did not match (yet): settle a full window (SETTLE_DEFAULTS.quietMs) and ask
   * the runner for a fresh screenshot, on which the same checks run once more. A
   * screenshot call is looking, not acting: no gate, and no step of the trajectory.
   */
  private async lookAgain(why: Divergence, request: TurnRequest, signal: AbortSignal): Promise<ModelTurn> {
    this.lookedAgain = true;
    this.last = this.checking;
    await this.options.computer.settle({ quietMs: SETTLE_DEFAULTS.quietMs, displayId: request.observation.display.id, signal });
    const call: ModelCall = {
      callId: `${REPLAY_CALL_PREFIX}look-${++this.calls}`,
      name: 'replay',
      input: { lookAgain: true },
      actions: [{ ok: true, action: { type: 'screenshot' } }],
    };
    // The check that failed is said (the log's audit trail): a look again that then matches leaves no divergence behind.
    const text = `The screen does not match the recording yet (${where(why, this.options.trajectory.steps.length)}: ${why.message}): looking again once it has settled.`;
    return { assistant: { role: 'assistant', text, calls: [call] }, usage: ZERO_TOKENS, stopReason: 'tool_use' };
  }

  private finish(summary: string, success = true): ModelTurn {
    const call: ModelCall = {
      callId: `${REPLAY_CALL_PREFIX}end-${++this.calls}`,
      name: 'replay',
      input: { finish: success },
      actions: [{ ok: true, action: { type: 'finish', success, summary } }],
    };
    return { assistant: { role: 'assistant', text: summary, calls: [call] }, usage: ZERO_TOKENS, stopReason: 'tool_use' };
  }
}

/** Which step a divergence is at, for a person: "step 3 of 10", or "the end". */
function where(divergence: Divergence, steps: number): string {
  return divergence.index < steps ? `step ${divergence.index + 1} of ${steps}` : 'the end';
}

/** The action's global points, shifted, in the pixels of the screenshot the replay looked at; undefined when one is off it. */
function inScreenshot(action: Action, shift: Point, screen: ScreenNow): Action | undefined {
  let outside = false;
  const placed = mapActionPoints(action, (p) => {
    const image = globalToImage({ x: p.x + shift.x, y: p.y + shift.y }, screen.record);
    if (!image) outside = true;
    return image ?? p;
  });
  return outside ? undefined : placed;
}

function pct(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** The text of the last tool result when it answers a replay call that did not run (rejected, denied, failed). */
function refusedResult(request: TurnRequest): string | undefined {
  // The results of the last turn come after its assistant item (a user note may follow them).
  for (let i = request.transcript.length - 1; i >= 0; i--) {
    const item = request.transcript[i]!;
    if (item.role === 'assistant') return undefined;
    if (item.role === 'tool_result' && item.callId.startsWith(REPLAY_CALL_PREFIX) && !item.ok) return item.text.split('\n')[0];
  }
  return undefined;
}

/**
 * The screenshot of the request: the newest transcript image that is not a zoom. When
 * the screen did not change the runner sends no new image (its pixels are the newest one's).
 */
function latestImage(request: TurnRequest): TranscriptImage {
  for (let i = request.transcript.length - 1; i >= 0; i--) {
    const item = request.transcript[i]!;
    const image = item.role === 'assistant' ? undefined : item.image;
    if (image && !image.zoom) return image;
  }
  throw new Error('the replay got no screenshot to compare with the recording');
}
