/**
 * Every way a secret reaches a field hides the field (issue 28 item 1): a `set_value` of
 * a password — typing without the keyboard, through the accessibility bus — fills the
 * password field in every stored screenshot after it, like typing into it does. On a real
 * desktop: Xvfb, a private accessibility bus, gtk3-demo's "Entry Buffer" (a plain entry
 * and a password entry sharing one buffer: the plain one reads back what was set), the
 * real `deskpilot` CLI and the fake model.
 *
 * The case that showed the gap is the strict replay of such a run: it reads no tree for
 * its screenshots (grounding pixels), so only the set_value itself can say where the
 * secret went; its screenshots after the step showed the dots before this fix.
 *
 * Item 2: a divergence report's screen seen now is stored like every screenshot, its
 * secret regions filled (divergence/seen.png and expected-vs-seen.png).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Rect } from '../../src/shared/actions.js';
import { walkElements, type ElementNode } from '../../src/shared/elements.js';
import { readElementTree } from '../../src/os-control/accessibility/index.js';
import { startAccessibilityBus, type AccessibilityBus } from '../harness/a11y-bus.js';
import { startFakeModel, type FakeRequest } from '../harness/fake-model/index.js';
import { startGtkApp, type NativeApp } from '../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { finish, runCli, tempHome } from '../e2e/support.js';
import { coversField, insideInImage, spread, storedObservations } from './stored-screens.js';

const SECRET = 'hunter2';
let xvfb: Xvfb;
let bus: AccessibilityBus;
let app: NativeApp | undefined;
const home = tempHome();

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  bus = await startAccessibilityBus(xvfb);
  // Nobody else uses this display: the takeover watch must not take the agent's input for a person's.
  writeFileSync(path.join(home.home, 'config.json'), JSON.stringify({ takeover: 'ignore' }));
}, 90_000);

afterAll(async () => {
  await app?.stop();
  await bus?.stop();
  await xvfb?.stop();
  home.cleanup();
});

const env = (extra: NodeJS.ProcessEnv = {}) => ({ ...bus.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: '', ...extra });

async function entries(): Promise<{ plain?: ElementNode; password?: ElementNode }> {
  const tree = await readElementTree({ scope: 'all' }, undefined, { env: bus.env });
  const nodes = tree.kind === 'tree' ? [...walkElements(tree.windows.map((w) => w.root))] : [];
  return { plain: nodes.find((n) => n.role === 'text' && n.states.includes('editable')), password: nodes.find((n) => n.role === 'password text' && n.bounds) };
}

/** A fresh "Entry Buffer" demo at the same place, focused, once both entries are in the tree (both empty). */
async function freshDemo(): Promise<Rect> {
  await app?.stop();
  app = await startGtkApp(bus.xvfb, 'gtk3-demo', ['--run=entry_buffer']);
  // `--run` opens the demo's own window beside the main one: that one, at the same place every
  // time (a replay's first check is that the screen resembles the recording's), focused.
  const found = spawnSync('xdotool', ['search', '--sync', '--onlyvisible', '--name', '^Entry Buffer$'], { env: xvfb.env, timeout: 30_000, encoding: 'utf8' });
  const demo = found.stdout.trim().split('\n')[0];
  if (!demo) throw new Error(`gtk3-demo's "Entry Buffer" window did not map: ${found.stderr}`);
  spawnSync('xdotool', ['windowmove', '--sync', demo, '40', '30'], { env: xvfb.env, timeout: 10_000 });
  spawnSync('xdotool', ['windowactivate', '--sync', demo], { env: xvfb.env, timeout: 10_000 });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { plain, password } = await entries();
    if (plain && !plain.value && password?.bounds && password.bounds.x >= 40) return password.bounds;
  }
  throw new Error('gtk3-demo entry_buffer showed no empty entry and password entry at (40, 30) within 60 s');
}

/** The plain entry's text once it reads `want` (the app applies a bus call on its own main loop), or the last read. */
async function plainReads(want: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  let last = '';
  while (Date.now() < deadline) {
    last = (await entries()).plain?.value ?? '';
    if (last === want) return last;
  }
  return last;
}

const sessionDir = (runId: string) => path.join(home.home, 'sessions', runId);
const runIdOf = (events: Array<Record<string, unknown>>) => String(events.find((e) => e.type === 'run_started')!.runId);

/** A `deskpilot run` (grounding both) that sets each value in turn on the password entry by its element id; its run id. */
async function recordSetValues(values: readonly string[]): Promise<string> {
  await freshDemo();
  const fake = await startFakeModel();
  let list = '';
  try {
    const setOne = (value: string) => (req: FakeRequest) => {
      list = req.lastUserText;
      const line = list.split('\n').find((l) => /^\d+ password ""/.test(l));
      if (!line) throw new Error(`no password entry in the element list:\n${list}`);
      return { text: 'Set the password.', toolCalls: [{ name: 'element', input: { id: Number(line.split(' ')[0]), action: 'set_value', value } }] };
    };
    fake.script(...values.map(setOne), { text: 'Done.', toolCalls: [finish(true, 'done')] });
    const run = runCli(['run', 'set the password', '--grounding', 'both', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--json', '--no-agents-md'], env());
    expect((await run.exit).code, `${run.stderr()}\n${list}`).toBe(0);
    const set = run.events().filter((e) => e.type === 'action_executed');
    expect(set.map((e) => [(e.action as { op?: string }).op, e.ok]), JSON.stringify(set)).toEqual(values.map(() => ['set_value', true]));
    // The app got it (the plain entry shares the password entry's buffer).
    expect(await plainReads(values.at(-1)!)).toBe(values.at(-1));
    return runIdOf(run.events());
  } finally {
    await fake.close();
  }
}

const replayCli = (runId: string, secrets: NodeJS.ProcessEnv) => runCli(['replay', runId, '--strict', '--yes', '--json'], env({ ANTHROPIC_API_KEY: '', ...secrets }));

it('a run sets the password entry by its element id; its strict replay stores every screen after the set_value with the field filled, the model\'s copy with the dots', async () => {
  const runId = await recordSetValues([SECRET]);
  const field = await freshDemo();
  const replay = replayCli(runId, { DESKPILOT_SECRET_1: SECRET });
  expect((await replay.exit).code, replay.stderr()).toBe(0);
  expect(await plainReads(SECRET)).toBe(SECRET);
  const replayId = runIdOf(replay.events());
  const executed = replay.events().filter((e) => e.type === 'action_executed') as Array<{ action: { type: string; op?: string; value?: string }; ok: boolean }>;
  expect(executed.map((e) => [e.action.type, e.action.op, e.ok, e.action.value])).toEqual([['element', 'set_value', true, '[masked secret]']]);

  const shots = storedObservations(sessionDir(replayId));
  // Before the step nothing is hidden (a strict replay reads no tree for its screens); after it, the field set.
  expect(shots[0]!.secretRegions).toBeUndefined();
  const after = shots.slice(1);
  expect(after.length).toBeGreaterThan(0);
  for (const shot of after) {
    expect(coversField(shot.secretRegions ?? [], field), JSON.stringify({ regions: shot.secretRegions, field })).toBe(true);
    expect(await spread(path.join(sessionDir(replayId), shot.image), insideInImage(field, shot))).toBeLessThanOrEqual(12);
    // The model's copy shows what the replay set: the dots are there, only the stored screens hide them.
    expect(await spread(path.join(sessionDir(replayId), shot.modelImage!), insideInImage(field, shot))).toBeGreaterThan(100);
  }
}, 400_000);

it('a strict replay that diverges after setting the password stores the screen seen with the field filled (divergence/seen.png and the side-by-side)', async () => {
  // Two secrets set; the replay is given the first only: it sets it, then stops at step 2 with a `secret` divergence.
  const runId = await recordSetValues([SECRET, 'hunter3']);
  const field = await freshDemo();
  const replay = replayCli(runId, { DESKPILOT_SECRET_1: SECRET });
  expect((await replay.exit).code, replay.stderr()).toBe(1);
  expect(await plainReads(SECRET)).toBe(SECRET);
  const dir = sessionDir(runIdOf(replay.events()));
  const report = JSON.parse(readFileSync(path.join(dir, 'divergence.json'), 'utf8')) as { step: number; kind: string; files: { seen: string; sideBySide?: string } };
  expect([report.step, report.kind]).toEqual([2, 'secret']);
  // The screen seen is the one the replay's last observation stored: the same size, the same place.
  const last = storedObservations(dir).at(-1)!;
  const inSeen = insideInImage(field, last);
  expect(await spread(path.join(dir, report.files.seen), inSeen), 'divergence/seen.png shows the password field').toBeLessThanOrEqual(12);
  // The control: the model's copy of that screen has the dots.
  expect(await spread(path.join(dir, last.modelImage!), inSeen)).toBeGreaterThan(100);
  // expected-vs-seen.png: the seen side (right of the recorded one and a 16 px gap, under a 28 px caption, scaled to 500 px high).
  const sideBySide = path.join(dir, report.files.sideBySide!);
  const meta = await sharp(readFileSync(sideBySide)).metadata();
  const scale = 500 / last.observation.image.height;
  const seenLeft = meta.width! - Math.round(last.observation.image.width * scale);
  const inSide = { x: seenLeft + Math.ceil(inSeen.x * scale) + 2, y: 28 + Math.ceil(inSeen.y * scale) + 2, width: Math.floor(inSeen.width * scale) - 4, height: Math.floor(inSeen.height * scale) - 4 };
  expect(await spread(sideBySide, inSide), 'the side-by-side shows the password field').toBeLessThanOrEqual(12);
}, 400_000);
