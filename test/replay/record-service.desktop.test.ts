/**
 * The app's Record button, main side (bridge commands record.start / record.stop): the
 * real BridgeService records a person (xdotool as the person) on Xvfb with a private
 * accessibility bus and gtk3-widget-factory, with the same recorder `deskpilot record`
 * runs. The session folder holds a trajectory that `deskpilot replay` runs again on a
 * fresh app; input the host says went to its own windows is left out; the stop key ends
 * a recording without record.stop; a browser of `deskpilot serve` is refused.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushMessage, RecordingState } from '../../src/shared/bridge.js';
import { isInteractive, walkElements, type ElementNode } from '../../src/shared/elements.js';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { createBridgeService, RECORDING_REFUSED, type ClientInfo } from '../../src/main/service/index.js';
import type { RunHostingService } from '../../src/main/service/types.js';
import { trajectoryOfRun } from '../../src/main/agent/replay/index.js';
import type { PersonInput } from '../../src/main/agent/record/record.js';
import { startAccessibilityBus, type AccessibilityBus } from '../harness/a11y-bus.js';
import { startGtkApp, type NativeApp } from '../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { runCli, tempHome } from '../e2e/support.js';

let xvfb: Xvfb;
let bus: AccessibilityBus;
let computer: DesktopComputer;
let app: NativeApp | undefined;
let service: RunHostingService;
const home = tempHome();
const desktop: ClientInfo = { id: 'electron:main', kind: 'electron' };
const browser: ClientInfo = { id: 'ws:1', kind: 'ws' };
const pushes: { desktop: RecordingState[]; browser: RecordingState[] } = { desktop: [], browser: [] };
/** What the host (the desktop shell) says is its own window: presses there are not part of the task. */
let ownWindow = { x: -1, y: -1, width: 0, height: 0 };
/** Presses the recorder asked the host about: it asks once per press, when it handles it. */
let pressesJudged = 0;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  process.env.DISPLAY = xvfb.display;
  bus = await startAccessibilityBus(xvfb);
  process.env.DBUS_SESSION_BUS_ADDRESS = bus.env.DBUS_SESSION_BUS_ADDRESS;
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = createComputer();
  await computer.warmUp();
  writeFileSync(path.join(home.home, 'config.json'), JSON.stringify({ takeover: 'ignore' }));
  service = createBridgeService({
    home: home.home,
    computer,
    env: {},
    host: {
      killHotkey: () => null,
      onKillHotkeyChange: () => {},
      prepareSettings: async () => () => {},
      ownsInput: (input: PersonInput) => {
        if (input.kind !== 'button') return false;
        pressesJudged += 1;
        return input.point.x >= ownWindow.x && input.point.y >= ownWindow.y && input.point.x < ownWindow.x + ownWindow.width && input.point.y < ownWindow.y + ownWindow.height;
      },
    },
  });
  const collect = (into: RecordingState[]) => (m: PushMessage) => {
    if (m.kind === 'record_state') into.push(m.recording);
  };
  service.subscribe(desktop, collect(pushes.desktop));
  service.subscribe(browser, collect(pushes.browser));
}, 90_000);

afterAll(async () => {
  await service?.close();
  await app?.stop();
  await bus?.stop();
  home.cleanup();
});

const person = (...args: string[]) => spawnSync('xdotool', args, { env: bus.env, timeout: 10_000 });
const centre = (n: ElementNode) => ({ x: Math.round(n.bounds!.x + n.bounds!.width / 2), y: Math.round(n.bounds!.y + n.bounds!.height / 2) });
/** The screenshots a recording has logged so far (events.jsonl): one at the start, then one after each action. */
function screensLogged(runId: string): number {
  const file = path.join(home.home, 'sessions', runId, 'events.jsonl');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('"type":"observation"')).length : 0;
}

/**
 * A person's click, returning once the recorder has handled it: it asked the host whether
 * the press was its own (it reads the pointer then, so the pointer must not move on
 * before), and for a click it keeps, logged the screenshot after it.
 */
async function clickAt(p: { x: number; y: number }, recordedIn?: string): Promise<void> {
  const screens = recordedIn ? screensLogged(recordedIn) : 0;
  const judged = pressesJudged;
  person('mousemove', '--sync', String(p.x), String(p.y));
  person('click', '1');
  await until('the recorder to handle the press', () => pressesJudged > judged, 60_000);
  if (recordedIn) await until('the recorder to log the screenshot after the click', () => screensLogged(recordedIn) > screens, 60_000);
}

/** A fresh, focused widget factory: its first visible check box and editable text field. */
async function freshFactory(): Promise<{ box: ElementNode; field: ElementNode }> {
  await app?.stop();
  app = await startGtkApp(bus.xvfb, 'gtk3-widget-factory');
  // The same place every time: the window manager cascades a new window, and a replay's
  // first check is that the screen resembles the recording's (a 60 px shift was 20% of it).
  spawnSync('xdotool', ['windowmove', '--sync', app.windowId, '40', '30'], { env: xvfb.env, timeout: 10_000 });
  spawnSync('xdotool', ['windowactivate', '--sync', app.windowId], { env: xvfb.env, timeout: 10_000 });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const tree = await computer.elementTree({ scope: 'focused' });
    if (tree.kind === 'tree') {
      const nodes = [...walkElements(tree.windows.map((w) => w.root))].filter((n) => n.bounds && isInteractive(n));
      const box = nodes.find((n) => n.role === 'check box');
      const field = nodes.find((n) => n.role === 'text' && n.states.includes('editable'));
      if (box && field) return { box, field };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('gtk3-widget-factory showed no check box within 30 s');
}

async function checked(p: string): Promise<boolean | string> {
  const r = await computer.findElement(p);
  return r.kind === 'found' ? r.element.states.includes('checked') : r.detail;
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('record.start / record.stop in the bridge service', () => {
  let recorded = '';
  let boxPath = '';
  let wasChecked = false;

  it("records a click on a check box into a session with a trajectory and a draft SKILL.md; a press on the app's own window is left out", async () => {
    const { box, field } = await freshFactory();
    boxPath = box.path;
    wasChecked = box.states.includes('checked');
    ownWindow = field.bounds!;
    const started = await service.call('record.start', { taskName: 'tick the check box' }, desktop);
    expect(started.stopKey).toBe('Pause');
    expect(pushes.desktop.map((s) => s.state)).toEqual(['idle', 'starting', 'recording']);
    expect(pushes.desktop.at(-1)).toEqual({ state: 'recording', task: 'tick the check box', runId: started.runId, stopKey: 'Pause', steps: 0 });
    // One of each at a time: a second recording, and a run, are conflicts while it records.
    await expect(service.call('record.start', { taskName: 'again' }, desktop)).rejects.toMatchObject({ code: 'conflict' });
    await expect(service.call('run.start', { task: 'do something' }, desktop)).rejects.toMatchObject({ code: 'conflict', message: /recording is running/ });

    await clickAt(centre(field)); // "DeskPilot's own window": not recorded
    await clickAt(centre(box), started.runId);
    await until('the click on the check box to be recorded', () => pushes.desktop.at(-1)?.state === 'recording' && (pushes.desktop.at(-1) as { steps: number }).steps === 1);
    expect(pushes.desktop.at(-1)).toMatchObject({ steps: 1, last: expect.stringContaining('check box') });
    const saved = await service.call('record.stop', {}, desktop);
    recorded = saved.runId;
    expect(saved).toMatchObject({ runId: started.runId, steps: 1 });
    expect(pushes.desktop.at(-1)).toEqual({ state: 'saved', task: 'tick the check box', saved });
    expect(existsSync(path.join(saved.dir, 'events.jsonl'))).toBe(true);
    expect(readFileSync(saved.skillFile, 'utf8')).toContain(`deskpilot replay ${saved.runId}`);
    const trajectory = await trajectoryOfRun(saved.dir);
    expect(trajectory.task).toBe('tick the check box');
    expect(trajectory.steps).toHaveLength(1);
    expect(trajectory.steps[0]!.actions[0]!.target?.element?.path).toBe(boxPath);
    expect(await checked(boxPath)).toBe(!wasChecked);
    // A browser heard nothing of it but the refusal it was greeted with.
    expect(pushes.browser).toEqual([{ state: 'unavailable', reason: RECORDING_REFUSED }]);
  }, 120_000);

  it('`deskpilot replay` of the recording ticks the box of a fresh app', async () => {
    expect(recorded, 'the first test recorded').not.toBe('');
    ownWindow = { x: -1, y: -1, width: 0, height: 0 };
    await freshFactory();
    expect(await checked(boxPath)).toBe(wasChecked);
    const replay = runCli(['replay', recorded, '--strict', '--yes', '--json'], { ...bus.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: '' });
    const { code } = await replay.exit;
    expect(code, replay.stderr()).toBe(0);
    expect(replay.stderr()).toContain('1 of 1 steps replayed, 0 healed, 0 model calls');
    await until('the replayed click to toggle the box', async () => (await checked(boxPath)) === !wasChecked, 5_000);
  }, 120_000);

  it('the stop key ends a recording without record.stop; record.stop then answers where it was saved', async () => {
    const before = pushes.desktop.length;
    const started = await service.call('record.start', { taskName: 'nothing, then stop' }, desktop);
    person('key', 'Pause');
    await until('the stop key to save the recording', () => pushes.desktop.at(-1)?.state === 'saved');
    const saved = pushes.desktop.at(-1) as Extract<RecordingState, { state: 'saved' }>;
    expect(saved.saved).toMatchObject({ runId: started.runId, steps: 0 });
    expect(pushes.desktop.slice(before).map((s) => s.state)).toEqual(['starting', 'recording', 'saved']);
    expect(await service.call('record.stop', {}, desktop)).toEqual(saved.saved);
  }, 60_000);

  it('refuses a browser of deskpilot serve: recording reads every key on the host', async () => {
    await expect(service.call('record.start', { taskName: 'spy on the host' }, browser)).rejects.toMatchObject({ code: 'unavailable', message: RECORDING_REFUSED });
    await expect(service.call('record.stop', {}, browser)).rejects.toMatchObject({ code: 'unavailable' });
    await expect(service.call('record.start', { taskName: '   ' }, desktop)).rejects.toMatchObject({ code: 'invalid', message: /taskName/ });
    expect(pushes.browser).toEqual([{ state: 'unavailable', reason: RECORDING_REFUSED }]);
  });
});
