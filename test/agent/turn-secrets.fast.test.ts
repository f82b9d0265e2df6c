/**
 * What a model turn will type into a password field, masked before the turn is first
 * logged, and whether its live text is held (runner/turn-secrets.ts; issue 28). The two
 * decisions alone, on the parts of a run they read: the run log's markSecret (the words
 * it was told to mask), the input memory, the grounding mode, the focused window and a
 * step's tree with its real element list (grounding/element-list.ts, on a screenshot of
 * half the screen's size, so the model's pixels are mapped). Every OS read is counted.
 * The runs through the real runner are turn-stream.fast and type-check-reads.fast; the
 * real desktop case is secret-typed-turn.desktop. This file is the mutation list's fast
 * one (stryker.config.mjs).
 */
import { describe, expect, it } from 'vitest';
import { maskTypedPasswords, mayTypePassword } from '../../src/main/agent/runner/turn-secrets.js';
import type { RunContext, SeenObservation } from '../../src/main/agent/runner/context.js';
import { buildElementList } from '../../src/main/agent/grounding/element-list.js';
import { FRESH_INPUT, type InputMemory } from '../../src/main/agent/supervision/input-memory.js';
import type { AssistantItem, ModelCall } from '../../src/main/agent/transcript.js';
import type { Action } from '../../src/shared/actions.js';
import type { Grounding } from '../../src/shared/config.js';
import type { ActiveWindow } from '../../src/os-control/window-info.js';
import type { ElementNode, ElementTree, ElementTreeResult, ElementWindow } from '../../src/shared/elements.js';
import type { RunEvent } from '../../src/shared/events.js';
import { observationRecord } from '../sessions/fixture.js';

const WORD = 'tulip7';
const FRAME = 'application "login" > frame "Login"';
const USER = { x: 100, y: 100, width: 200, height: 30 };
const PASSWORD = { x: 100, y: 200, width: 200, height: 30 };

function field(name: string, role: 'text' | 'password text', bounds: ElementNode['bounds'], focused: boolean, as: 'state' | 'role' | 'both' = 'both'): ElementNode {
  const password = role === 'password text';
  const states: ElementNode['states'] = ['focusable', 'enabled', 'visible', 'editable', ...(password && as !== 'role' ? (['password'] as const) : []), ...(focused ? (['focused'] as const) : [])];
  return { path: `${FRAME} > ${role} ${JSON.stringify(name)}`, role: password && as === 'state' ? 'text' : role, name, states, actions: [], ...(bounds ? { bounds } : {}), children: [] };
}

/** A login window with its user field and (optionally) its password field, the focus where said. */
function login(focus: 'user' | 'password' | 'none', o: { withPassword?: boolean; as?: 'state' | 'role' | 'both' } = {}): ElementWindow {
  const fields = [field('User', 'text', USER, focus === 'user'), ...(o.withPassword === false ? [] : [field('Password', 'password text', PASSWORD, focus === 'password', o.as)])];
  return { app: 'login', pid: 4242, root: { path: FRAME, role: 'frame', name: 'Login', states: ['enabled', 'visible', 'active'], actions: [], bounds: { x: 0, y: 0, width: 1280, height: 800 }, children: fields } };
}

const treeOf = (...windows: ElementWindow[]): ElementTree => ({ kind: 'tree', source: 'atspi', scope: 'focused', windows, nodeCount: 3, truncated: false });

/** The screenshot the model saw: the whole 1280×800 screen at half size. */
const RECORD = observationRecord('obs-1', { width: 640, height: 400 });

/** A global point as the model's image pixel. */
const img = (p: { x: number; y: number }) => ({ x: p.x / 2, y: p.y / 2 });
const inside = (b: { x: number; y: number }) => img({ x: b.x + 20, y: b.y + 10 });

const PLAIN: ActiveWindow = { title: 'Notes', app: 'notes' };
const ASKS: ActiveWindow = { title: 'Unlock login keyring - enter password', app: 'keyring' };

interface Setup {
  memory?: InputMemory;
  grounding?: Grounding;
  window?: ActiveWindow | Error | undefined;
  /** The step's tree (its element list built from it), `{}` for a step whose read gave none, absent for a pixels step. */
  seen?: ElementTree | Record<string, never>;
  /** What a pixels step's gate read answers. */
  treeNow?: ElementTreeResult | Error;
}

/** The parts of a run the decisions read; what they mark, emit and ask is kept. */
function run(o: Setup) {
  const marked: string[] = [];
  const emitted: RunEvent[] = [];
  const asked: string[] = [];
  const ctx = {
    input: o.memory ?? FRESH_INPUT,
    grounding: o.grounding ?? 'elements',
    log: { markSecret: (text: string) => marked.push(text) },
    emit: (event: RunEvent) => emitted.push(event),
    computer: {
      activeWindow: () => {
        asked.push('activeWindow');
        const w = 'window' in o ? o.window : PLAIN;
        return w instanceof Error ? Promise.reject(w) : Promise.resolve(w);
      },
      elementTree: (options: unknown) => {
        asked.push(`elementTree ${JSON.stringify(options)}`);
        return o.treeNow instanceof Error ? Promise.reject(o.treeNow) : Promise.resolve(o.treeNow ?? { kind: 'none', source: 'atspi', reason: 'not-exposed', detail: 'none' });
      },
    },
  } as unknown as RunContext;
  const tree = o.seen && 'kind' in o.seen ? (o.seen as ElementTree) : undefined;
  const grounding = o.seen === undefined ? undefined : tree ? { tree, list: buildElementList(tree, RECORD) } : {};
  const seen = { record: RECORD, ...(grounding ? { grounding } : {}) } as SeenObservation;
  return { ctx, seen, marked, emitted, asked };
}

const call = (actions: Array<Action | string>, extra: Partial<ModelCall> = {}): ModelCall => ({
  callId: 'c1',
  name: 'computer',
  input: {},
  actions: actions.map((a) => (typeof a === 'string' ? { ok: false as const, error: a } : { ok: true as const, action: a })),
  ...extra,
});
const turn = (...calls: ModelCall[]): AssistantItem => ({ role: 'assistant', text: '', calls });
const click = (p: { x: number; y: number }): Action => ({ type: 'click', x: p.x, y: p.y, button: 'left' }) as Action;
const type = (text: string): Action => ({ type: 'type', text }) as Action;
const key = (keys: string): Action => ({ type: 'key', keys }) as Action;

async function masked(o: Setup, assistant: AssistantItem) {
  const r = run(o);
  await maskTypedPasswords(r.ctx, assistant, r.seen);
  return r;
}

/** The element list id of a field by name, in the step's list. */
function idOf(tree: ElementTree, name: string): number {
  const e = buildElementList(tree, RECORD).elements.find((x) => x.name === name);
  if (!e) throw new Error(`${name} is not in the list`);
  return e.id;
}

describe('maskTypedPasswords: typing', () => {
  it('a turn that types nothing marks nothing and asks the OS nothing', async () => {
    const r = await masked({ seen: treeOf(login('password')), grounding: 'pixels' }, turn(call([click(inside(PASSWORD)), key('Return')])));
    expect(r.marked).toEqual([]);
    expect(r.asked).toEqual([]);
  });

  it('into the focused password field (by its state): the whole text, the window not asked', async () => {
    const r = await masked({ seen: treeOf(login('password', { as: 'state' })), window: ASKS }, turn(call([type('two words')])));
    expect(r.marked).toEqual(['two words']);
    expect(r.asked).toEqual([]);
  });

  it('into a focused plain field of a plain window: nothing, the window asked once', async () => {
    const r = await masked({ seen: treeOf(login('user')), window: PLAIN }, turn(call([type(WORD), type('other')])));
    expect(r.marked).toEqual([]);
    expect(r.asked).toEqual(['activeWindow']);
  });

  it('into a window whose title says password: a bare word, not a sentence; no window at all marks nothing', async () => {
    expect((await masked({ seen: treeOf(login('user', { withPassword: false })), window: ASKS }, turn(call([type(WORD)])))).marked).toEqual([WORD]);
    expect((await masked({ seen: treeOf(login('user', { withPassword: false })), window: ASKS }, turn(call([type('my name is Ann')])))).marked).toEqual([]);
    expect((await masked({ seen: treeOf(login('user', { withPassword: false })), window: undefined }, turn(call([type(WORD)])))).marked).toEqual([]);
  });

  it('the keyboard left in a password field by the last turn: what this turn types first is masked', async () => {
    const memory = { ...FRESH_INPUT, intoPassword: true as const };
    expect((await masked({ memory, seen: treeOf(login('user')) }, turn(call([type(WORD)])))).marked).toEqual([WORD]);
    // Return moves on (the form is sent): the text after it is not.
    expect((await masked({ memory, seen: treeOf(login('user')) }, turn(call([type(WORD), key('Return'), type('hello')])))).marked).toEqual([WORD]);
  });
});

describe("maskTypedPasswords: the turn's own clicks, followed on the step's tree", () => {
  it('a click on the password field (image pixels at half size), then the word: masked; on the user field: not', async () => {
    expect((await masked({ seen: treeOf(login('user')) }, turn(call([click(inside(PASSWORD)), type(WORD)])))).marked).toEqual([WORD]);
    expect((await masked({ seen: treeOf(login('user')) }, turn(call([click(inside(USER)), type(WORD)])))).marked).toEqual([]);
    // The field's global point sent as if it were image pixels maps to (240, 420): off both fields, so the points are mapped.
    expect((await masked({ seen: treeOf(login('user')) }, turn(call([click({ x: PASSWORD.x + 20, y: PASSWORD.y + 10 }), type(WORD)])))).marked).toEqual([]);
  });

  it('typed before the click into the password field and after it: only the text after is masked', async () => {
    const r = await masked({ seen: treeOf(login('user')) }, turn(call([type('ann'), click(inside(PASSWORD)), type(WORD)])));
    expect(r.marked).toEqual([WORD]);
  });

  it('memory in a password field, then a click on the user field: the text after the click is plain', async () => {
    const memory = { ...FRESH_INPUT, intoPassword: true as const };
    expect((await masked({ memory, seen: treeOf(login('user')) }, turn(call([click(inside(USER)), type('ann')])))).marked).toEqual([]);
  });

  it('the actions of every call, in order: the click in one call and the typing in the next', async () => {
    const r = await masked({ seen: treeOf(login('user')) }, turn(call([click(inside(PASSWORD))]), call([type(WORD)], { callId: 'c2' })));
    expect(r.marked).toEqual([WORD]);
  });

  it('an entry that failed to parse is skipped, not read as an action', async () => {
    const r = await masked({ seen: treeOf(login('user')) }, turn(call(['bad coordinate', click(inside(PASSWORD)), 'bad text', type(WORD)])));
    expect(r.marked).toEqual([WORD]);
  });

  it('an element op that focuses the password field (its id in the list the model saw), then the word: masked', async () => {
    const tree = treeOf(login('user'));
    for (const op of ['focus', 'click'] as const) {
      const r = await masked({ seen: tree }, turn(call([{ type: 'element', op, id: idOf(tree, 'Password') } as Action, type(WORD)])));
      expect(r.marked, op).toEqual([WORD]);
    }
    const r = await masked({ seen: tree }, turn(call([{ type: 'element', op: 'focus', id: idOf(tree, 'User') } as Action, type(WORD)])));
    expect(r.marked).toEqual([]);
  });
});

describe('maskTypedPasswords: set_value', () => {
  it("set on a password field (the list's flag for its id): the value is masked, nothing asked; on a plain field: not", async () => {
    const tree = treeOf(login('user'));
    const r = await masked({ seen: tree }, turn(call([{ type: 'element', op: 'set_value', id: idOf(tree, 'Password'), value: WORD } as Action])));
    expect(r.marked).toEqual([WORD]);
    expect(r.asked).toEqual([]);
    expect((await masked({ seen: tree }, turn(call([{ type: 'element', op: 'set_value', id: idOf(tree, 'User'), value: 'ann' } as Action])))).marked).toEqual([]);
  });

  it('an empty value marks nothing; an id not in the list has no flag', async () => {
    const tree = treeOf(login('user'));
    expect((await masked({ seen: tree }, turn(call([{ type: 'element', op: 'set_value', id: idOf(tree, 'Password'), value: '' } as Action])))).marked).toEqual([]);
    expect((await masked({ seen: tree }, turn(call([{ type: 'element', op: 'set_value', id: 99, value: WORD } as Action])))).marked).toEqual([]);
  });

  it('a stray value on a click of the password field is never set: only what the turn then types is masked', async () => {
    // The schema lets any element op carry a value; only set_value uses it. Marking it would mask that word in every later event.
    const tree = treeOf(login('user'));
    const r = await masked({ seen: tree }, turn(call([{ type: 'element', op: 'click', id: idOf(tree, 'Password'), value: 'stray' } as Action, type(WORD)])));
    expect(r.marked).toEqual([WORD]);
  });

  it("a replay's element found again by its path carries its own flag (no list to resolve in)", async () => {
    const target = { path: `${FRAME} > password text "Password"`, role: 'password text', name: 'Password', password: true, x: 150, y: 215 };
    const r = await masked({ seen: {} }, turn(call([{ type: 'element', op: 'set_value', id: 1, value: WORD, target } as Action], { foundElements: true })));
    expect(r.marked).toEqual([WORD]);
  });
});

describe('maskTypedPasswords: an elements step without a tree', () => {
  it('the window exposes none (xterm): the step has no grounding at all; a bare word under a title asking for a password is masked, no tree read', async () => {
    const r = await masked({ grounding: 'elements', window: ASKS }, turn(call([click(inside(PASSWORD)), type(WORD)])));
    expect(r.marked).toEqual([WORD]);
    expect(r.asked).toEqual(['activeWindow']);
    expect((await masked({ grounding: 'elements', window: PLAIN }, turn(call([type(WORD)])))).marked).toEqual([]);
  });
});

describe('maskTypedPasswords: a pixels step (no tree yet)', () => {
  it("reads the gate's tree once, the focused scope, keeps it for the gate, and masks by it", async () => {
    const r = await masked({ grounding: 'pixels', treeNow: treeOf(login('password')), window: ASKS }, turn(call([type('two words')])));
    expect(r.marked).toEqual(['two words']);
    expect(r.asked).toEqual(['elementTree {"scope":"focused"}']);
    expect(r.seen.grounding?.tree?.windows[0]?.app).toBe('login');
  });

  it("a click on the password field of the gate's tree, then the word: masked by that tree", async () => {
    const r = await masked({ grounding: 'pixels', treeNow: treeOf(login('user')) }, turn(call([click(inside(PASSWORD)), type(WORD)])));
    expect(r.marked).toEqual([WORD]);
  });

  it('a gate read that fails: said, and the window title decides', async () => {
    const r = await masked({ grounding: 'pixels', treeNow: new Error('no bus'), window: ASKS }, turn(call([type(WORD)])));
    expect(r.marked).toEqual([WORD]);
    expect(r.emitted).toEqual([{ type: 'error', message: 'the gate could not read the accessibility tree: no bus', fatal: false }]);
  });
});

/** mayTypePassword's inputs: the memory, the grounding mode, the focused window and a step's grounding. */
function decide(o: { intoPassword?: boolean; grounding?: Grounding; window?: ActiveWindow | Error; seen?: ElementTree | Record<string, never> }) {
  const r = run({ memory: o.intoPassword ? { ...FRESH_INPUT, intoPassword: true } : FRESH_INPUT, ...(o.grounding ? { grounding: o.grounding } : {}), window: o.window, ...(o.seen ? { seen: o.seen } : {}) });
  return { asked: r.asked, hold: mayTypePassword(r.ctx, r.seen) };
}

describe('mayTypePassword', () => {
  it('a password field anywhere in the step tree holds, by its state or its role alone; the window is not asked', async () => {
    for (const as of ['state', 'role'] as const) {
      const d = decide({ seen: treeOf(login('user', { as })), window: PLAIN });
      expect(await d.hold, as).toBe(true);
      expect(d.asked, as).toEqual([]);
    }
    // In the second window of the read.
    const d = decide({ seen: treeOf(login('user', { withPassword: false }), login('none')), window: PLAIN });
    expect(await d.hold).toBe(true);
  });

  it('the keyboard left in a password field by the last turn holds, whatever the tree now', async () => {
    const d = decide({ intoPassword: true, seen: treeOf(login('user', { withPassword: false })), window: PLAIN });
    expect(await d.hold).toBe(true);
    expect(d.asked).toEqual([]);
  });

  it('a pixels step has no tree yet: held without asking; a pixels step whose tree was read goes by that tree and the window', async () => {
    const none = decide({ grounding: 'pixels', window: PLAIN });
    expect(await none.hold).toBe(true);
    expect(none.asked).toEqual([]);
    const read = decide({ grounding: 'pixels', seen: treeOf(login('user', { withPassword: false })), window: PLAIN });
    expect(await read.hold).toBe(false);
    expect(read.asked).toEqual(['activeWindow']);
  });

  it('no password field: the window title decides; a window that cannot be asked holds (fails closed)', async () => {
    const plainTree = treeOf(login('user', { withPassword: false }));
    expect(await decide({ seen: plainTree, window: PLAIN }).hold).toBe(false);
    expect(await decide({ seen: plainTree, window: ASKS }).hold).toBe(true);
    expect(await decide({ seen: plainTree, window: undefined }).hold).toBe(false);
    expect(await decide({ seen: plainTree, window: new Error('no X server') }).hold).toBe(true);
    // An elements step whose tree could not be read (no tree, no list): the title alone, as maskTypedPasswords reads it.
    expect(await decide({ seen: {}, window: PLAIN }).hold).toBe(false);
    expect(await decide({ window: ASKS }).hold).toBe(true);
    expect(await decide({ window: PLAIN }).hold).toBe(false);
  });
});
