/**
 * No false divergence (issue 28 item 4): a step is not credited with a change that
 * belongs to an earlier one or that happens by itself. The recording here is the one the
 * issue found: click a text field, type "Replay ✓ Grüße 7", press Return — its screenshot
 * after the type step shows only "Replay " (the app drew the rest late), so the recording
 * credits Return with the rest of the text. A faster replay sees the whole text before
 * Return and no change after it. Driven turn by turn on drawn screens.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Action, Rect } from '../../src/shared/actions.js';
import { fillSecretRegions } from '../../src/main/sessions/redact-image.js';
import { maskedCells } from '../../src/main/agent/replay/secret-mask.js';
import { TRAJECTORY_FORMAT, TRAJECTORY_SCHEMA, type Trajectory } from '../../src/shared/trajectory.js';
import { ReplayProvider } from '../../src/main/agent/replay/replay-provider.js';
import { ownChange } from '../../src/main/agent/replay/effect.js';
import { screenFingerprint } from '../../src/os-control/screen-match.js';
import type { ModelTurn } from '../../src/main/agent/providers/types.js';
import { H, record, requestOn, W } from './drawn-screen.js';

const TEXT = 'Replay ✓ Grüße 7';

/** A page with a text field (focused: a blue border) holding `text`, and a clock in the corner. */
async function page(text: string, focused: boolean, clock = '10:01'): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="white"/>
<rect x="100" y="100" width="360" height="34" fill="white" stroke="${focused ? '#1a73e8' : '#999'}" stroke-width="${focused ? 3 : 1}"/>
<text x="110" y="124" font-family="DejaVu Sans" font-size="16">${text}</text><text x="500" y="380" font-family="DejaVu Sans" font-size="36">${clock}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const signal = new AbortController().signal;
const actionsOf = (turn: ModelTurn) => turn.assistant.calls.flatMap((c) => c.actions.flatMap((a) => (a.ok ? [a.action] : [])));

/** A trajectory of drawn steps: each its action, and the screens recorded before and after it. */
async function replayOf(steps: Array<{ action: Action; before: Buffer; after: Buffer; beforeMasked?: Rect[]; afterMasked?: Rect[] }>) {
  const files = new Map<string, Buffer>();
  const shot = async (png: Buffer) => {
    const name = `s${files.size}.png`;
    files.set(name, png);
    return { image: name, fingerprint: await screenFingerprint(png), size: { width: W, height: H } };
  };
  const trajectory: Trajectory = {
    format: TRAJECTORY_FORMAT,
    schema: TRAJECTORY_SCHEMA,
    revision: 1,
    task: 'write into the field',
    runId: 'r1',
    display: { x: 0, y: 0, width: W, height: H },
    steps: await Promise.all(
      steps.map(async (s, i) => ({
        step: i,
        intent: '',
        actions: [{ action: s.action, ...(s.action.type === 'click' ? { target: { point: { x: s.action.x, y: s.action.y } } } : {}) }],
        before: { ...(await shot(s.before)), ...(s.beforeMasked ? { masked: s.beforeMasked } : {}) },
        after: { ...(await shot(s.after)), ...(s.afterMasked ? { masked: s.afterMasked } : {}) },
        origin: 'model' as const,
      })),
    ),
    final: { ...(await shot(steps.at(-1)!.after)), ...(steps.at(-1)!.afterMasked ? { masked: steps.at(-1)!.afterMasked } : {}) },
  };
  return new ReplayProvider({
    trajectory,
    mode: 'strict',
    readFile: async (p) => files.get(p)!,
    computer: {
      findElement: () => Promise.reject(new Error('no tree in this test')),
      elementTree: () => Promise.reject(new Error('no tree in this test')),
      settle: async (o = {}) => ({ waitedMs: o.quietMs ?? 0, settled: true }),
    },
  });
}

const click: Action = { type: 'click', x: 280, y: 117, button: 'left', clicks: 1, modifiers: [] };
const type: Action = { type: 'type', text: TEXT };
const enter: Action = { type: 'key', keys: 'Return', repeat: 1 };

/** The recording: the type step's screenshot came before the app drew most of the text. */
async function slowRecording() {
  const [blank, focused, partial, whole] = await Promise.all([page('', false), page('', true), page('Replay ', true), page(TEXT, true)]);
  return {
    screens: { blank, focused, whole },
    provider: await replayOf([
      { action: click, before: blank, after: focused },
      { action: type, before: focused, after: partial },
      { action: enter, before: partial, after: whole },
    ]),
  };
}

describe('the effect check credits a step only with its own change', () => {
  it('a recording whose type step was slow to draw replays with --strict: Return changing nothing is not a divergence', async () => {
    const { provider, screens } = await slowRecording();
    expect(actionsOf(await provider.turn(requestOn(screens.blank), signal))).toMatchObject([{ type: 'click' }]);
    expect(actionsOf(await provider.turn(requestOn(screens.focused), signal))).toEqual([type]);
    // The replay's screen after typing shows all of it, before Return.
    expect(actionsOf(await provider.turn(requestOn(screens.whole), signal))).toEqual([enter]);
    const end = await provider.turn(requestOn(screens.whole), signal);
    expect(actionsOf(end)).toMatchObject([{ type: 'finish', success: true }]);
    expect(provider.stats).toMatchObject({ replayed: 3, divergences: [] });
  });

  it("a step whose own change is missing still diverges: the recorded 'before' is on the screen and stays", async () => {
    const { provider, screens } = await slowRecording();
    const partial = await page('Replay ', true);
    await provider.turn(requestOn(screens.blank), signal);
    await provider.turn(requestOn(screens.focused), signal);
    // This time the screen before Return is the recorded one ("Replay "), and Return leaves it so.
    expect(actionsOf(await provider.turn(requestOn(partial), signal))).toEqual([enter]);
    expect(actionsOf(await provider.turn(requestOn(partial), signal))).toEqual([{ type: 'screenshot' }]);
    const end = await provider.turn(requestOn(partial), signal);
    expect(actionsOf(end)).toMatchObject([{ type: 'finish', success: false }]);
    expect(provider.stats.divergences).toMatchObject([{ kind: 'effect', index: 2, message: 'the step changed the screen when recorded, and nothing changed now' }]);
  });

  it('a change that happens by itself (a clock) is nobody\'s: a step that changed only the clock when recorded need not change anything now', async () => {
    const [at1, at2, at7] = await Promise.all([page(TEXT, true, '10:01'), page(TEXT, true, '10:02'), page(TEXT, true, '10:08')]);
    const provider = await replayOf([{ action: enter, before: at1, after: at2 }]);
    expect(actionsOf(await provider.turn(requestOn(at7), signal))).toEqual([enter]);
    expect(actionsOf(await provider.turn(requestOn(at7), signal))).toMatchObject([{ type: 'finish', success: true }]);
  });

  it('a password typed into a field is no false divergence: the field, filled on every stored screen, is left out of the effect check', async () => {
    // The step tree's password field is a secret region of every screenshot stored (issue 28 item 8), so its pixels are
    // its mean both before and after. Focused and holding dots its mean is ~22 levels darker: a changed fingerprint cell
    // (> 16) when recorded, and no changed pixel (> 32) now — the change the step made is hidden on both sides.
    const field: Rect = { x: 98, y: 98, width: 364, height: 38 };
    const [empty, typed] = await Promise.all([page('', false), page('●●●●●●', true)]);
    const [storedBefore, storedAfter] = await Promise.all([fillSecretRegions(empty, record, [field]), fillSecretRegions(typed, record, [field])]);
    const provider = await replayOf([{ action: { type: 'type', text: 'tulip7' }, before: storedBefore, beforeMasked: [field], after: storedAfter, afterMasked: [field] }]);
    expect(actionsOf(await provider.turn(requestOn(empty), signal))).toEqual([{ type: 'type', text: 'tulip7' }]);
    const end = await provider.turn(requestOn(typed), signal);
    expect(provider.stats.divergences).toEqual([]);
    expect(actionsOf(end)).toMatchObject([{ type: 'finish', success: true }]);
  });

  it('maskedCells: the fingerprint cells a region touches, rounded out to whole cells', () => {
    // 640×400 over 64×40 cells: a cell is 10×10 px.
    expect([...maskedCells([{ x: 10, y: 10, width: 10, height: 10 }], record.region)]).toEqual([65]);
    expect([...maskedCells([{ x: 15, y: 5, width: 10, height: 1 }], record.region)].sort((a, b) => a - b)).toEqual([1, 2]);
    expect([...maskedCells([{ x: 700, y: 0, width: 10, height: 10 }], record.region)]).toEqual([]);
    const shifted = { ...record.region, x: 100, y: 50 };
    expect([...maskedCells([{ x: 110, y: 60, width: 10, height: 10 }], shifted)]).toEqual([65]);
  });

  it('ownChange leaves out the hidden cells', () => {
    const cells = 64 * 40;
    const fp = (first: number) => {
      const b = Buffer.alloc(cells, 100);
      b[0] = first;
      return b.toString('base64');
    };
    expect(ownChange(fp(100), fp(140), fp(100), new Set([0]))).toBe(0);
    expect(ownChange(fp(100), fp(140), fp(100), new Set([1]))).toBe(1);
  });

  it('ownChange counts the changed cells that show the recorded "before" now', async () => {
    const [partial, whole, blank] = await Promise.all([page('Replay ', true), page(TEXT, true), page('', true)]);
    const [p, w, b] = await Promise.all([screenFingerprint(partial), screenFingerprint(whole), screenFingerprint(blank)]);
    expect(ownChange(p, w, p)).toBeGreaterThan(0);
    expect(ownChange(p, w, w)).toBe(0);
    expect(ownChange(p, p, p)).toBe(0);
    expect(ownChange(b, w, b)).toBeGreaterThan(ownChange(p, w, p));
    expect(ownChange(p, w, 'AAAA')).toBe(64 * 40);
  });

  it('ownChange at the cell limits: a change is more than 16 grey levels; "before" shown now is within 16', () => {
    const cells = 64 * 40;
    const fp = (first: number, rest = 100) => {
      const b = Buffer.alloc(cells, rest);
      b[0] = first;
      return b.toString('base64');
    };
    // Cell 0 moved by 17 levels when recorded (a change), by 16 (none).
    expect(ownChange(fp(100), fp(117), fp(100))).toBe(1);
    expect(ownChange(fp(100), fp(116), fp(100))).toBe(0);
    // Now it shows the recorded "before" within 16 levels (its own), or 17 away (not).
    expect(ownChange(fp(100), fp(140), fp(116))).toBe(1);
    expect(ownChange(fp(100), fp(140), fp(117))).toBe(0);
    // Any of the three not a 64×40 fingerprint: every cell counts.
    const short = Buffer.alloc(cells - 1, 100).toString('base64');
    expect([ownChange(short, fp(100), fp(100)), ownChange(fp(100), short, fp(100)), ownChange(fp(100), fp(100), short)]).toEqual([cells, cells, cells]);
  });
});
