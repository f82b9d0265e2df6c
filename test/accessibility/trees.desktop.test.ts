/**
 * The accessibility tree on a real desktop: Xvfb + a private session and AT-SPI bus,
 * real GTK 3 / GTK 4 apps and Chromium. Bounds are checked the way they will be used:
 * the real Computer clicks the centre of randomly drawn interactive elements, and the
 * app's own state (read back from its tree) or the probe page's recorded events say
 * whether the click reached that element.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectCommand } from '../../src/main/cli/inspect-command.js';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { ElementTreeResultSchema, isInteractive, walkElements, type ElementNode, type ElementTree, type ElementTreeOptions } from '../../src/shared/elements.js';
import { startAccessibilityBus, type AccessibilityBus } from '../harness/a11y-bus.js';
import { checked } from '../harness/checked.js';
import { startGtkApp, startXcalc, type NativeApp } from '../harness/native-apps.js';
import { startProbe } from '../harness/probe/probe.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { parsePlan } from '../../src/main/qa/parse-plan.js';
import { ocrSource, runChecks, type RegionTextSource } from '../../src/main/qa/checks.js';
import { treeSource } from '../../src/main/qa/element-check.js';
import { CaseState } from '../../src/main/qa/case-state.js';
import type { AppSession } from '../../src/main/qa/app-session.js';

let xvfb: Xvfb;
let bus: AccessibilityBus;
let computer: DesktopComputer;
const never = new AbortController().signal;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  process.env.DISPLAY = xvfb.display;
  bus = await startAccessibilityBus(xvfb);
  // This process reads the tree from the same private bus the apps register on.
  process.env.DBUS_SESSION_BUS_ADDRESS = bus.env.DBUS_SESSION_BUS_ADDRESS;
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = createComputer();
  await computer.warmUp();
}, 90_000);

afterAll(async () => {
  await bus?.stop();
});

/** A small seeded generator (mulberry32): the same "random" elements on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function activate(app: NativeApp): void {
  spawnSync('xdotool', ['windowactivate', '--sync', app.windowId], { env: xvfb.env, timeout: 10_000 });
}

/** The focused window's tree, asked again until the app has registered (a GTK app needs a moment after mapping). */
async function treeOf(options: ElementTreeOptions = {}, until: (t: ElementTree) => boolean = () => true): Promise<ElementTree> {
  const deadline = Date.now() + 20_000;
  let last = '';
  while (Date.now() < deadline) {
    const r = await computer.elementTree(options);
    if (r.kind === 'tree' && until(r)) return r;
    last = r.kind === 'tree' ? `a tree of ${r.nodeCount} nodes that did not match yet` : `${r.reason}: ${r.detail}`;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no matching tree within 20 s (last: ${last})`);
}

const nodesOf = (t: ElementTree) => [...walkElements(t.windows.map((w) => w.root))];

async function clickCentre(node: ElementNode): Promise<void> {
  const b = node.bounds!;
  await computer.perform(checked({ type: 'click', x: Math.floor(b.x + b.width / 2), y: Math.floor(b.y + b.height / 2) }), never);
}

/** Reads the element again until `ok` holds for it (the app repaints and updates its states on its own time). */
async function waitForElement(pathText: string, ok: (n: ElementNode) => boolean, what: string): Promise<ElementNode> {
  const deadline = Date.now() + 5_000;
  let last: ElementNode | undefined;
  while (Date.now() < deadline) {
    const r = await computer.findElement(pathText);
    if (r.kind === 'found') {
      last = r.element;
      if (ok(r.element)) return r.element;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: ${pathText} is ${last ? `[${last.states.join(', ')}] ${JSON.stringify(last.value ?? '')}` : 'gone'}`);
}

describe('gtk3-widget-factory (GTK 3, at-spi2-atk)', () => {
  let app: NativeApp;
  let tree: ElementTree;
  beforeAll(async () => {
    app = await startGtkApp(bus.xvfb, 'gtk3-widget-factory');
    activate(app);
    tree = await treeOf({}, (t) => nodesOf(t).some((n) => n.role === 'check box'));
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
  });

  it('reads the focused window: roles, names, states, values, actions and on-screen bounds', () => {
    expect(tree.source).toBe('atspi');
    expect(tree.windows).toHaveLength(1);
    expect(tree.windows[0]!.app).toBe('gtk3-widget-factory');
    const nodes = nodesOf(tree);
    expect(nodes.length).toBeGreaterThan(100);
    const byRole = (role: string) => nodes.filter((n) => n.role === role);
    expect(byRole('check box').map((n) => n.name)).toContain('checkbutton');
    expect(byRole('radio button').map((n) => n.name)).toEqual(expect.arrayContaining(['Page 1', 'Page 2', 'Page 3']));
    // Page 1 is shown, and its radio button says so.
    expect(nodes.find((n) => n.name === 'Page 1')!.states).toContain('checked');
    // The disabled copies of the check boxes are there, without "enabled".
    expect(byRole('check box').filter((n) => !n.states.includes('enabled')).length).toBeGreaterThan(0);
    // A spin button carries its value; a slider its number.
    expect(byRole('spin button').some((n) => n.value !== undefined && /^\d+(\.\d+)?$/.test(n.value))).toBe(true);
    expect(byRole('push button').every((n) => n.actions.length > 0)).toBe(true);
    // Hidden pages (2 and 3) are not in the default tree: every element is on screen.
    expect(nodes.every((n) => n.states.includes('visible'))).toBe(true);
    for (const n of nodes) {
      if (!n.bounds) continue;
      expect(n.bounds.x + n.bounds.width).toBeGreaterThan(0);
      expect(n.bounds.y + n.bounds.height).toBeGreaterThan(0);
    }
  });

  it('finds every element again by its path', async () => {
    const nodes = nodesOf(tree);
    const rnd = random(3);
    for (let i = 0; i < 15; i++) {
      const n = nodes[Math.floor(rnd() * nodes.length)]!;
      const r = await computer.findElement(n.path);
      expect(r.kind, n.path).toBe('found');
      if (r.kind !== 'found') continue;
      expect(r.element.path).toBe(n.path);
      expect(r.element.role).toBe(n.role);
      expect(r.element.name).toBe(n.name);
      expect(r.element.bounds).toEqual(n.bounds);
    }
    const missing = await computer.findElement(`${tree.windows[0]!.root.path} > push button "no such button"`);
    expect(missing.kind).toBe('missing');
  });

  it('deskpilot inspect --json prints the same tree, valid against the schema', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => (text += d.toString()));
    expect(await inspectCommand({ json: true, window: 'gtk3-widget', depth: '3' }, out, process.stderr, bus.env)).toBe(0);
    const result = ElementTreeResultSchema.parse(JSON.parse(text));
    expect(result.kind).toBe('tree');
    if (result.kind !== 'tree') return;
    expect(result.windows[0]!.root.path).toBe(tree.windows[0]!.root.path);
    // Depth 3: nothing deeper than window > 3 levels, and the cut is counted.
    const depthOf = (p: string) => p.split(' > ').length - 2;
    const nodes = [...walkElements(result.windows.map((w) => w.root))];
    expect(Math.max(...nodes.map((n) => depthOf(n.path)))).toBe(3);
    expect(nodes.some((n) => (n.omittedChildren ?? 0) > 0)).toBe(true);
    const plain = new PassThrough();
    let lines = '';
    plain.on('data', (d: Buffer) => (lines += d.toString()));
    expect(await inspectCommand({ window: 'gtk3-widget' }, plain, process.stderr, bus.env)).toBe(0);
    expect(lines).toMatch(/#\d+ check box "checkbutton" \[focusable,checked\] @\d+,\d+ \d+x\d+/);
  });

  it('20 clicks on the centres of random interactive elements each reach that element', async () => {
    // Elements whose click changes state without opening a popup or switching the page:
    // check boxes and toggle buttons flip "checked", radio buttons become checked,
    // text fields and spin buttons take the focus.
    const candidates = nodesOf(tree).filter(
      (n) => isInteractive(n) && n.bounds && ['check box', 'toggle button', 'radio button', 'text', 'spin button'].includes(n.role) && !/^Page \d$|^Menu$/.test(n.name) && !n.path.includes('combo box'),
    );
    expect(candidates.length).toBeGreaterThanOrEqual(8);
    const rnd = random(16);
    const reached: string[] = [];
    for (let i = 0; i < 20; i++) {
      const target = candidates[Math.floor(rnd() * candidates.length)]!;
      const before = await computer.findElement(target.path);
      if (before.kind !== 'found') throw new Error(`${target.path} vanished`);
      const wasChecked = before.element.states.includes('checked');
      await clickCentre(before.element);
      switch (target.role) {
        case 'check box':
        case 'toggle button':
          await waitForElement(target.path, (n) => n.states.includes('checked') !== wasChecked, `click ${i} did not toggle`);
          break;
        case 'radio button':
          await waitForElement(target.path, (n) => n.states.includes('checked'), `click ${i} did not check`);
          break;
        default:
          await waitForElement(target.path, (n) => n.states.includes('focused'), `click ${i} did not focus`);
      }
      reached.push(target.path);
    }
    expect(reached).toHaveLength(20);
  });

  it('element actions (issue 16) through Computer.perform: invoke toggles a check box, focus and set_value reach a text field, a stale path is refused', async () => {
    const nodes = nodesOf(await treeOf());
    const box = nodes.find((n) => n.role === 'check box' && isInteractive(n) && n.bounds)!;
    const field = nodes.find((n) => n.role === 'text' && n.states.includes('editable') && isInteractive(n) && n.bounds)!;
    const act = (op: string, node: ElementNode, value?: string) =>
      computer.perform(
        checked({ type: 'element', op, id: 1, ...(value !== undefined ? { value } : {}), target: { path: node.path, role: node.role, name: node.name, x: node.bounds!.x + 1, y: node.bounds!.y + 1 } }),
        never,
      );
    const wasChecked = box.states.includes('checked');
    await act('invoke', box);
    await waitForElement(box.path, (n) => n.states.includes('checked') !== wasChecked, 'invoke did not toggle');
    await act('focus', field);
    await waitForElement(field.path, (n) => n.states.includes('focused'), 'focus did not reach the field');
    await act('set_value', field, 'set by DeskPilot');
    await waitForElement(field.path, (n) => n.value === 'set by DeskPilot', 'set_value did not reach the field');
    // A path that finds nothing: refused, naming what it looked for.
    await expect(act('click', { ...box, path: `${box.path.split(' > ').slice(0, 2).join(' > ')} > push button "no such button"` })).rejects.toThrow(/is not there any more .*nothing was done/);
  });
});

describe('gnome-calculator (GTK 4, its own AT-SPI implementation)', () => {
  let app: NativeApp;
  afterAll(async () => {
    await app?.stop();
  });

  it('registers, places its window-relative extents on screen, and 12 clicks on random digit buttons type those digits', async () => {
    app = await startGtkApp(bus.xvfb, 'gnome-calculator');
    activate(app);
    const tree = await treeOf({}, (t) => nodesOf(t).some((n) => n.role === 'push button' && n.name.startsWith('7')));
    expect(tree.windows[0]!.app).toBe('gnome-calculator');
    const g = app.geometry();
    const frame = tree.windows[0]!.root;
    // The frame sits inside the X window (GTK 4 reports extents from the window's corner; the reader adds where it is).
    expect(frame.bounds!.x).toBeGreaterThanOrEqual(g.x);
    expect(frame.bounds!.y).toBeGreaterThanOrEqual(g.y);
    expect(frame.bounds!.x + frame.bounds!.width).toBeLessThanOrEqual(g.x + g.width);
    const nodes = nodesOf(tree);
    const display = nodes.find((n) => n.role === 'text' && n.states.includes('editable'));
    expect(display, 'the editable expression view').toBeDefined();
    // GTK 4.8 names a button by its label twice ("7 7"): the app's words, kept as they are.
    const digits = nodes.filter((n) => n.role === 'push button' && /^\d( \d)?$/.test(n.name));
    expect(digits.map((n) => n.name[0]).sort()).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    const rnd = random(7);
    let typed = '';
    for (let i = 0; i < 12; i++) {
      const d = digits[Math.floor(rnd() * digits.length)]!;
      await clickCentre(d);
      typed += d.name[0];
      // The display is read from the tree: exact, no OCR.
      await waitForElement(display!.path, (n) => (n.value ?? '').replace(/\s/g, '') === typed.replace(/^0+(?=\d)/, ''), `after click ${i}`);
    }
  });
  it('a QA plan reads the display from the tree: 12345679 × 9 = 111111111 exactly, OCR never asked', async () => {
    const tree = await treeOf({}, (t) => nodesOf(t).some((n) => n.name === '= ='));
    const nodes = nodesOf(tree);
    const button = (label: string) => nodes.find((n) => n.role === 'push button' && n.name.split(' ')[0] === label)!;
    // Escape clears what the previous test typed.
    await computer.perform(checked({ type: 'key', keys: 'Escape' }), never);
    const display = nodes.find((n) => n.role === 'text' && n.states.includes('editable'))!;
    await waitForElement(display.path, (n) => (n.value ?? '') === '', 'cleared');
    let typed = '';
    for (const key of ['1', '2', '3', '4', '5', '6', '7', '9', '×', '9']) {
      await clickCentre(button(key));
      typed += key;
      await waitForElement(display.path, (n) => (n.value ?? '').replace(/\s/g, '') === typed, `typing ${typed}`);
    }
    await clickCentre(button('='));
    await waitForElement(display.path, (n) => (n.value ?? '').replace(/\s/g, '') === '111111111', 'the result');
    const g = app.geometry();
    const b = display.bounds!;
    const plan = parsePlan(
      `# Calculator\n\n## App\n- Launch: \`gnome-calculator\`\n- Region display: ${b.x - g.x}, ${b.y - g.y}, ${b.width}, ${b.height}\n\n` +
        '## Case: multiplies\nSteps:\n1. 12345679 × 9 =\nExpected:\n- Expect display: 111111111\n- Expect element text value: 111111111\n- Expect element push button "= =" state: enabled\n- Expect display: 111111112\n',
    );
    const session: AppSession = {
      windowId: app.windowId,
      pid: app.pid,
      clientRect: async () => app.geometry(),
      title: async () => 'Calculator',
      activate: async () => activate(app),
      alive: () => true,
      stop: () => app.stop(),
    };
    let ocrAsked = 0;
    const ocr: RegionTextSource = { name: 'ocr', check: async (q) => (ocrAsked++, ocrSource.check(q)) };
    const [screen] = await computer.listDisplays();
    const results = await runChecks(plan.cases[0]!, { computer, app: session, state: new CaseState(), display: screen!, regions: plan.app.regions, sources: [treeSource(computer), ocr] });
    expect(results.map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'fail']);
    expect(results[0]!.detail).toContain('accessibility tree shows "111111111"');
    // The wrong expectation fails on the tree's exact text, not on a reading.
    expect(results[3]!.detail).toContain('expected "111111112"');
    expect(ocrAsked).toBe(0);
  });
});

describe('the probe page in Chromium (--force-renderer-accessibility)', () => {
  it('exposes named controls whose centres receive the clicks, and never the password', async () => {
    const secret = 'hunter2-not-for-logs';
    const probe = await startProbe(bus.xvfb, { x: 0, y: 0, width: 1100, height: 760, extraArgs: ['--force-renderer-accessibility'] });
    try {
      await probe.showControls(30, secret);
      // The controls themselves, not the text inside a button or link (role "static").
      const named = (t: ElementTree) => nodesOf(t).filter((n) => /^c\d+$/.test(n.name) && n.bounds && n.role !== 'static');
      const tree = await treeOf({}, (t) => named(t).length >= 30);
      const controls = named(tree);
      const roles = new Set(controls.map((n) => n.role));
      expect(roles).toEqual(new Set(['push button', 'check box', 'link', 'entry', 'password text', 'radio button']));
      const password = controls.filter((n) => n.role === 'password text');
      expect(password.length).toBe(5);
      for (const p of password) {
        expect(p.states).toContain('password');
        expect(p.value).toBeUndefined();
        expect(p.children).toEqual([]);
      }
      expect(JSON.stringify(tree)).not.toContain(secret);
      // Password fields are found again by path, still without their text.
      const again = await computer.findElement(password[0]!.path);
      expect(again.kind).toBe('found');
      expect(JSON.stringify(again)).not.toContain(secret);

      const rnd = random(20);
      const clickable = controls.filter((n) => isInteractive(n));
      for (let i = 0; i < 20; i++) {
        const target = clickable[Math.floor(rnd() * clickable.length)]!;
        const since = probe.nextSeq();
        await clickCentre(target);
        const down = await probe.waitFor((e) => e.type === 'pointerdown', { sinceSeq: since });
        expect(down.target, `click ${i} on ${target.role} ${target.name}`).toBe(target.name);
      }
    } finally {
      await probe.close();
    }
  }, 120_000);
});

describe('an app that exposes nothing', () => {
  it('xcalc (Xaw) focused: a clear "no tree", naming the window', async () => {
    const app = await startXcalc(bus.xvfb);
    try {
      activate(app);
      const r = await computer.elementTree();
      expect(r.kind).toBe('none');
      if (r.kind !== 'none') return;
      expect(r.reason).toBe('not-exposed');
      expect(r.detail).toMatch(/xcalc|Calculator/i);
      expect(r.detail).toMatch(/exposes no accessibility tree/);
    } finally {
      await app.stop();
    }
  });
});

describe('mousepad (GTK 3 editor)', () => {
  it('shows the document text as the editable text element\'s value', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dp-a11y-'));
    const file = path.join(dir, 'notes.txt');
    writeFileSync(file, 'first line\nsecond line: äöü\n');
    const app = await startGtkApp(bus.xvfb, 'mousepad', [file]);
    try {
      activate(app);
      const tree = await treeOf({}, (t) => nodesOf(t).some((n) => n.role === 'text' && (n.value ?? '').includes('second line')));
      const doc = nodesOf(tree).find((n) => n.role === 'text' && (n.value ?? '').includes('second line'))!;
      expect(doc.value).toBe('first line\nsecond line: äöü\n');
      expect(doc.states).toEqual(expect.arrayContaining(['editable', 'multiline', 'visible']));
    } finally {
      await app.stop();
    }
  });
});
