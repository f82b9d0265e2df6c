/**
 * The pointer read over the display's held X connection (issue 29 item 5): the takeover
 * watch reads the pointer after every action and every 100 ms, and libnut's read held the
 * event loop (and the step) for each one (13.6 ms a read at load 70-105, 18.6 reads a
 * step). Real Xvfb: the read equals where xdotool put the pointer and what libnut says,
 * and while the server does not answer the event loop goes on.
 */
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Devices } from '../../../src/os-control/devices.js';
import { loadNut } from '../../../src/os-control/native.js';
import { pointerOverSocket } from '../../../src/os-control/x11/pointer.js';
import { x11Session } from '../../../src/os-control/x11/session.js';
import { startXvfb, xServerPid, type Xvfb } from '../../harness/xvfb.js';

let xvfb: Xvfb;
const saved = { DISPLAY: process.env.DISPLAY, XAUTHORITY: process.env.XAUTHORITY };

beforeAll(async () => {
  xvfb = await startXvfb({ width: 800, height: 600 });
  // Devices reads the process's display, as the app does; libnut binds to it at its first use.
  process.env.DISPLAY = xvfb.display;
  if (xvfb.env.XAUTHORITY) process.env.XAUTHORITY = xvfb.env.XAUTHORITY;
  else delete process.env.XAUTHORITY;
}, 60_000);

afterAll(async () => {
  await x11Session(xvfb?.display, xvfb?.env.XAUTHORITY).close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await xvfb?.stop();
});

function moveTo(x: number, y: number): void {
  const r = spawnSync('xdotool', ['mousemove', '--sync', String(x), String(y)], { env: xvfb.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`xdotool mousemove: ${r.stderr}`);
}

describe('the pointer over the held X connection', () => {
  it('reads where xdotool put the pointer, as libnut does, corners included', async () => {
    const devices = new Devices();
    const nut = await loadNut();
    for (const [x, y] of [
      [0, 0],
      [799, 599],
      [123, 456],
      [400, 1],
    ] as const) {
      moveTo(x, y);
      expect(await pointerOverSocket(x11Session(xvfb.display, xvfb.env.XAUTHORITY))).toEqual({ x, y });
      expect(await devices.position()).toEqual({ x, y });
      const libnut = await nut.providerRegistry.getMouse().currentMousePosition();
      expect({ x: libnut.x, y: libnut.y }).toEqual({ x, y });
    }
  });

  it('a read the server has not answered yet leaves the event loop running (libnut held it until the answer)', async () => {
    const devices = new Devices();
    moveTo(321, 234);
    // Loads libnut and opens the connection now, so the read below is the read alone.
    await devices.position();
    const server = xServerPid(xvfb.display);
    expect(server, 'the Xvfb pid').toBeDefined();
    process.kill(server!, 'SIGSTOP');
    // Only for a read that holds the thread (libnut's): nothing in this process could send
    // SIGCONT then, so a process outside does it after 5 s and the test fails instead of hanging.
    const rescue = spawn('sh', ['-c', `sleep 5; kill -CONT ${server}`], { stdio: 'ignore' });
    let settled = false;
    try {
      const read = devices.position().finally(() => (settled = true));
      // One turn of the event loop (a timer) while the server is stopped.
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      const settledWhileStopped = settled;
      process.kill(server!, 'SIGCONT');
      expect(settledWhileStopped, 'the read settled before the event loop turned').toBe(false);
      expect(await read).toEqual({ x: 321, y: 234 });
    } finally {
      process.kill(server!, 'SIGCONT');
      rescue.kill('SIGKILL');
    }
  });
});
