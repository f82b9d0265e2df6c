/**
 * Target resolution on real apps (issue 33 item 1): the accessibility tree of
 * gnome-calculator, OCR on xcalc (no tree), a grounding model behind the fake model
 * server (UI-TARS 1.5's wire) that is right only on zoomed crops, ambiguity, bad input.
 * Each found point is clicked with the real Computer and the app says what it received.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopComputer } from '../../../src/os-control/index.js';
import { walkElements, type ElementNode } from '../../../src/shared/elements.js';
import { resolveTarget } from '../../../src/main/agent/resolve/chain.js';
import { ocrWords } from '../../../src/main/agent/resolve/ocr-words.js';
import { providerGrounder } from '../../../src/main/agent/resolve/grounder.js';
import { DescriptionError, type Resolution } from '../../../src/main/agent/resolve/types.js';
import { createProvider, ProviderUnavailableError } from '../../../src/main/agent/providers/index.js';
import { terminateOcr } from '../../../src/os-control/ocr/index.js';
import { startAccessibilityBus, type AccessibilityBus } from '../../harness/a11y-bus.js';
import { checked } from '../../harness/checked.js';
import { startFakeModel, type FakeModelServer } from '../../harness/fake-model/index.js';
import { startGtkApp, startXcalc, type NativeApp } from '../../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../../harness/xvfb.js';
import { chatImage, redCentre, startSquareWindow } from './target-window.js';
import { spawnSync } from 'node:child_process';
import { runCli, tempHome } from '../../e2e/support.js';

let xvfb: Xvfb;
let bus: AccessibilityBus;
let computer: DesktopComputer;
let fake: FakeModelServer;
const never = new AbortController().signal;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  process.env.DISPLAY = xvfb.display;
  bus = await startAccessibilityBus(xvfb);
  process.env.DBUS_SESSION_BUS_ADDRESS = bus.env.DBUS_SESSION_BUS_ADDRESS;
  const { createComputer } = await import('../../../src/os-control/index.js');
  computer = createComputer();
  await computer.warmUp();
  fake = await startFakeModel();
}, 90_000);

afterAll(async () => {
  await terminateOcr();
  await fake?.close();
  await bus?.stop();
  await xvfb?.stop();
});

function activate(app: NativeApp): void {
  spawnSync('xdotool', ['windowactivate', '--sync', app.windowId], { env: xvfb.env, timeout: 10_000 });
}

async function waitForTree(until: (nodes: ElementNode[]) => boolean, what: string): Promise<ElementNode[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const r = await computer.elementTree({ scope: 'focused' });
    const nodes = r.kind === 'tree' ? [...walkElements(r.windows.map((w) => w.root))] : [];
    if (until(nodes)) return nodes;
    if (Date.now() > deadline) throw new Error(`the tree never showed ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function click(p: { x: number; y: number }): Promise<void> {
  await computer.perform(checked({ type: 'click', x: Math.round(p.x), y: Math.round(p.y) }), never);
}

function found(r: Resolution): Extract<Resolution, { kind: 'found' }> {
  if (r.kind !== 'found') throw new Error(`expected found, got ${JSON.stringify(r)}`);
  return r;
}

function grounderProfile() {
  return createProvider(
    { provider: 'openai-compatible', model: 'ui-tars-1.5-7b', harness: 'ui-tars', baseUrl: fake.openaiBaseUrl },
    { apiKey: 'test', requestTimeoutMs: 4_000, retry: { maxAttempts: 2, baseDelayMs: 50, maxDelayMs: 100 } },
  );
}

describe('gnome-calculator: the tree', () => {
  let app: NativeApp;
  let display: () => Promise<string>;
  beforeAll(async () => {
    app = await startGtkApp(bus.xvfb, 'gnome-calculator');
    activate(app);
    const nodes = await waitForTree((n) => n.some((e) => e.role === 'push button' && e.name.startsWith('=')) && n.some((e) => e.name.startsWith('7')), 'its keys');
    const path = nodes.find((n) => n.role === 'text' && n.states.includes('editable'))!.path;
    display = async () => {
      const r = await computer.findElement(path);
      return r.kind === 'found' ? (r.element.value ?? '').replace(/\s/g, '') : `(${r.kind})`;
    };
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
  });

  async function waitForDisplay(value: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while ((await display()) !== value) {
      if (Date.now() > deadline) throw new Error(`the display shows ${await display()}, not ${value}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('finds "the 7 button" exactly in the tree, and a click there types 7', async () => {
    const r = found(await resolveTarget('the 7 button', { computer, readWords: ocrWords }, never));
    expect(r.stage).toBe('tree');
    expect(r.confidence).toBe(1);
    expect(r.element?.role).toBe('push button');
    expect(r.element?.name).toMatch(/^7( 7)?$/);
    const b = r.element!.bounds;
    expect(r.point).toEqual({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
    await computer.perform(checked({ type: 'key', keys: 'Escape' }), never);
    await waitForDisplay('');
    await click(r.point);
    await waitForDisplay('7');
  });

  it('reads a sign by its name ("the plus button") and a place ("the button right of 7" is 8)', async () => {
    const plus = found(await resolveTarget('the plus button', { computer, readWords: ocrWords }, never));
    expect(plus.stage).toBe('tree');
    expect(plus.element?.name).toMatch(/^\+/);
    const right = found(await resolveTarget('the button right of 7', { computer, readWords: ocrWords }, never));
    expect(right.stage).toBe('tree');
    expect(right.element?.name).toMatch(/^8( 8)?$/);
    await click(right.point);
    await waitForDisplay('78');
  });

  it('a description that fits many keys equally ("the button") is ambiguous, with the candidates, never a guess', async () => {
    const r = await resolveTarget('the button', { computer, readWords: ocrWords }, never);
    expect(r.kind).toBe('ambiguous');
    if (r.kind !== 'ambiguous') return;
    expect(r.candidates.length).toBeGreaterThan(10);
    expect(new Set(r.candidates.map((c) => `${c.point.x},${c.point.y}`)).size).toBe(r.candidates.length);
    expect(r.notes.at(-1)?.note).toMatch(/equally good/);
  });

  it('deskpilot ground through the real CLI: --json in the issue\'s shape (exit 0), an ambiguous target (exit 1), an empty one (exit 2)', async () => {
    const home = tempHome();
    try {
      const env = { ...bus.env, DESKPILOT_HOME: home.home };
      const seven = runCli(['ground', 'the 7 button', '--json'], env);
      expect((await seven.exit).code, seven.stderr()).toBe(0);
      const json = JSON.parse(seven.stdout()) as { point: { x: number; y: number }; stage: string; confidence: number; element: { role: string; name: string; bounds: { x: number; y: number; width: number; height: number } }; candidates: unknown[] };
      expect(json.stage).toBe('tree');
      expect(json.confidence).toBe(1);
      expect(json.element.role).toBe('push button');
      // The same element this process reads from the tree: the CLI's point is its centre.
      const nodes = await waitForTree((n) => n.some((e) => e.name.startsWith('7')), 'the 7 key');
      const b = nodes.find((n) => n.role === 'push button' && /^7( 7)?$/.test(n.name))!.bounds!;
      expect(json.point).toEqual({ x: Math.round((b.x + b.width / 2) * 10) / 10, y: Math.round((b.y + b.height / 2) * 10) / 10 });
      expect(json.candidates.length).toBeGreaterThanOrEqual(1);
      const many = runCli(['ground', 'the button'], env);
      expect((await many.exit).code).toBe(1);
      expect(many.stdout()).toMatch(/^ambiguous: \d+ equally good matches/);
      const empty = runCli(['ground', ''], env);
      expect((await empty.exit).code).toBe(2);
      expect(empty.stderr()).toMatch(/description is empty/);
    } finally {
      home.cleanup();
    }
  });

  it('bad input: an empty and a huge description are refused with a clear reason', async () => {
    await expect(resolveTarget('   ', { computer, readWords: ocrWords }, never)).rejects.toThrow(DescriptionError);
    await expect(resolveTarget('x'.repeat(301), { computer, readWords: ocrWords }, never)).rejects.toThrow(/301 characters; at most 300/);
  });
});

describe('xcalc: OCR where there is no tree', () => {
  let app: NativeApp;
  beforeAll(async () => {
    app = await startXcalc(xvfb, { x: 100, y: 100, width: 260, height: 340 });
    activate(app);
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
  });

  it('finds "the DRG button" by its words, and a click there reaches the key (the display turns to RAD)', async () => {
    const r = found(await resolveTarget('the DRG button', { computer, readWords: ocrWords }, never));
    expect(r.notes.find((n) => n.stage === 'tree')?.note).toMatch(/no accessibility tree|nothing matches/);
    expect(r.stage).toBe('ocr');
    expect(r.label).toMatch(/DRG/);
    const before = found(await resolveTarget('DEG', { computer, readWords: ocrWords, stages: ['ocr'] }, never));
    await click(r.point);
    const deadline = Date.now() + 20_000;
    let after: Resolution;
    do {
      after = await resolveTarget('RAD', { computer, readWords: ocrWords, stages: ['ocr'] }, never);
    } while (after.kind !== 'found' && Date.now() < deadline);
    expect(found(after).point.y).toBeCloseTo(before.point.y, -1);
  });
});

describe('a grounding model on a window of pixels (UI-TARS 1.5 wire, fake server)', () => {
  it('is right only on the zoomed crop: the chain zooms, maps back exactly, and the click lands in the square', async () => {
    const win = await startSquareWindow(xvfb);
    try {
      fake.script(
        async (req) => {
          const c = await redCentre(chatImage(req.body));
          // Whole screen: 70 px right and 50 px up of the square (a near miss, outside it).
          return { text: `Thought: there.\nAction: click(start_box='(${Math.round(c!.x + 70)},${Math.round(c!.y - 50)})')` };
        },
        async (req) => {
          expect(req.lastUserText).toMatch(/enlarged 2×/);
          const c = await redCentre(chatImage(req.body));
          return { text: `Thought: zoomed.\nAction: click(start_box='(${c!.x.toFixed(1)},${c!.y.toFixed(1)})')` };
        },
      );
      const r = found(await resolveTarget('the red square', { computer, readWords: ocrWords, grounder: providerGrounder(grounderProfile()) }, never));
      expect(r.stage).toBe('zoom');
      expect(r.candidates.map((c) => c.stage)).toEqual(['model', 'zoom']);
      const press = win.nextPress();
      await click(r.point);
      const p = await press;
      const truth = p.squareCentre;
      const first = r.candidates[0]!.point;
      expect(Math.hypot(first.x - truth.x, first.y - truth.y)).toBeGreaterThan(40);
      // Within one pixel: the crop is enlarged by a smart-resized factor (sides multiples of 28), so the red edge's blur moves the fake's centroid by under a pixel.
      expect(Math.abs(r.point.x - truth.x)).toBeLessThanOrEqual(1);
      expect(Math.abs(r.point.y - truth.y)).toBeLessThanOrEqual(1);
      expect(p.x).toBeGreaterThanOrEqual(410);
      expect(p.x).toBeLessThan(430);
      expect(p.y).toBeGreaterThanOrEqual(250);
      expect(p.y).toBeLessThan(270);
    } finally {
      win.stop();
    }
  });

  it('a zoomed answer outside the crop is refused with the reason, nothing found', async () => {
    const win = await startSquareWindow(xvfb);
    try {
      fake.script(
        { text: "Action: click(start_box='(100,100)')" },
        { text: "Action: click(start_box='(99999,40)')" },
      );
      const r = await resolveTarget('the red square', { computer, readWords: ocrWords, grounder: providerGrounder(grounderProfile()) }, never);
      expect(r.kind).toBe('not-found');
      expect(r.notes.at(-1)).toMatchObject({ stage: 'zoom' });
      expect(r.notes.at(-1)!.note).toMatch(/outside the screenshot.*crop/);
    } finally {
      win.stop();
    }
  });

  it('a grounding model that is down throws the provider outage (the caller pauses the run)', async () => {
    fake.setFallback({ fault: 'status', status: 503 });
    try {
      await expect(resolveTarget('the red square', { computer, readWords: ocrWords, grounder: providerGrounder(grounderProfile()), stages: ['model'] }, never)).rejects.toThrow(ProviderUnavailableError);
    } finally {
      fake.setFallback(undefined);
    }
  });
});
