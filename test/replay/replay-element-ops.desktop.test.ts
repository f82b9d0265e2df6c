/**
 * Replay of element ops (issue 17) in a GTK 3 app (gtk3-widget-factory) on Xvfb with a
 * private accessibility bus: the fake model acts only through the `element` tool —
 * invoke a check box, set_value a text field, focus it — with ids it reads from the
 * element list sent with its screenshot. The app is started afresh, the model server is
 * closed, and `deskpilot replay --strict` (the real CLI) reaches the same state, read
 * from the app's tree. A trajectory whose element was renamed is refused before
 * anything is acted.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { TrajectorySchema } from '../../src/shared/trajectory.js';
import { walkElements, type ElementNode } from '../../src/shared/elements.js';
import { readRunLog } from '../../src/main/sessions/reader.js';
import { startRun } from '../../src/main/agent/runner.js';
import { exportTrajectory } from '../../src/main/agent/replay/index.js';
import { runDir } from '../../src/main/sessions/history.js';
import { startAccessibilityBus, type AccessibilityBus } from '../harness/a11y-bus.js';
import type { FakeToolCall } from '../harness/fake-model/types.js';
import { startFakeModel } from '../harness/fake-model/index.js';
import { startGtkApp, type NativeApp } from '../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { finish, runCli, tempHome, testRunOptions } from '../e2e/support.js';

const SCREEN = { width: 1280, height: 800 };
const VALUE = 'set by the replay';
let xvfb: Xvfb;
let bus: AccessibilityBus;
let computer: DesktopComputer;
let app: NativeApp | undefined;
const home = tempHome();

beforeAll(async () => {
  xvfb = await startXvfb(SCREEN);
  process.env.DISPLAY = xvfb.display;
  bus = await startAccessibilityBus(xvfb);
  process.env.DBUS_SESSION_BUS_ADDRESS = bus.env.DBUS_SESSION_BUS_ADDRESS;
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = createComputer();
  await computer.warmUp();
  // Nobody else uses this display: the takeover watch must not take the agent's input for a person's.
  writeFileSync(path.join(home.home, 'config.json'), JSON.stringify({ takeover: 'ignore' }));
}, 90_000);

afterAll(async () => {
  await app?.stop();
  await bus?.stop();
  home.cleanup();
});

/** A fresh widget factory, focused, once its check buttons are in the tree. */
async function freshFactory(): Promise<void> {
  await app?.stop();
  app = await startGtkApp(bus.xvfb, 'gtk3-widget-factory');
  // The same place every time: the window manager cascades a new window, and a replay's
  // first check is that the screen resembles the recording's (a 60 px shift was 20% of it).
  spawnSync('xdotool', ['windowmove', '--sync', app.windowId, '40', '30'], { env: xvfb.env, timeout: 10_000 });
  spawnSync('xdotool', ['windowactivate', '--sync', app.windowId], { env: xvfb.env, timeout: 10_000 });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const tree = await computer.elementTree({ scope: 'focused' });
    if (tree.kind === 'tree' && [...walkElements(tree.windows.map((w) => w.root))].some((n) => n.role === 'check box' && n.bounds)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('gtk3-widget-factory showed no check box within 30 s');
}

/** The element at `path` once `ok` holds (the app applies a bus call on its own main loop), or the last thing read. */
async function state(elementPath: string, ok: (n: ElementNode) => boolean): Promise<ElementNode | string> {
  const deadline = Date.now() + 5_000;
  let last: ElementNode | string = 'not read';
  while (Date.now() < deadline) {
    const r = await computer.findElement(elementPath);
    last = r.kind === 'found' ? r.element : `${r.kind}: ${r.detail}`;
    if (typeof last !== 'string' && ok(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return last;
}

const checkedOf = (n: ElementNode | string) => (typeof n === 'string' ? n : n.states.includes('checked'));
const valueOf = (n: ElementNode | string) => (typeof n === 'string' ? n : (n.value ?? ''));
const focusedOf = (n: ElementNode | string) => (typeof n === 'string' ? n : n.states.includes('focused'));

/** The id of the first listed element whose line matches `re` (a line is `15 checkbox "checkbutton" [checked]`). */
function idOf(list: string, re: RegExp): number {
  const line = list.split('\n').find((l) => re.test(l));
  if (!line) throw new Error(`no element matching ${re} in the list the model got:\n${list}`);
  return Number(line.split(' ')[0]);
}

/** The elements the run's element actions named (their paths), in order. */
async function actedOn(runId: string): Promise<string[]> {
  const { events } = await readRunLog(runDir(home.home, runId));
  return events.flatMap((e) => (e.type === 'action_executed' && e.action.type === 'element' && e.action.target ? [e.action.target.path] : []));
}

const element = (id: number, action: string, value?: string): FakeToolCall => ({ name: 'element', input: { id, action, ...(value !== undefined ? { value } : {}) } });

function replayCli(args: string[]) {
  return runCli(['replay', ...args, '--strict', '--yes', '--json'], { ...bus.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: '' });
}

describe('replaying element ops in gtk3-widget-factory', () => {
  let recordedRun = '';
  let boxPath = '';
  let fieldPath = '';
  let wasChecked = false;

  it('invoke, set_value and focus by element ids, then `deskpilot replay --strict` with no model server reaches the same state', async () => {
    await freshFactory();
    const fake = await startFakeModel();
    let list = '';
    fake.script(
      (req) => {
        list = req.lastUserText;
        wasChecked = /^\d+ checkbox "checkbutton" \[checked\]/m.test(list);
        return { text: 'Toggle the check box.', toolCalls: [element(idOf(list, /^\d+ checkbox "checkbutton"/), 'invoke')] };
      },
      (req) => ({ text: 'Fill the field.', toolCalls: [element(idOf(req.lastUserText, /^\d+ text "" ="entry"$/), 'set_value', VALUE)] }),
      (req) => ({ text: 'Focus the field.', toolCalls: [element(idOf(req.lastUserText, new RegExp(`^\\d+ text "" ="${VALUE}"$`)), 'focus')] }),
      { text: 'Done.', toolCalls: [finish(true, 'toggled, filled, focused')] },
    );
    const profile = { provider: 'anthropic' as const, model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl, grounding: 'both' as const };
    const run = await startRun(testRunOptions({ task: 'toggle the box, fill and focus the field', profile, computer, home: home.home, limits: { maxSteps: 8, maxWallMs: 120_000, maxCostUsd: 5 } }));
    const result = await run.done;
    await fake.close();
    expect(result.status, `${result.summary}\n${list}`).toBe('done');
    recordedRun = run.runId;
    const paths = await actedOn(recordedRun);
    expect(paths).toHaveLength(3);
    [boxPath, fieldPath] = [paths[0]!, paths[1]!];
    expect(paths[2]).toBe(fieldPath);
    expect(checkedOf(await state(boxPath, (n) => n.states.includes('checked') !== wasChecked))).toBe(!wasChecked);
    expect(valueOf(await state(fieldPath, (n) => n.value === VALUE))).toBe(VALUE);
    expect(focusedOf(await state(fieldPath, (n) => n.states.includes('focused')))).toBe(true);

    // A fresh app in the state the recording started from; no model server anywhere.
    await freshFactory();
    expect(checkedOf(await state(boxPath, () => true))).toBe(wasChecked);
    expect(valueOf(await state(fieldPath, () => true))).not.toBe(VALUE);
    const replay = replayCli([recordedRun]);
    const { code } = await replay.exit;
    expect(code, replay.stderr()).toBe(0);
    expect(replay.stderr()).toMatch(/3 of 3 steps replayed, 0 healed, 0 model calls \(targets found by element-path 3\)/);
    // A look again (a screenshot, when a step's effect shows late on a loaded machine) is not a replayed action.
    const executed = (replay.events().filter((e) => e.type === 'action_executed') as Array<{ ok: boolean; action: { type: string; op?: string; value?: string; target?: { path: string } } }>).filter(
      (e) => e.action.type !== 'screenshot',
    );
    expect(executed.map((e) => [e.action.op, e.ok, e.action.target?.path])).toEqual([
      ['invoke', true, boxPath],
      ['set_value', true, fieldPath],
      ['focus', true, fieldPath],
    ]);
    expect(executed[1]!.action.value).toBe(VALUE);
    expect(checkedOf(await state(boxPath, (n) => n.states.includes('checked') !== wasChecked))).toBe(!wasChecked);
    expect(valueOf(await state(fieldPath, (n) => n.value === VALUE))).toBe(VALUE);
    expect(focusedOf(await state(fieldPath, (n) => n.states.includes('focused')))).toBe(true);
  }, 300_000);

  it('--strict refuses a trajectory whose check box was renamed: a target divergence, and nothing is acted', async () => {
    expect(recordedRun, 'the first test recorded a run').not.toBe('');
    const out = path.join(home.home, 'renamed');
    const exported = await exportTrajectory(runDir(home.home, recordedRun), out);
    const trajectory = TrajectorySchema.parse(JSON.parse(readFileSync(exported.file, 'utf8')));
    const first = trajectory.steps[0]!.actions[0]!;
    if (first.action.type !== 'element' || !first.action.target) throw new Error('the first step is not the element invoke');
    const newPath = `${boxPath.slice(0, boxPath.lastIndexOf(' > ') + 3)}check box "Renamed since the recording"`;
    first.action.target = { ...first.action.target, path: newPath, name: 'Renamed since the recording' };
    if (first.target?.element) first.target.element = { ...first.target.element, path: newPath, name: 'Renamed since the recording' };
    writeFileSync(exported.file, JSON.stringify(trajectory));

    await freshFactory();
    const wasValue = valueOf(await state(fieldPath, () => true));
    const replay = replayCli(['--file', exported.file]);
    const { code } = await replay.exit;
    expect(code, replay.stderr()).toBe(1);
    expect(replay.stderr()).toMatch(/diverged at step 1 of 3: the target of .*invoke.* was not found \(element path .*Renamed since the recording/);
    // Nothing acted: the one action run is the replay looking again (a screenshot) before it called the target missing.
    const executed = replay.events().filter((e) => e.type === 'action_executed') as Array<{ action: { type: string } }>;
    expect(executed.map((e) => e.action.type)).toEqual(['screenshot']);
    // Nothing changed in the app: the box and the field are as the fresh app showed them. No
    // wait is needed: the replay has exited, so any call it made reached the app's bus
    // connection before this read, and the app answers its connection's calls in order.
    expect(checkedOf(await state(boxPath, () => true))).toBe(wasChecked);
    expect(valueOf(await state(fieldPath, () => true))).toBe(wasValue);
  }, 180_000);
});
