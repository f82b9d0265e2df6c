/**
 * What the password check of a `type` reads (issue 28 gap 2, issue 26's step cost): one
 * focused-tree read and one active-window read per action, shared by the check, the
 * gate and the field a secret goes into — and, before anything of the turn has acted,
 * the step's own tree (read beside its screenshot) instead of a second read. A click of
 * the same turn makes the next `type` read afresh: the click may have moved the focus.
 * FakeComputer (its calls are counted) and the fake model; the real desktop cases are
 * secret-typed-block.desktop and secret-screens.desktop.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/main/config/index.js';
import { startRun } from '../../src/main/agent/runner.js';
import type { ElementNode, ElementWindow } from '../../src/shared/elements.js';
import type { RunEvent } from '../../src/shared/events.js';
import { runDir } from '../../src/main/sessions/history.js';
import { claude, finish, tempHome, testRunOptions, toImagePoint } from '../e2e/support.js';
import { createFakeComputer, type FakeComputer } from '../harness/fake-computer.js';
import { startFakeModel, type FakeModelServer, type FakeRequest } from '../harness/fake-model/index.js';

const FRAME = 'application "login" > frame "Login"';
const WORD = 'tulip7';
const SCREEN = { width: 1280, height: 800 };

function field(name: string, role: 'text' | 'password text', y: number, focused: boolean): ElementNode {
  const states: ElementNode['states'] = ['focusable', 'enabled', 'visible', 'editable', ...(role === 'password text' ? (['password'] as const) : []), ...(focused ? (['focused'] as const) : [])];
  return { path: `${FRAME} > ${role} ${JSON.stringify(name)}`, role, name, states, actions: [], bounds: { x: 100, y, width: 200, height: 30 }, children: [] };
}

/** A login window whose focus is in the user field or the password field. */
function login(focus: 'user' | 'password'): ElementWindow[] {
  return [
    {
      app: 'login',
      pid: 4242,
      root: { path: FRAME, role: 'frame', name: 'Login', states: ['enabled', 'visible', 'active'], actions: [], bounds: { x: 0, y: 0, width: 1280, height: 800 }, children: [field('User', 'text', 100, focus === 'user'), field('Password', 'password text', 200, focus === 'password')] },
    },
  ];
}

let fake: FakeModelServer;
const home = tempHome();
beforeEach(async () => {
  fake = await startFakeModel();
});
afterEach(async () => {
  await fake?.close();
});
afterAll(() => home.cleanup());

async function run(computer: FakeComputer) {
  const events: RunEvent[] = [];
  const handle = await startRun(testRunOptions({ task: 'log in', profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl }, computer, home: home.home, config: { ...defaultConfig(), takeover: 'ignore' }, onEvent: (e) => events.push(e) }));
  const result = await handle.done;
  expect(result.status, result.summary).toBe('done');
  const log = readFileSync(path.join(runDir(home.home, result.runId), 'events.jsonl'), 'utf8');
  const count = (call: string) => computer.calls.filter((c) => c === call).length;
  return { events, log, trees: count('elementTree'), windows: count('activeWindow'), observations: count('observe') };
}

describe("a type's password check reads once per action", () => {
  it('the first action of a turn is checked on the step tree: no read of its own, one active-window read, the word masked and its field noted', async () => {
    const computer = createFakeComputer();
    computer.elements = login('password');
    fake.script({ toolCalls: [claude.type(WORD)] }, { toolCalls: [finish(true, 'typed')] });
    const r = await run(computer);
    expect(r.log).not.toContain(WORD);
    expect(r.events.find((e) => e.type === 'action_proposed' && e.action.type === 'type')).toMatchObject({ action: { text: '[masked secret]' } });
    // One tree read per screenshot (the step's), none for the check or the field: on the old runner 2 more (check, field).
    expect(r.trees).toBe(r.observations);
    // The check and the gate's window rules share one read (the old runner asked twice).
    expect(r.windows).toBe(1);
    // The field the password went into is filled in the screens stored after it, from that same tree.
    const shots = r.events.filter((e): e is Extract<RunEvent, { type: 'observation' }> => e.type === 'observation');
    expect(shots.at(-1)!.secretRegions).toEqual([{ x: 100, y: 200, width: 200, height: 30 }]);
  });

  it('after a click of the same turn the type reads the focus afresh: the click moved it into the password field', async () => {
    const computer = createFakeComputer();
    computer.elements = login('user');
    const perform = computer.perform.bind(computer);
    // The click lands in the password field and the app moves the focus there.
    computer.perform = async (action, signal) => {
      const done = await perform(action, signal);
      if (action.type === 'click') computer.elements = login('password');
      return done;
    };
    fake.script(
      (req: FakeRequest) => {
        const [x, y] = toImagePoint(req, SCREEN, { x: 200, y: 215 });
        return { toolCalls: [{ name: 'computer', input: { action: 'left_click', coordinate: [x, y] } }, claude.type(WORD)] };
      },
      { toolCalls: [finish(true, 'typed')] },
    );
    const r = await run(computer);
    // No line holds it: the turn's model_text too, logged before the click ran, when the step's tree said the user
    // field (turn-secrets.ts follows the turn's click on that tree; the old runner logged it there in the clear).
    expect(r.log).not.toContain(WORD);
    const lines = r.log.split('\n');
    const proposed = lines.findIndex((l) => l.includes('"type":"action_proposed"') && l.includes('"action":{"type":"type"'));
    expect(proposed).toBeGreaterThan(0);
    expect(lines[proposed]).toContain('[masked secret]');
    // The step's tree said the user field: only a read after the click can know the password field has the focus.
    expect(r.trees).toBe(r.observations + 1);
  });

  it('text typed where the focus is not a password is typed and logged as it is', async () => {
    const computer = createFakeComputer();
    computer.elements = login('user');
    fake.script({ toolCalls: [claude.type('alice')] }, { toolCalls: [finish(true, 'typed')] });
    const r = await run(computer);
    expect(computer.performed).toEqual([{ type: 'type', text: 'alice' }]);
    expect(r.events.find((e) => e.type === 'action_proposed' && e.action.type === 'type')).toMatchObject({ action: { text: 'alice' } });
    expect(r.trees).toBe(r.observations);
  });
});

/** The turn's model_text (prose and calls), the first line of the turn the log writes. */
const turnText = (events: RunEvent[]) => JSON.stringify(events.find((e) => e.type === 'model_text' && e.kind === 'text'));

describe("a turn's model_text, logged before its actions run, follows the turn's own clicks (turn-secrets.ts)", () => {
  const at = (req: FakeRequest, y: number) => toImagePoint(req, SCREEN, { x: 200, y });

  it('text typed before the turn clicks into the password field is the user field\'s: logged as it is', async () => {
    const computer = createFakeComputer();
    computer.elements = login('user');
    fake.script((req: FakeRequest) => ({ text: `type ${WORD}`, toolCalls: [claude.type(WORD), claude.click(...at(req, 215))] }), { toolCalls: [finish(true, 'typed')] });
    const r = await run(computer);
    expect(turnText(r.events)).toContain(`type ${WORD}`);
  });

  it('a click into the user field, or a key after the password click (Tab moves the focus on), leaves the text as it is', async () => {
    const computer = createFakeComputer();
    computer.elements = login('user');
    fake.script(
      (req: FakeRequest) => ({ text: `type ${WORD}`, toolCalls: [claude.click(...at(req, 115)), claude.type(WORD), claude.click(...at(req, 215)), claude.key('Tab'), claude.type('later')] }),
      { toolCalls: [finish(true, 'typed')] },
    );
    const r = await run(computer);
    expect(turnText(r.events)).toContain(`type ${WORD}`);
    expect(turnText(r.events)).toContain('"later"');
  });

  it('the last turn\'s click into the password field counts for this turn\'s text', async () => {
    const computer = createFakeComputer();
    computer.elements = login('user');
    fake.script(
      (req: FakeRequest) => ({ toolCalls: [claude.click(...at(req, 215))] }),
      { text: `type ${WORD}`, toolCalls: [claude.type(WORD)] },
      { toolCalls: [finish(true, 'typed')] },
    );
    const r = await run(computer);
    expect(r.log).not.toContain(WORD);
  });
});
