/**
 * Element ids end to end (issue 16): `deskpilot run` (the real CLI, a child process) on
 * Xvfb with a private accessibility bus, gnome-calculator (GTK 4) as the app, the fake
 * model (Anthropic protocol) acting only through the `element` tool with ids it reads
 * from the element list sent with its screenshot. The calculator's own state — its
 * display, read back from its accessibility tree in this process — says what happened.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findElementByPath, readElementTree } from '../../src/os-control/accessibility/index.js';
import { walkElements, type ElementNode } from '../../src/shared/elements.js';
import { startAccessibilityBus, type AccessibilityBus } from '../harness/a11y-bus.js';
import type { FakeToolCall } from '../harness/fake-model/types.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startGtkApp, type NativeApp } from '../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { REPO_ROOT, claude, finish, runCli, tempHome } from './support.js';

const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts', 'e2e');

let xvfb: Xvfb;
let bus: AccessibilityBus;
let calc: NativeApp;
let fake: FakeModelServer;
let display: ElementNode;
const home = tempHome();

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  bus = await startAccessibilityBus(xvfb);
  calc = await startGtkApp(bus.xvfb, 'gnome-calculator');
  spawnSync('xdotool', ['windowactivate', '--sync', calc.windowId], { env: xvfb.env, timeout: 10_000 });
  // The app registers on the bus a moment after its window maps.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const tree = await readElementTree({ scope: 'all', windowPattern: '^Calculator$' }, undefined, { env: bus.env });
    const found = tree.kind === 'tree' ? [...walkElements(tree.windows.map((w) => w.root))].find((n) => n.role === 'text' && n.states.includes('editable')) : undefined;
    if (found) {
      display = found;
      break;
    }
    if (Date.now() > deadline) throw new Error(`gnome-calculator's display never appeared: ${tree.kind === 'none' ? tree.detail : 'no editable text'}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  fake = await startFakeModel();
  // Nobody else uses this display: on a busy machine the takeover watch can take the
  // agent's own input for a person's and pause the run (as bench/agent.bench.ts does).
  writeFileSync(path.join(home.home, 'config.json'), JSON.stringify({ takeover: 'ignore' }));
}, 90_000);

afterAll(async () => {
  await fake?.close();
  await calc?.stop();
  await bus?.stop();
  await xvfb?.stop();
  home.cleanup();
});

/** The calculator's display text once it equals `want` (the app repaints on its own time). */
async function displayReads(want: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  let last = '';
  while (Date.now() < deadline) {
    const r = await findElementByPath(display.path, { env: bus.env });
    last = r.kind === 'found' ? (r.element.value ?? '').replace(/\s/g, '') : `(${r.kind}: ${r.detail})`;
    if (last === want) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return last;
}

/** The id of the listed element whose line matches `re` (a line is `12 button "2 2"`). */
function idOf(list: string, re: RegExp): number {
  const line = list.split('\n').find((l) => re.test(l));
  if (!line) throw new Error(`no element matching ${re} in the list the model got:\n${list}`);
  return Number(line.split(' ')[0]);
}

const element = (id: number, action: string, value?: string): FakeToolCall => ({ name: 'element', input: { id, action, ...(value !== undefined ? { value } : {}) } });

function deskpilotRun(task: string, extra: string[] = []) {
  return runCli(['run', task, '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--json', ...extra], {
    ...bus.env,
    DESKPILOT_HOME: home.home,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ANTHROPIC_BASE_URL: '',
  });
}

it('5 × 6 by element ids (click, invoke), then set_value on the display: the calculator reads 30, then 42', async () => {
  // The list holds the 20 elements nearest the focus (the expression field at the top):
  // gnome-calculator's top rows (7 8 9 ÷, 5 6 ×), not its bottom row (0 . =). Return
  // evaluates, as a person would press it.
  let list = '';
  fake.script(
    (req) => {
      list = req.lastUserText;
      return {
        text: 'Computing 5 × 6 with the listed buttons.',
        // An invoke goes to the app over D-Bus and a click through X, in one turn: GTK 4
        // once ran the invoke after the click that followed it ("56×"); os-control now lets
        // the screen show an accessibility action before the next action goes out.
        toolCalls: [
          element(idOf(list, /^\d+ button "5( 5)?"$/), 'click'),
          element(idOf(list, /^\d+ button "×( ×)?"$/), 'invoke'),
          element(idOf(list, /^\d+ button "6( 6)?"$/), 'click'),
        ],
      };
    },
    { toolCalls: [claude.key('Return')] },
    { text: 'It shows 30.', toolCalls: [finish(true, '30')] },
  );
  const run = deskpilotRun('compute 5 × 6 in the calculator');
  const { code } = await run.exit;
  expect(code, `${run.stderr()}\n${list}`).toBe(0);
  expect(await displayReads('30'), JSON.stringify(run.events().filter((e) => e.type === 'action_executed' || e.type === 'error'))).toBe('30');
  // What the gate and the log saw: the element (role + name) and its point, not just an id.
  const proposed = run.events().filter((e) => e.type === 'action_proposed').map((e) => e.action as { type: string; target?: { role: string; name: string; x: number; y: number } });
  expect(proposed.map((a) => a.type)).toEqual(['element', 'element', 'element', 'key', 'finish']);
  expect(proposed.slice(0, 3).every((a) => a.target?.role === 'push button' && Number.isFinite(a.target.x))).toBe(true);
  expect(proposed[0]!.target!.name).toMatch(/^5( 5)?$/);
  expect(run.events().filter((e) => e.type === 'action_executed').every((e) => e.ok === true)).toBe(true);

  fake.script(
    (req) => ({ toolCalls: [element(idOf(req.lastUserText, /^\d+ text .*\[focused\]$/), 'set_value', '7×6'), claude.key('Return')] }),
    { toolCalls: [finish(true, '42')] },
  );
  const second = deskpilotRun('compute 7 × 6');
  expect((await second.exit).code, second.stderr()).toBe(0);
  expect(await displayReads('42')).toBe('42');
}, 180_000);

it('--grounding elements: the model gets the screenshot with the ids drawn on the real controls, instead of the plain one', async () => {
  fake.script({ text: 'Looked.', toolCalls: [finish(true, 'seen')] });
  const run = deskpilotRun('look at the calculator', ['--grounding', 'elements']);
  expect((await run.exit).code, run.stderr()).toBe(0);
  const body = fake.requests.at(-1)!.body as { messages: Array<{ content: Array<{ type: string; text?: string; source?: { data: string } }> }> };
  const blocks = body.messages.flatMap((m) => m.content);
  const images = blocks.filter((b) => b.type === 'image');
  expect(images).toHaveLength(1);
  const list = blocks.find((b) => b.type === 'text' && b.text?.startsWith('Elements on screen'))!.text!;
  const png = Buffer.from(images[0]!.source!.data, 'base64');
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(path.join(ARTIFACTS, 'grounding-marks-calculator.img'), png);
  // The "6" button's box, from the tree, mapped into the image the model got: its outline is the marks' colour.
  const tree = await readElementTree({ scope: 'all', windowPattern: '^Calculator$' }, undefined, { env: bus.env });
  const six = tree.kind === 'tree' ? [...walkElements(tree.windows.map((w) => w.root))].find((n) => n.role === 'push button' && /^6( 6)?$/.test(n.name)) : undefined;
  expect(six?.bounds, list).toBeDefined();
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const scale = info.width / 1280;
  const pixel = (x: number, y: number) => {
    const i = (Math.round(y * scale) * info.width + Math.round(x * scale)) * info.channels;
    return [data[i]!, data[i + 1]!, data[i + 2]!] as const;
  };
  const b = six!.bounds!;
  // Across the left edge at mid-height: the most magenta pixel (the outline is 2 px, the image downscaled and JPEG).
  const edge = [-2, -1, 0, 1, 2].map((d) => pixel(b.x + d, b.y + b.height / 2)).sort((p, q) => q[0] - q[1] - (p[0] - p[1]))[0]!;
  expect(edge[0] - edge[1], `outline at the 6 button's left edge: ${edge.join(',')}`).toBeGreaterThan(60);
  expect(list).toMatch(/^\d+ button "6( 6)?"$/m);
}, 120_000);

it('an element that is gone when its action runs is refused: nothing is clicked at the point it had', async () => {
  fake.script(
    async (req) => {
      const id = idOf(req.lastUserText, /^\d+ button "7( 7)?"$/);
      // The app goes away between the screenshot (and its list) and the action.
      await calc.stop();
      return { toolCalls: [element(id, 'click')] };
    },
    (req) => ({ text: 'The calculator is gone.', toolCalls: [finish(false, req.toolResults.at(-1)?.text ?? '')] }),
  );
  const run = deskpilotRun('press 7 in the calculator');
  await run.exit;
  const executed = run.events().find((e) => e.type === 'action_executed');
  // The action as it went to the computer: its point in global desktop points.
  const target = (executed?.action as { target?: { x: number; y: number } } | undefined)?.target;
  expect(executed?.ok).toBe(false);
  expect(String(executed?.error)).toMatch(/button "7( 7)?" is not there any more .*nothing was done/);
  // The pointer never went to where "7" was.
  const where = spawnSync('xdotool', ['getmouselocation', '--shell'], { env: xvfb.env, encoding: 'utf8' }).stdout;
  const x = Number(/X=(\d+)/.exec(where)?.[1]);
  const y = Number(/Y=(\d+)/.exec(where)?.[1]);
  expect(target).toBeDefined();
  expect(Math.hypot(x - target!.x, y - target!.y)).toBeGreaterThan(10);
}, 120_000);
