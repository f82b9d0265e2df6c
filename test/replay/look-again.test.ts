/**
 * A replay settles on a short quiet window (REPLAY_SETTLE_QUIET_MS) because it checks
 * every screen against its recording. A screen that does not match yet is looked at once
 * more on a fully settled screen before it is a divergence: driven here turn by turn on
 * drawn screens (the desktop tests replay real apps).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { H, requestOn, screen, W } from './drawn-screen.js';
import type { SettleOptions } from '../../src/os-control/types.js';
import { TRAJECTORY_FORMAT, TRAJECTORY_SCHEMA, type Trajectory } from '../../src/shared/trajectory.js';
import { ReplayProvider, REPLAY_SETTLE_QUIET_MS } from '../../src/main/agent/replay/replay-provider.js';
import { SETTLE_DEFAULTS } from '../../src/os-control/settle.js';
import { screenFingerprint } from '../../src/os-control/screen-match.js';
import type { ModelTurn } from '../../src/main/agent/providers/types.js';

const request = requestOn;

async function setUp() {
  const [unsaved, saved] = await Promise.all([screen('Unsaved'), screen('Saved at 10:02')]);
  const patch = await sharp(unsaved).extract({ left: 124, top: 95, width: 72, height: 40 }).png().toBuffer();
  const files = new Map([
    ['before.png', unsaved],
    ['after.png', saved],
    ['p.png', patch],
  ]);
  const trajectory: Trajectory = {
    format: TRAJECTORY_FORMAT,
    schema: TRAJECTORY_SCHEMA,
    revision: 1,
    task: 'save',
    runId: 'r1',
    display: { x: 0, y: 0, width: W, height: H },
    steps: [
      {
        step: 1,
        intent: 'Save the file.',
        actions: [{ action: { type: 'click', x: 160, y: 115, button: 'left', clicks: 1, modifiers: [] }, target: { point: { x: 160, y: 115 }, patch: { image: 'p.png', bounds: { x: 124, y: 95, width: 72, height: 40 }, contrast: 40 } } }],
        before: { image: 'before.png', fingerprint: await screenFingerprint(unsaved) },
        after: { image: 'after.png', fingerprint: await screenFingerprint(saved) },
        origin: 'model',
      },
    ],
    final: { image: 'after.png', fingerprint: await screenFingerprint(saved) },
  };
  const settles: SettleOptions[] = [];
  const provider = new ReplayProvider({
    trajectory,
    mode: 'strict',
    readFile: async (p) => files.get(p)!,
    computer: {
      findElement: () => Promise.reject(new Error('no tree in this test')),
      elementTree: () => Promise.reject(new Error('no tree in this test')),
      settle: async (o = {}) => (settles.push(o), { waitedMs: o.quietMs ?? 0, settled: true }),
    },
  });
  return { provider, settles, unsaved, saved };
}

const signal = new AbortController().signal;
const actionsOf = (turn: ModelTurn) => turn.assistant.calls.flatMap((c) => c.actions.flatMap((a) => (a.ok ? [a.action] : [])));

describe('looking again before a divergence', () => {
  it('asks the runner for a shorter settle than a model run', async () => {
    const { provider } = await setUp();
    expect(provider.settleQuietMs).toBe(REPLAY_SETTLE_QUIET_MS);
    expect(REPLAY_SETTLE_QUIET_MS).toBeLessThan(SETTLE_DEFAULTS.quietMs);
  });

  it('an effect that shows late: one fully settled look again, then the replay goes on', async () => {
    const { provider, settles, unsaved, saved } = await setUp();
    expect(actionsOf(await provider.turn(request(unsaved), signal))).toMatchObject([{ type: 'click', x: 160, y: 115 }]);
    // The click's effect is not on screen yet: no divergence, a settled second look.
    const again = await provider.turn(request(unsaved), signal);
    expect(actionsOf(again)).toEqual([{ type: 'screenshot' }]);
    expect(settles).toEqual([{ quietMs: SETTLE_DEFAULTS.quietMs, displayId: 'd1', signal }]);
    const end = await provider.turn(request(saved), signal);
    expect(actionsOf(end)).toMatchObject([{ type: 'finish', success: true }]);
    expect(provider.stats).toMatchObject({ replayed: 1, divergences: [], rules: { 'in-place': 1 } });
  });

  it('an effect still missing on the second look is a divergence, named as the effect of that step', async () => {
    const { provider, settles, unsaved } = await setUp();
    await provider.turn(request(unsaved), signal);
    expect(actionsOf(await provider.turn(request(unsaved), signal))).toEqual([{ type: 'screenshot' }]);
    const end = await provider.turn(request(unsaved), signal);
    expect(actionsOf(end)).toMatchObject([{ type: 'finish', success: false }]);
    expect(end.assistant.text).toMatch(/replay diverged at step 1 of 1: the step changed the screen when recorded, and nothing changed now/);
    expect(provider.stats.divergences).toMatchObject([{ kind: 'effect', index: 0 }]);
    expect(settles).toHaveLength(1);
  });

  it('a screen that differs before the first step is looked at again too, then refused without acting', async () => {
    const { provider } = await setUp();
    const covered = await screen('Unsaved', true);
    expect(actionsOf(await provider.turn(request(covered), signal))).toEqual([{ type: 'screenshot' }]);
    const end = await provider.turn(request(covered), signal);
    expect(actionsOf(end)).toMatchObject([{ type: 'finish', success: false }]);
    expect(provider.stats).toMatchObject({ replayed: 0, divergences: [{ kind: 'screen', index: 0 }] });
  });

  it("the look again says which check failed", async () => {
    const { provider, unsaved } = await setUp();
    await provider.turn(request(unsaved), signal);
    const again = await provider.turn(request(unsaved), signal);
    expect(again.assistant.text).toMatch(/does not match the recording yet \(step 1 of 1: the step changed the screen when recorded, and nothing changed now\)/);
  });
});

describe("a capture's own pixels (Provider.wantsScreenPixels)", () => {
  /** The grey pixels of an encoded screen, as os-control hands them with a capture (Observation.grey). */
  async function greyPixels(png: Buffer) {
    const data = await sharp(png).greyscale().raw().toBuffer();
    return { data: new Uint8Array(data), width: W, height: H };
  }

  it('asks for them, and compares them, not the encoded file it reads for OCR and reports', async () => {
    const { provider, unsaved, saved } = await setUp();
    expect(provider.wantsScreenPixels).toBe(true);
    // The file shows a dark dialog over half the screen (compared, it would not match and
    // the replay would look again); the capture's pixels show the recorded "Unsaved"
    // screen. The pixels decide: the step is replayed …
    const file = await screen('Unsaved', true);
    const first = await provider.turn({ ...request(file), screen: await greyPixels(unsaved) }, signal);
    expect(actionsOf(first)).toMatchObject([{ type: 'click', x: 160, y: 115 }]);
    // … and its effect is read from the pixels too: "Saved" now, whatever the file holds.
    const end = await provider.turn({ ...request(file), screen: await greyPixels(saved) }, signal);
    expect(actionsOf(end)).toMatchObject([{ type: 'finish', success: true }]);
    expect(provider.stats).toMatchObject({ replayed: 1, divergences: [] });
  });

  it('without them (another runner, a fake computer) the encoded screenshot is decoded as before', async () => {
    const { provider, unsaved, saved } = await setUp();
    expect(actionsOf(await provider.turn(request(unsaved), signal))).toMatchObject([{ type: 'click' }]);
    expect(actionsOf(await provider.turn(request(saved), signal))).toMatchObject([{ type: 'finish', success: true }]);
  });
});
