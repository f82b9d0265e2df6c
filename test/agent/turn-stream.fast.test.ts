/**
 * The live text of a turn that may type a password (issue 28 follow-up), through the
 * runner with FakeComputer and the fake model streaming in 3-character deltas, reading
 * what onDelta got. TurnStream alone is turn-stream-unit.fast, the decision alone
 * (mayTypePassword) turn-secrets.fast. The real desktop case (Chromium's password field)
 * is secret-typed-turn.desktop.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/main/config/index.js';
import { startRun } from '../../src/main/agent/runner.js';
import type { ElementNode, ElementWindow } from '../../src/shared/elements.js';
import { claude, finish, tempHome, testRunOptions, toImagePoint } from '../e2e/support.js';
import { createFakeComputer, type FakeComputer } from '../harness/fake-computer.js';
import { startFakeModel, type FakeModelServer, type FakeReply, type FakeRequest } from '../harness/fake-model/index.js';

const WORD = 'tulip7';
const SCREEN = { width: 1280, height: 800 };

const FRAME = 'application "login" > frame "Login"';

function field(name: string, role: 'text' | 'password text', y: number, focused: boolean): ElementNode {
  const states: ElementNode['states'] = ['focusable', 'enabled', 'visible', 'editable', ...(role === 'password text' ? (['password'] as const) : []), ...(focused ? (['focused'] as const) : [])];
  return { path: `${FRAME} > ${role} ${JSON.stringify(name)}`, role, name, states, actions: [], bounds: { x: 100, y, width: 200, height: 30 }, children: [] };
}

/** A login window, its focus in the user field; with or without its password field. */
function login(withPassword: boolean): ElementWindow[] {
  const fields = [field('User', 'text', 100, true), ...(withPassword ? [field('Password', 'password text', 200, false)] : [])];
  return [{ app: 'login', pid: 4242, root: { path: FRAME, role: 'frame', name: 'Login', states: ['enabled', 'visible', 'active'], actions: [], bounds: { x: 0, y: 0, width: 1280, height: 800 }, children: fields } }];
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

/** One run: the first turn as given, then done; what onDelta got, joined. */
async function liveText(computer: FakeComputer, first: FakeReply | ((req: FakeRequest) => FakeReply)): Promise<string> {
  fake.script(first, { text: 'Done.', toolCalls: [finish(true, 'typed')] });
  const deltas: string[] = [];
  const handle = await startRun(
    testRunOptions({
      task: 'log in',
      profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl },
      computer,
      home: home.home,
      config: { ...defaultConfig(), takeover: 'ignore' },
      onDelta: (text) => deltas.push(text),
    }),
  );
  const result = await handle.done;
  expect(result.status, result.summary).toBe('done');
  return deltas.join('');
}

describe("a run's live text", () => {
  it('a click into the password field, then the word: the live text has it masked (the old stream sent it)', async () => {
    const computer = createFakeComputer();
    computer.elements = login(true);
    const said = await liveText(computer, (req) => ({
      text: `Clicking the password box, typing ${WORD}.`,
      toolCalls: [claude.click(...toImagePoint(req, SCREEN, { x: 200, y: 215 })), claude.type(WORD)],
      chunkSize: 3,
    }));
    expect(said).toBe('Clicking the password box, typing [masked secret].Done.');
  });

  it('a bare word typed where the window title asks for a password, no tree: masked live as in the log', async () => {
    const computer = createFakeComputer();
    computer.elements = undefined;
    computer.window = { title: 'Unlock login keyring - enter password', app: 'keyring' };
    const said = await liveText(computer, { text: `Entering ${WORD} now.`, toolCalls: [claude.type(WORD)], chunkSize: 3 });
    expect(said).toBe('Entering [masked secret] now.Done.');
  });

  it('no password field and a plain window: the text streams as said (nothing masked, nothing lost)', async () => {
    const computer = createFakeComputer();
    computer.elements = login(false);
    computer.window = { title: 'Notes', app: 'notes' };
    const said = await liveText(computer, { text: `Typing ${WORD} into the user box.`, toolCalls: [claude.type(WORD)], chunkSize: 3 });
    expect(said).toBe(`Typing ${WORD} into the user box.Done.`);
  });
});
