/**
 * The agent's own click, read from the X server's input stream after its echo window
 * closed, is still the agent's (the fresh-root CI's serve-ux failure: the run's click on
 * the pad was followed by no model request for 20 s). Under load the `xinput test-xi2`
 * stream ran up to 755 ms behind (load ~35, a reader niced 10); past the 1 s window the
 * watch took the click for a person's and paused the run.
 *
 * Real Xvfb, real xinput stream, xdotool's XTEST click. The lateness is made certain
 * rather than waited for: the echo window is 0 ms and the click is sent synchronously
 * inside the action, so its event can only be read after the action returned — every
 * read is late. On the old code that paused the run; with the stream fenced it does not,
 * and a click injected after the fence still does.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { pointerPosition } from '../harness/native-apps.js';
import { createRunControl } from '../../src/main/agent/supervision/run-control.js';
import { createTakeoverWatch } from '../../src/main/agent/supervision/takeover-watch.js';
import { startX11InputActivity, type InputActivity } from '../../src/main/agent/supervision/x11-input-activity.js';
import type { RunEventInput } from '../../src/shared/events.js';
import { until } from '../e2e/support.js';

let xvfb: Xvfb;
beforeAll(async () => {
  xvfb = await startXvfb({ width: 800, height: 600 });
});
afterAll(async () => {
  await xvfb?.stop();
});

function xdo(...args: string[]): void {
  const r = spawnSync('xdotool', args, { env: xvfb.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`xdotool ${args.join(' ')}: ${r.stderr}`);
}

describe('takeover watch: the agent input read late from the stream', () => {
  it('its own click read after the echo window is not a takeover; a click after the fence is', async () => {
    xdo('mousemove', '--sync', '200', '150');
    const source = await startX11InputActivity(xvfb.env);
    expect(source, 'xinput stream on the Xvfb').toBeDefined();
    const seen: InputActivity[] = [];
    const presses = () => seen.filter((a) => a.kind === 'button').length;
    // The stream is live once it reports something; the watch starts after the stream passed every tap.
    const live = source!.subscribe((a) => seen.push(a));
    await until(() => {
      xdo('key', 'shift');
      return seen.length > 0 || undefined;
    }, 10_000, 'the xinput stream to report a key');
    live();
    await source!.fence!();
    const events: RunEventInput[] = [];
    const control = createRunControl({ emit: (e) => events.push(e) });
    const watch = createTakeoverWatch({ readPointer: async () => pointerPosition(xvfb), control, mode: 'pause', intervalMs: 50, activity: source!, agentEchoMs: 0 });
    // Subscribed after the watch: when this listener has the click, the watch has judged it.
    await watch.start();
    const unsubscribe = source!.subscribe((a) => seen.push(a));
    try {
      const before = presses();
      await watch.agentActing(async () => xdo('click', '1'), { x: 200, y: 150 });
      await until(() => presses() > before || undefined, 10_000, 'the agent click in the stream');
      expect(events, 'the agent click read after the window').toEqual([]);
      expect(control.paused).toBe(false);

      // Once the stream passed the fence, injected input is not the agent's any more.
      await source!.fence!();
      xdo('click', '1');
      await until(() => control.paused || undefined, 10_000, 'the foreign click to pause the run');
      expect(events).toEqual([{ type: 'state', state: 'paused', reason: 'human takeover: a mouse button was pressed' }]);
    } finally {
      unsubscribe();
      watch.stop();
      source!.close();
    }
  });
});
