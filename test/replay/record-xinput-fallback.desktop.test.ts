/**
 * The recorder's fallback where the X server has no RECORD extension (issue 28): a
 * private Xvfb seen through a proxy display that hides RECORD (harness/x11-hide-extension;
 * Xvfb's `-extension RECORD` turns XTEST off too, and xdotool, acting as the person
 * through XTEST on the real display, needs it). startInputRecorder says why it falls
 * back, and `xinput test-xi2 --root` gives the button and key presses in order — without
 * the pointer's place, which the caller reads itself on this path. xinput starts
 * listening some time after it is spawned (nothing says when): Shift taps are sent until
 * one comes back, then the real input.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInputRecorder, parseKeysymTable, type InputRecorder, type RawInput } from '../../src/os-control/input-recorder.js';
import { X11Connection } from '../../src/os-control/x11/connection.js';
import { queryExtension } from '../../src/os-control/x11/keyboard.js';
import { hideExtension, type HiddenExtensionDisplay } from '../harness/x11-hide-extension.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

let xvfb: Xvfb;
let noRecord: HiddenExtensionDisplay;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 800, height: 600, windowManager: false });
  noRecord = await hideExtension(xvfb.display, 'RECORD');
}, 90_000);

afterAll(async () => {
  await noRecord?.close();
  await xvfb?.stop();
});

/** The recorder's environment: the display without RECORD. */
const recorderEnv = () => ({ ...xvfb.env, DISPLAY: noRecord.display });

const person = (...args: string[]) => {
  const done = spawnSync('xdotool', args, { env: xvfb.env, timeout: 10_000 });
  if (done.status !== 0) throw new Error(`xdotool ${args.join(' ')}: ${done.stderr.toString()}`);
};

/** The recorder's next input, or undefined when none came within `ms` (the stream stays usable: the pending next() is kept). */
function nextWithin(recorder: InputRecorder, pending: { next?: Promise<RawInput | undefined> }, ms: number): Promise<RawInput | undefined> {
  pending.next ??= recorder.next();
  const next = pending.next;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  return Promise.race([next, timeout]).then((got) => {
    clearTimeout(timer);
    if (got === 'timeout') return undefined;
    pending.next = undefined;
    return got;
  });
}

describe('recording on a server without RECORD (the xinput fallback)', () => {
  it('says why it falls back, then records the person’s click and keys in order, without positions', async () => {
    // The real display has RECORD; the recorder's says it has none, and XInput is there for xinput.
    const present = async (display: string, name: string) => {
      const conn = await X11Connection.open(display);
      try {
        return (await queryExtension(conn, name)).present;
      } finally {
        conn.close();
      }
    };
    expect(await present(xvfb.display, 'RECORD')).toBe(true);
    expect(await present(noRecord.display, 'RECORD')).toBe(false);
    expect(await present(noRecord.display, 'XInputExtension')).toBe(true);

    const reasons: string[] = [];
    const recorder = await startInputRecorder(recorderEnv(), (reason) => reasons.push(reason));
    const pending: { next?: Promise<RawInput | undefined> } = {};
    try {
      expect(reasons).toEqual(['the X server has no RECORD extension']);
      const keysyms = parseKeysymTable(spawnSync('xmodmap', ['-pke'], { env: xvfb.env, encoding: 'utf8' }).stdout);
      const keycodeOf = (name: string) => [...keysyms].find(([, syms]) => syms[0] === name)?.[0];
      const shift = keycodeOf('Shift_L');
      const a = keycodeOf('a');
      expect(shift).toBeDefined();
      expect(a).toBeDefined();

      // Until xinput listens, its input is lost: tap Shift until a tap comes back (bounded: 60 tries of up to 500 ms).
      let listening = false;
      for (let i = 0; i < 60 && !listening; i++) {
        person('key', 'shift');
        listening = (await nextWithin(recorder, pending, 500)) !== undefined;
      }
      expect(listening, 'xinput never reported a Shift tap').toBe(true);

      person('mousemove', '200', '150');
      person('click', '1');
      person('key', 'a');
      const got: RawInput[] = [];
      // Read up to the release of `a`; a late Shift from the taps above is not the person's recorded input.
      for (;;) {
        const input = await nextWithin(recorder, pending, 30_000);
        if (!input) throw new Error(`the recorder went quiet after ${JSON.stringify(got)}`);
        if (input.kind === 'key' && input.detail === shift) continue;
        got.push(input);
        if (input.kind === 'key' && input.detail === a && !input.down) break;
      }
      expect(got.map(({ kind, down, detail }) => ({ kind, down, detail }))).toEqual([
        { kind: 'button', down: true, detail: 1 },
        { kind: 'button', down: false, detail: 1 },
        { kind: 'key', down: true, detail: a },
        { kind: 'key', down: false, detail: a },
      ]);
      // No place on this path: the caller reads the pointer itself.
      expect(got.every((input) => input.point === undefined)).toBe(true);
    } finally {
      recorder.stop();
    }
    // Stopped, the stream answers undefined (and xinput is gone).
    expect(await (pending.next ?? recorder.next())).toBeUndefined();
  }, 120_000);
});
