/**
 * The desktop the replay end-to-end tests share: Xvfb at 1280×800, a private accessibility
 * bus, the probe page in Chromium with accessibility on at (20, 20) 1000×640, and a
 * temporary DESKPILOT_HOME. Registers its own beforeAll/afterAll.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { walkElements, type ElementNode } from '../../src/shared/elements.js';
import { readElementTree } from '../../src/os-control/accessibility/index.js';
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
  /**
   * probe.showControls, returning once the accessibility tree shows the new page: every
   * control by its label, none checked, no text in a field. The page answers after two
   * painted frames, but Chromium updates its AT-SPI tree later (a stale tree has the
   * same names, with the last run's boxes still ticked), and a replay reads that tree.
   */
  showControls(count: number, secret?: string, rename?: Record<string, string>): ReturnType<Probe['showControls']>;
  /**
   * Returns once every input the X server took before this call has reached the page: a
   * Shift press is sent after it and waited for (one X client gets its events in order).
   * So "nothing was pressed" is checked after the presses that could have come.
   */
  inputBarrier(): Promise<void>;
}

/** The probe page's controls in a tree read, when every one is there (by its label) and fresh: nothing checked, no text in an entry. */
function freshControls(nodes: ElementNode[], labels: string[]): boolean {
  return labels.every((label) => {
    const named = nodes.filter((n) => n.name === label);
    // A link's text is a "static" child of the same name whose value is that text: only an entry's value is typed text.
    return named.length > 0 && named.every((n) => !n.states.includes('checked') && !(n.role === 'entry' && n.value));
  });
}

async function waitForFreshControls(env: NodeJS.ProcessEnv, labels: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  let last = '';
  while (Date.now() < deadline) {
    const tree = await readElementTree({ scope: 'all' }, undefined, { env });
    if (tree.kind === 'tree' && freshControls(tree.windows.flatMap((w) => [...walkElements(w.root.children)]), labels)) return;
    last = tree.kind === 'tree' ? `${tree.windows.length} windows` : `${tree.reason}: ${tree.detail}`;
  }
  throw new Error(`the accessibility tree did not show the fresh controls ${labels.join(', ')} within 60 s (last read: ${last})`);
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
    // Chromium's first page took over 30 s to say ready at load ~47 on 2 cores (the probe now waits up to 90 s).
  }, 180_000);
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
    showControls: async (count, secret, rename) => {
      const controls = await probe!.showControls(count, secret, rename);
      await waitForFreshControls(bus!.env, controls.map((c) => rename?.[c.id] ?? c.id));
      return controls;
    },
    inputBarrier: async () => {
      const since = probe!.nextSeq();
      const sent = spawnSync('xdotool', ['key', 'shift'], { env: bus!.env, timeout: 10_000 });
      if (sent.status !== 0) throw new Error(`xdotool key shift failed: ${sent.stderr}`);
      await probe!.waitFor((e) => e.type === 'keydown' && (e as { key?: string }).key === 'Shift', { sinceSeq: since, timeoutMs: 30_000 });
    },
  };
}
