/**
 * Real desktop: a person moving the mouse (xdotool on the Xvfb server) during a run
 * pauses the run with the reason; the agent's own moves do not.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { pointerPosition } from '../harness/native-apps.js';
import { createRunControl } from '../../src/main/agent/supervision/run-control.js';
import { createTakeoverWatch } from '../../src/main/agent/supervision/takeover-watch.js';
import type { RunEventInput } from '../../src/shared/events.js';
import { startX11InputActivity, type InputActivity } from '../../src/main/agent/supervision/x11-input-activity.js';

let xvfb: Xvfb;
beforeAll(async () => {
  xvfb = await startXvfb({ width: 1024, height: 768 });
});
afterAll(async () => {
  await xvfb?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function xdo(...args: string[]): void {
  const r = spawnSync('xdotool', args, { env: xvfb.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
}

function mouseTo(x: number, y: number): void {
  const r = spawnSync('xdotool', ['mousemove', '--sync', String(x), String(y)], { env: xvfb.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
}

async function until(cond: () => boolean, timeoutMs = 3_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

describe('human takeover on X11', () => {
  it('moving the pointer during a run pauses it and says why; the agent moving it does not', async () => {
    mouseTo(100, 100);
    const events: RunEventInput[] = [];
    const control = createRunControl({ emit: (e) => events.push(e) });
    const watch = createTakeoverWatch({ readPointer: async () => pointerPosition(xvfb), control, mode: 'pause', intervalMs: 50 });
    await watch.start();
    try {
      // The agent moves the pointer as part of an action: not a takeover.
      await watch.agentActing(async () => mouseTo(400, 300), { x: 400, y: 300 });
      await new Promise((r) => setTimeout(r, 300));
      expect(control.paused).toBe(false);

      // The person moves it.
      mouseTo(700, 500);
      await until(() => control.paused);
      expect(control.paused).toBe(true);
      expect(events).toEqual([{ type: 'state', state: 'paused', reason: 'human takeover: pointer moved from (400, 300) to (700, 500)' }]);

      // Resumed: the person's position is the new baseline, nothing fires again.
      control.resume();
      await new Promise((r) => setTimeout(r, 300));
      expect(control.paused).toBe(false);
    } finally {
      watch.stop();
    }
  });

  it('with takeover: ignore the run keeps going but the move is reported', async () => {
    mouseTo(50, 50);
    const control = createRunControl();
    const seen: string[] = [];
    const watch = createTakeoverWatch({ readPointer: async () => pointerPosition(xvfb), control, mode: 'ignore', intervalMs: 50, onTakeover: (e) => seen.push(e.reason) });
    await watch.start();
    try {
      mouseTo(600, 60);
      await until(() => seen.length > 0);
      expect(seen).toEqual(['human takeover: pointer moved from (50, 50) to (600, 60)']);
      expect(control.paused).toBe(false);
    } finally {
      watch.stop();
    }
  });

  it('a key typed during a run (seen through the X server\'s raw input stream) pauses it', async () => {
    const events: RunEventInput[] = [];
    const control = createRunControl({ emit: (e) => events.push(e) });
    const source = await startX11InputActivity(xvfb.env);
    expect(source).toBeDefined();
    const seen: InputActivity[] = [];
    source!.subscribe((a) => seen.push(a));
    // The stream is live once it reports something: tap Shift until it does (before watching).
    await until(() => {
      xdo('key', 'shift');
      return seen.length > 0;
    });
    expect(seen.length).toBeGreaterThan(0);
    const watch = createTakeoverWatch({ readPointer: async () => pointerPosition(xvfb), control, mode: 'pause', intervalMs: 50, activity: source!, agentEchoMs: 300 });
    await sleep(400);
    seen.length = 0;
    await watch.start();
    try {
      // The agent's own key press (inside an action) is not a takeover.
      await watch.agentActing(async () => {
        xdo('key', 'shift');
        await until(() => seen.some((a) => a.kind === 'key'));
      });
      // The window for the agent's own input closes agentEchoMs after the stream passed the
      // action's fence (x11-input-activity.ts): a key sooner would still count as the agent's.
      await source!.fence!();
      await sleep(400);
      expect(control.paused).toBe(false);
      // A key pressed while the agent waits for the model is.
      xdo('key', 'a');
      await until(() => control.paused);
      expect(events).toEqual([{ type: 'state', state: 'paused', reason: 'human takeover: a key was pressed' }]);
      expect(seen.filter((a) => a.kind === 'key').every((a) => a.synthetic)).toBe(true); // xdotool injects through XTEST
    } finally {
      watch.stop();
      source!.close();
    }
  });
});
