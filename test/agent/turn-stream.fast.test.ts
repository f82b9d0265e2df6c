/**
 * The live text of a turn that may type a password (issue 28 follow-up): held until the
 * turn's calls are checked, then sent masked; any other turn streams at once. TurnStream
 * alone (its decision in the test's hands), then the runner with FakeComputer and the fake
 * model streaming in 3-character deltas, reading what onDelta got. The real desktop case
 * (Chromium's password field) is secret-typed-turn.desktop.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/main/config/index.js';
import { startRun } from '../../src/main/agent/runner.js';
import { TurnStream } from '../../src/main/agent/runner/turn-stream.js';
import { mayTypePassword } from '../../src/main/agent/runner/turn-secrets.js';
import type { RunContext, SeenObservation } from '../../src/main/agent/runner/context.js';
import { FRESH_INPUT } from '../../src/main/agent/supervision/input-memory.js';
import type { Grounding } from '../../src/shared/config.js';
import type { ActiveWindow } from '../../src/os-control/window-info.js';
import type { ElementNode, ElementWindow } from '../../src/shared/elements.js';
import { claude, finish, tempHome, testRunOptions, toImagePoint } from '../e2e/support.js';
import { createFakeComputer, type FakeComputer } from '../harness/fake-computer.js';
import { startFakeModel, type FakeModelServer, type FakeReply, type FakeRequest } from '../harness/fake-model/index.js';

const WORD = 'tulip7';
const SCREEN = { width: 1280, height: 800 };

/** A promise and its resolve/reject, for deciding a TurnStream when the test says so. */
function decision() {
  let resolve!: (hold: boolean) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<boolean>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = () => new Promise((r) => setImmediate(r));

function streamOf(decided: Promise<boolean>, secrets: string[] = []) {
  const out: string[] = [];
  const scrub = (text: string) => secrets.reduce((t, s) => t.split(s).join('[masked secret]'), text);
  return { out, stream: new TurnStream(scrub, (text) => out.push(text), decided) };
}

describe('TurnStream', () => {
  it('undecided, it sends nothing; decided live, what waited goes out and the rest streams at once', async () => {
    const d = decision();
    const { out, stream } = streamOf(d.promise);
    stream.push('I click ', 'text');
    expect(out).toEqual([]);
    d.resolve(false);
    await settle();
    expect(out).toEqual(['I click ']);
    stream.push('the box ', 'text');
    expect(out).toEqual(['I click ', 'the box ']);
    stream.push('now', 'text');
    stream.end();
    expect(out.join('')).toBe('I click the box now');
  });

  it('decided hold, nothing goes out before end(), then all of it through the scrubber as it is at end()', async () => {
    const secrets: string[] = [];
    const { out, stream } = streamOf(Promise.resolve(true), secrets);
    await settle();
    stream.push(`type ${WORD.slice(0, 3)}`, 'text');
    stream.push(`${WORD.slice(3)} now `, 'text');
    expect(out).toEqual([]);
    // The turn's check marks the word a secret before the stream ends.
    secrets.push(WORD);
    stream.end();
    expect(out.join('')).toBe('type [masked secret] now ');
  });

  it('a decision that fails holds (fails closed); a dropped turn sends nothing, even when decided live after', async () => {
    const failed = decision();
    const a = streamOf(failed.promise);
    a.stream.push('held ', 'text');
    failed.reject(new Error('no window'));
    await settle();
    expect(a.out).toEqual([]);
    a.stream.end();
    expect(a.out).toEqual(['held ']);

    const late = decision();
    const b = streamOf(late.promise);
    b.stream.push(`secret ${WORD} `, 'text');
    b.stream.drop();
    late.resolve(false);
    await settle();
    b.stream.push('more ', 'text');
    expect(b.out).toEqual([]);
  });
});

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

/**
 * The decision alone: the parts of a run it reads (input memory, grounding mode, the
 * focused window) and a step's grounding. The window is counted: a decision the tree or
 * the memory already made asks the OS nothing.
 */
function decide(o: { intoPassword?: boolean; grounding?: Grounding; window?: ActiveWindow | Error; seen?: SeenObservation['grounding'] }) {
  const asked: string[] = [];
  const ctx = {
    input: o.intoPassword ? { ...FRESH_INPUT, intoPassword: true as const } : FRESH_INPUT,
    grounding: o.grounding ?? 'elements',
    computer: {
      activeWindow: () => {
        asked.push('activeWindow');
        return o.window instanceof Error ? Promise.reject(o.window) : Promise.resolve(o.window);
      },
    },
  } as unknown as RunContext;
  const seen = (o.seen === undefined ? {} : { grounding: o.seen }) as SeenObservation;
  return { asked, hold: mayTypePassword(ctx, seen) };
}

const tree = (withPassword: boolean, as: 'state' | 'role' = 'state') => {
  const windows = login(withPassword);
  const pw = windows[0]!.root.children[1];
  // The role alone (no password state), or the state alone on a plain text role.
  if (pw && as === 'role') windows[0]!.root.children[1] = { ...pw, states: pw.states.filter((s) => s !== 'password') };
  if (pw && as === 'state') windows[0]!.root.children[1] = { ...pw, role: 'text' };
  return { tree: { kind: 'tree' as const, windows } } as unknown as SeenObservation['grounding'];
};
const PLAIN: ActiveWindow = { title: 'Notes', app: 'notes' };
const ASKS: ActiveWindow = { title: 'Unlock login keyring - enter password', app: 'keyring' };

describe('mayTypePassword', () => {
  it('a password field anywhere in the step tree holds, by its state or its role alone; the window is not asked', async () => {
    for (const as of ['state', 'role'] as const) {
      const d = decide({ seen: tree(true, as), window: PLAIN });
      expect(await d.hold, as).toBe(true);
      expect(d.asked, as).toEqual([]);
    }
  });

  it('the keyboard left in a password field by the last turn holds, whatever the tree now', async () => {
    const d = decide({ intoPassword: true, seen: tree(false), window: PLAIN });
    expect(await d.hold).toBe(true);
    expect(d.asked).toEqual([]);
  });

  it('a pixels step has no tree yet: held without asking; a pixels step whose tree was read goes by that tree and the window', async () => {
    const none = decide({ grounding: 'pixels', window: PLAIN });
    expect(await none.hold).toBe(true);
    expect(none.asked).toEqual([]);
    const read = decide({ grounding: 'pixels', seen: tree(false), window: PLAIN });
    expect(await read.hold).toBe(false);
    expect(read.asked).toEqual(['activeWindow']);
  });

  it('no password field: the window title decides; a window that cannot be asked holds (fails closed)', async () => {
    expect(await decide({ seen: tree(false), window: PLAIN }).hold).toBe(false);
    expect(await decide({ seen: tree(false), window: ASKS }).hold).toBe(true);
    expect(await decide({ seen: tree(false), window: undefined }).hold).toBe(false);
    expect(await decide({ seen: tree(false), window: new Error('no X server') }).hold).toBe(true);
    // An elements step whose tree could not be read (no tree, no list): the title alone, as maskTypedPasswords reads it.
    expect(await decide({ seen: {}, window: PLAIN }).hold).toBe(false);
    expect(await decide({ window: ASKS }).hold).toBe(true);
    expect(await decide({ window: PLAIN }).hold).toBe(false);
  });
});
