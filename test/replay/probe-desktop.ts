/**
 * The desktop the replay end-to-end tests share: Xvfb at 1280×800, a private accessibility
 * bus, the probe page in Chromium with accessibility on at (20, 20) 1000×640, and a
 * temporary DESKPILOT_HOME. Registers its own beforeAll/afterAll.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { startAccessibilityBus, type AccessibilityBus } from '../harness/a11y-bus.js';
import type { FakeModelServer } from '../harness/fake-model/index.js';
import { startProbe, type Probe } from '../harness/probe/probe.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { tempHome } from '../e2e/support.js';

export const SCREEN = { width: 1280, height: 800 };

export interface ProbeDesktop {
  readonly bus: AccessibilityBus;
  readonly probe: Probe;
  readonly home: string;
  /** The CLI's environment: the bus, the home, and a model server only when given (else nothing listens where it would go). */
  env(fake?: FakeModelServer): NodeJS.ProcessEnv;
  /** Moves the probe's window (xdotool --sync: returns once it is there); by how much it moved. */
  moveWindow(to: { x: number; y: number }): { dx: number; dy: number };
}

function windowPosition(windowId: string, env: NodeJS.ProcessEnv): { x: number; y: number } {
  const out = spawnSync('xdotool', ['getwindowgeometry', windowId], { env, encoding: 'utf8' }).stdout;
  const m = /Position: (-?\d+),(-?\d+)/.exec(out);
  if (!m) throw new Error(`xdotool getwindowgeometry gave no position: ${out}`);
  return { x: Number(m[1]), y: Number(m[2]) };
}

export function useProbeDesktop(): ProbeDesktop {
  let xvfb: Xvfb | undefined;
  let bus: AccessibilityBus | undefined;
  let probe: Probe | undefined;
  const home = tempHome();
  beforeAll(async () => {
    xvfb = await startXvfb(SCREEN);
    bus = await startAccessibilityBus(xvfb);
    probe = await startProbe(bus.xvfb, { x: 20, y: 20, width: 1000, height: 640, extraArgs: ['--force-renderer-accessibility'], env: bus.env });
  }, 90_000);
  afterAll(async () => {
    await probe?.close();
    await bus?.stop();
    home.cleanup();
  });
  return {
    get bus() {
      return bus!;
    },
    get probe() {
      return probe!;
    },
    home: home.home,
    env: (fake) => ({
      ...bus!.env,
      DESKPILOT_HOME: home.home,
      ANTHROPIC_API_KEY: fake ? 'sk-ant-test-key' : '',
      // Nothing listens there: a replay that asked a model would fail.
      ANTHROPIC_BASE_URL: fake ? fake.anthropicBaseUrl : 'http://127.0.0.1:9/',
      OPENAI_API_KEY: '',
    }),
    moveWindow: (to) => {
      const before = windowPosition(probe!.windowId, bus!.env);
      spawnSync('xdotool', ['windowmove', '--sync', probe!.windowId, String(to.x), String(to.y)], { env: bus!.env, timeout: 10_000 });
      const after = windowPosition(probe!.windowId, bus!.env);
      return { dx: after.x - before.x, dy: after.y - before.y };
    },
  };
}
