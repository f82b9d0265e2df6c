/**
 * The screen check before a step notices a changed sentence next to its target (issue 28
 * item 2): a confirmation dialog recorded as "Remove 1 item?" and replayed on "Remove all
 * 532 items?" has the same Remove button, pixel for pixel, and the whole screen differs
 * in well under SCREEN_MATCH of its cells. Driven turn by turn on drawn screens; the
 * desktop test (replay-dialog.desktop.test.ts) replays a real page's dialog.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { TRAJECTORY_FORMAT, TRAJECTORY_SCHEMA, type Trajectory } from '../../src/shared/trajectory.js';
import { ReplayProvider, SCREEN_MATCH } from '../../src/main/agent/replay/replay-provider.js';
import { fingerprintDistance, screenFingerprint } from '../../src/os-control/screen-match.js';
import type { ModelTurn } from '../../src/main/agent/providers/types.js';
import { dialog } from './drawn-dialog.js';
import { H, requestOn, W } from './drawn-screen.js';

/** The cases that read the screen with OCR: ~2–5 s idle, past 20 s at load ~28 (a mutation run's dry run timed out on one). */
const OCR_CASE_MS = 120_000;

const signal = new AbortController().signal;
const actionsOf = (turn: ModelTurn) => turn.assistant.calls.flatMap((c) => c.actions.flatMap((a) => (a.ok ? [a.action] : [])));
const request = requestOn;

async function setUp() {
  const recorded = await dialog('Remove 1 item?');
  const patch = await sharp(recorded).extract({ left: 394, top: 200, width: 72, height: 40 }).png().toBuffer();
  const done = await dialog('', 'Removed');
  const files = new Map([
    ['before.png', recorded],
    ['after.png', done],
    ['p.png', patch],
  ]);
  const trajectory: Trajectory = {
    format: TRAJECTORY_FORMAT,
    schema: TRAJECTORY_SCHEMA,
    revision: 1,
    task: 'remove the selected item',
    runId: 'r1',
    display: { x: 0, y: 0, width: W, height: H },
    steps: [
      {
        step: 1,
        intent: 'Confirm the removal.',
        actions: [
          {
            action: { type: 'click', x: 430, y: 220, button: 'left', clicks: 1, modifiers: [] },
            target: { point: { x: 430, y: 220 }, patch: { image: 'p.png', bounds: { x: 394, y: 200, width: 72, height: 40 }, contrast: 40 }, window: { title: 'Confirm', app: 'files', bounds: { x: 200, y: 120, width: 300, height: 130 }, offset: { x: 230, y: 100 } } },
          },
        ],
        before: { image: 'before.png', fingerprint: await screenFingerprint(recorded), size: { width: W, height: H } },
        after: { image: 'after.png', fingerprint: await screenFingerprint(done), size: { width: W, height: H } },
        origin: 'model',
      },
    ],
    final: { image: 'after.png', fingerprint: await screenFingerprint(done) },
  };
  return { provider: strictReplay(trajectory, files), trajectory, recorded };
}

/** A strict replay of the drawn trajectory: its files from the map, no accessibility tree. */
function strictReplay(trajectory: Trajectory, files: Map<string, Buffer>): ReplayProvider {
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

describe('the screen check before a step reads the text around its target', () => {
  it('a changed question in the dialog is a screen divergence that says so, and nothing is clicked', async () => {
    const { provider, trajectory } = await setUp();
    const changed = await dialog('Remove all 532 items?');
    // The whole-screen check alone lets it through: that is the hole.
    expect(fingerprintDistance(trajectory.steps[0]!.before.fingerprint, await screenFingerprint(changed))).toBeLessThan(SCREEN_MATCH);
    expect(actionsOf(await provider.turn(request(changed), signal))).toEqual([{ type: 'screenshot' }]);
    const end = await provider.turn(request(changed), signal);
    expect(actionsOf(end)).toMatchObject([{ type: 'finish', success: false }]);
    expect(provider.stats.divergences).toMatchObject([{ kind: 'screen', index: 0 }]);
    // OCR's reading of a 13 px font varies ("532 item", "all 532 items?"): the sentence says what it read on each side.
    expect(provider.stats.divergences[0]!.message).toMatch(/^the text around the target changed: recorded "[^"]*remove 1 item\?[^"]*", now "[^"]*532 item/);
    expect(provider.stats.replayed).toBe(0);
  }, OCR_CASE_MS);

  it('the same dialog replays; a change outside the area around the target (the status bar) does not stop it', async () => {
    const { provider, recorded } = await setUp();
    expect(actionsOf(await provider.turn(request(recorded), signal))).toMatchObject([{ type: 'click', x: 430, y: 220 }]);
    const other = await setUp();
    expect(actionsOf(await other.provider.turn(request(await dialog('Remove 1 item?', 'Saved 10:04')), signal))).toMatchObject([{ type: 'click', x: 430, y: 220 }]);
  }, OCR_CASE_MS);

  it('a moved dialog: the changed question is refused, read where the dialog is now; the same question replays at its new place', async () => {
    const at = { x: -120, y: 60 };
    const { provider } = await setUp();
    const changed = await dialog('Remove all 532 items?', 'Ready', at);
    expect(actionsOf(await provider.turn(request(changed), signal))).toEqual([{ type: 'screenshot' }]);
    expect(actionsOf(await provider.turn(request(changed), signal))).toMatchObject([{ type: 'finish', success: false }]);
    expect(provider.stats.divergences).toMatchObject([{ kind: 'screen', index: 0 }]);
    expect(provider.stats.divergences[0]!.message).toMatch(/^the text around the target changed: recorded "[^"]*remove 1 item\?[^"]*", now .*\((".+" gone|".+" new)/);
    const same = await setUp();
    expect(actionsOf(await same.provider.turn(request(await dialog('Remove 1 item?', 'Ready', at)), signal))).toMatchObject([{ type: 'click', x: 430 + at.x, y: 220 + at.y }]);
  }, OCR_CASE_MS);

  it('text the replay typed one step earlier, missing from a recording taken before the app drew it, is the run\'s own: the next click replays; a word it did not type still diverges', async () => {
    // replay-probe's recording of "alpha" into c3 stored the empty field after the type
    // step (Chromium drew it late), and the click 180 px away then read "alpha" as new.
    const form = (field: string, note = '') =>
      sharp(
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="white"/><rect x="100" y="100" width="160" height="32" fill="white" stroke="#444"/><text x="106" y="122" font-family="DejaVu Sans" font-size="15">${field}</text><text x="100" y="170" font-family="DejaVu Sans" font-size="15">${note}</text><rect x="300" y="100" width="100" height="32" rx="3" fill="#e6e6e6" stroke="#666"/><text x="350" y="121" font-family="DejaVu Sans" font-size="14" text-anchor="middle">Send</text></svg>`,
        ),
      )
        .png()
        .toBuffer();
    const empty = await form('');
    const sent = await form('', 'Sent');
    const patch = await sharp(empty).extract({ left: 314, top: 96, width: 72, height: 40 }).png().toBuffer();
    const shot = async (png: Buffer, image: string) => ({ image, fingerprint: await screenFingerprint(png), size: { width: W, height: H } });
    const files = new Map([
      ['empty.png', empty],
      ['sent.png', sent],
      ['p.png', patch],
    ]);
    const trajectory: Trajectory = {
      format: TRAJECTORY_FORMAT,
      schema: TRAJECTORY_SCHEMA,
      revision: 1,
      task: 'write alpha and send it',
      runId: 'r2',
      display: { x: 0, y: 0, width: W, height: H },
      steps: [
        // The recording's screen after typing is the empty field: taken before the app drew "alpha".
        { step: 1, intent: 'Write alpha.', actions: [{ action: { type: 'type', text: 'alpha' } }], before: await shot(empty, 'empty.png'), after: await shot(empty, 'empty.png'), origin: 'model' },
        {
          step: 2,
          intent: 'Press Send.',
          actions: [{ action: { type: 'click', x: 350, y: 116, button: 'left', clicks: 1, modifiers: [] }, target: { point: { x: 350, y: 116 }, patch: { image: 'p.png', bounds: { x: 314, y: 96, width: 72, height: 40 }, contrast: 40 } } }],
          before: await shot(empty, 'empty.png'),
          after: await shot(sent, 'sent.png'),
          origin: 'model',
        },
      ],
      final: { image: 'sent.png', fingerprint: await screenFingerprint(sent) },
    };
    const replay = () => strictReplay(trajectory, files);
    const typed = replay();
    expect(actionsOf(await typed.turn(request(empty), signal))).toEqual([{ type: 'type', text: 'alpha' }]);
    // This replay's screen shows what it typed: the click goes ahead, no look again.
    expect(actionsOf(await typed.turn(request(await form('alpha')), signal))).toMatchObject([{ type: 'click', x: 350, y: 116 }]);
    expect(typed.stats.divergences).toEqual([]);
    // The same typing, and a word nobody typed beside the field: the text around the target changed.
    const other = replay();
    expect(actionsOf(await other.turn(request(empty), signal))).toEqual([{ type: 'type', text: 'alpha' }]);
    const changed = await form('alpha', 'Overwrite');
    expect(actionsOf(await other.turn(request(changed), signal))).toEqual([{ type: 'screenshot' }]);
    expect(actionsOf(await other.turn(request(changed), signal))).toMatchObject([{ type: 'finish', success: false }]);
    expect(other.stats.divergences).toMatchObject([{ kind: 'screen', index: 1, message: expect.stringMatching(/"overwrite" new\)$/) }]);
  }, OCR_CASE_MS);
});
