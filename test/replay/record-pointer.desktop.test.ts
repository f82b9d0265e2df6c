/**
 * The recorder places a click where the button went down (issue 28): on a private Xvfb,
 * xdotool (XTEST, as a person's device) clicks at one point and moves the pointer 400 px
 * away at once, while the recorder is still busy with the step before (a key's settle and
 * screenshot), so the pointer has moved on long before the click is handled. The recorded
 * click holds the press's point — RECORD's root x/y — where reading the pointer on
 * handling (the old xinput path) recorded the point it had moved to.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { recordDemonstration } from '../../src/main/agent/record/record.js';
import { DeviceEventRecord, type DeviceEvent } from '../../src/os-control/x11/device-event-record.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { tempHome } from '../e2e/support.js';

let xvfb: Xvfb;
let computer: DesktopComputer;
const home = tempHome();

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1024, height: 768, windowManager: false });
  process.env.DISPLAY = xvfb.display;
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = createComputer();
  await computer.warmUp();
}, 90_000);

afterAll(async () => {
  await xvfb?.stop();
  home.cleanup();
});

const person = (...args: string[]) => {
  const done = spawnSync('xdotool', args, { env: xvfb.env, timeout: 10_000 });
  if (done.status !== 0) throw new Error(`xdotool ${args.join(' ')}: ${done.stderr.toString()}`);
};

/** Resolves once `count` events have come, or rejects after `ms` with what did. */
function collect(events: DeviceEvent[], count: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (events.length >= count) return resolve();
      if (Date.now() > deadline) return reject(new Error(`${events.length} of ${count} device events came: ${JSON.stringify(events)}`));
      setTimeout(check, 20);
    };
    check();
  });
}

describe('recording where the press happened', () => {
  it("RECORD's device events carry XTEST's presses with the pointer's root position at each", async () => {
    const events: DeviceEvent[] = [];
    const record = await DeviceEventRecord.start((e) => events.push(e), xvfb.display);
    try {
      person('mousemove', '--sync', '120', '140', 'click', '3', 'mousemove', '--sync', '700', '600', 'key', 'a');
      await collect(events, 4, 10_000);
    } finally {
      record.close();
    }
    expect(events).toMatchObject([
      { kind: 'button', down: true, detail: 3, x: 120, y: 140 },
      { kind: 'button', down: false, detail: 3, x: 120, y: 140 },
      { kind: 'key', down: true, x: 700, y: 600 },
      { kind: 'key', down: false, x: 700, y: 600 },
    ]);
  }, 30_000);

  it('a click whose pointer moves on at once is recorded at the press', async () => {
    const stop = new AbortController();
    const actions: string[] = [];
    let ready: () => void = () => {};
    const started = new Promise<void>((resolve) => (ready = resolve));
    const recording = recordDemonstration({ task: 'click, then move away', computer, home: home.home, onReady: () => ready(), onAction: (a) => actions.push(a), signal: stop.signal });
    await started;
    // Escape is a step of its own: the recorder settles and takes a screenshot after it, and
    // the click and the move away come in the meantime (one xdotool, a few ms apart).
    person('key', 'Escape', 'mousemove', '--sync', '200', '150', 'click', '1', 'mousemove', '--sync', '650', '500');
    const deadline = Date.now() + 30_000;
    while (actions.length < 2) {
      if (Date.now() > deadline) throw new Error(`the recorder logged ${JSON.stringify(actions)}, not the key and the click`);
      await new Promise((r) => setTimeout(r, 50));
    }
    stop.abort();
    const { dir } = await recording;
    const executed = readFileSync(path.join(dir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"type":"action_executed"'))
      .map((l) => (JSON.parse(l) as { action: Record<string, unknown> }).action);
    expect(executed).toMatchObject([
      { type: 'key', keys: 'Escape' },
      { type: 'click', x: 200, y: 150, button: 'left' },
    ]);
    // The pointer had moved on when the click was handled: reading it then gives the wrong place.
    expect(await computer.cursorPosition()).toEqual({ x: 650, y: 500 });
  }, 90_000);
});
