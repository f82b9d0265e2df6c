/**
 * Where typed text goes, as far as a password is concerned (agent/typing-into.ts; issue 28):
 * the decision alone, on tree reads shaped as the AT-SPI reader returns them (a login
 * window with a user and a password field, a second window, the reader's no-tree answers).
 * Every read is counted, so a second read the decision should not make is seen. The real
 * bus cases (a SIGSTOPped app, a click point on gtk3-demo's password entry) are
 * no-answer.desktop; this file is the mutation list's fast one (stryker.config.mjs).
 */
import { describe, expect, it } from 'vitest';
import { typingInto, type TypingReads } from '../../src/main/agent/typing-into.js';
import type { ActiveWindow } from '../../src/os-control/window-info.js';
import type { ElementNode, ElementTreeResult, ElementWindow, NoTreeReason } from '../../src/shared/elements.js';

const FRAME = 'application "login" > frame "Login"';
const USER = { x: 100, y: 100, width: 200, height: 30 };
const PASSWORD = { x: 100, y: 200, width: 200, height: 30 };

function field(name: string, as: 'plain' | 'password-state' | 'password-role', bounds: ElementNode['bounds'], focused: boolean): ElementNode {
  const role = as === 'password-role' ? 'password text' : 'text';
  const states: ElementNode['states'] = ['focusable', 'enabled', 'visible', 'editable', ...(as === 'password-state' ? (['password'] as const) : []), ...(focused ? (['focused'] as const) : [])];
  return { path: `${FRAME} > ${role} ${JSON.stringify(name)}`, role, name, states, actions: [], ...(bounds ? { bounds } : {}), children: [] };
}

/** A login window: a panel holding the user and password fields (nested: the walk must go below the root). */
function login(focus: 'user' | 'password' | 'none', as: 'password-state' | 'password-role' = 'password-state', userHasBounds = true): ElementWindow {
  const panel: ElementNode = {
    path: `${FRAME} > panel ""`,
    role: 'panel',
    name: '',
    states: ['enabled', 'visible'],
    actions: [],
    bounds: { x: 0, y: 50, width: 1280, height: 400 },
    children: [field('User', 'plain', userHasBounds ? USER : undefined, focus === 'user'), field('Password', as, PASSWORD, focus === 'password')],
  };
  return { app: 'login', pid: 4242, root: { path: FRAME, role: 'frame', name: 'Login', states: ['enabled', 'visible', 'active'], actions: [], bounds: { x: 0, y: 0, width: 1280, height: 800 }, children: [panel] } };
}

/** A second top-level window whose search box has the focus. */
const SEARCH: ElementWindow = {
  app: 'notes',
  pid: 77,
  root: {
    path: 'application "notes" > frame "Notes"',
    role: 'frame',
    name: 'Notes',
    states: ['enabled', 'visible'],
    actions: [],
    bounds: { x: 600, y: 0, width: 600, height: 600 },
    children: [{ path: 'application "notes" > frame "Notes" > text "Search"', role: 'text', name: 'Search', states: ['enabled', 'visible', 'editable', 'focused'], actions: [], bounds: { x: 620, y: 20, width: 300, height: 30 }, children: [] }],
  },
};

const treeOf = (...windows: ElementWindow[]): ElementTreeResult => ({ kind: 'tree', source: 'atspi', scope: 'focused', windows, nodeCount: 10, truncated: false });
const none = (reason: NoTreeReason, detail: string): ElementTreeResult => ({ kind: 'none', source: 'atspi', reason, detail });

const LOGIN_WINDOW: ActiveWindow = { title: 'Login', app: 'login' };

type Read = ElementTreeResult | Error | string;

/** Reads answering in turn from `first` and (when given) `fresh`; each call is counted. */
function reads(first: Read, o: { fresh?: Read; window?: ActiveWindow | Error } = {}) {
  const calls = { focused: 0, fresh: 0, window: 0 };
  const answer = (r: Read) => (r instanceof Error || typeof r === 'string' ? Promise.reject(r) : Promise.resolve(r));
  const read: TypingReads = {
    focusedTree: () => {
      calls.focused++;
      return answer(first);
    },
    activeWindow: () => {
      calls.window++;
      const w = 'window' in o ? o.window : LOGIN_WINDOW;
      return w instanceof Error ? Promise.reject(w) : Promise.resolve(w);
    },
    ...(o.fresh === undefined
      ? {}
      : {
          freshTree: () => {
            calls.fresh++;
            return answer(o.fresh!);
          },
        }),
  };
  return { read, calls };
}

async function decide(r: ReturnType<typeof reads>, clickedAt?: { x: number; y: number }) {
  const warned: string[] = [];
  const into = await typingInto(r.read, (m) => warned.push(m), clickedAt);
  return { into, warned };
}

describe('typingInto: the focused field', () => {
  it('a focused password field (by its state, or by its role alone) takes the text; its bounds are the field to hide; one read each', async () => {
    for (const as of ['password-state', 'password-role'] as const) {
      const r = reads(treeOf(login('password', as)), { fresh: treeOf(login('user')) });
      const { into, warned } = await decide(r);
      expect(into, as).toEqual({ passwordField: true, fieldBounds: PASSWORD, windowTitle: 'Login' });
      expect(warned, as).toEqual([]);
      // A sure read is not read again.
      expect(r.calls, as).toEqual({ focused: 1, fresh: 0, window: 1 });
    }
  });

  it('a focused plain field does not, though a password field is in the same window; its bounds are still the field', async () => {
    const { into, warned } = await decide(reads(treeOf(login('user'))));
    expect(into).toEqual({ passwordField: false, fieldBounds: USER, windowTitle: 'Login' });
    expect(warned).toEqual([]);
  });

  it('the focus in another window of the read (the second of two) is found; a focused field without bounds gives none', async () => {
    expect((await decide(reads(treeOf(login('none'), SEARCH)))).into).toEqual({ passwordField: false, fieldBounds: SEARCH.root.children[0]!.bounds, windowTitle: 'Login' });
    const pwWindow = login('none');
    const second = { ...SEARCH, root: { ...SEARCH.root, children: [{ ...field('PIN', 'password-state', undefined, true) }] } };
    expect((await decide(reads(treeOf(pwWindow, second)))).into).toEqual({ passwordField: true, fieldBounds: undefined, windowTitle: 'Login' });
  });

  it('nothing focused and no click: not a password field, no bounds', async () => {
    expect((await decide(reads(treeOf(login('none'))))).into).toEqual({ passwordField: false, fieldBounds: undefined, windowTitle: 'Login' });
  });
});

describe('typingInto: the click the text follows', () => {
  const inPassword = { x: PASSWORD.x + 10, y: PASSWORD.y + 10 };

  it('a click on the password field while the plain field still has the focus: the text is a password, the clicked field is hidden', async () => {
    for (const as of ['password-state', 'password-role'] as const) {
      expect((await decide(reads(treeOf(login('user', as))), inPassword)).into, as).toEqual({ passwordField: true, fieldBounds: PASSWORD, windowTitle: 'Login' });
    }
    // Nothing focused yet: the clicked field all the same.
    expect((await decide(reads(treeOf(login('none'))), inPassword)).into).toEqual({ passwordField: true, fieldBounds: PASSWORD, windowTitle: 'Login' });
  });

  it("the field's edges: its top-left point is in it, its right and bottom edges are not", async () => {
    const at = async (x: number, y: number) => (await decide(reads(treeOf(login('user'))), { x, y })).into.passwordField;
    expect(await at(PASSWORD.x, PASSWORD.y)).toBe(true);
    expect(await at(PASSWORD.x + PASSWORD.width - 1, PASSWORD.y + PASSWORD.height - 1)).toBe(true);
    expect(await at(PASSWORD.x + PASSWORD.width, PASSWORD.y + 5)).toBe(false);
    expect(await at(PASSWORD.x + 5, PASSWORD.y + PASSWORD.height)).toBe(false);
    expect(await at(PASSWORD.x - 1, PASSWORD.y + 5)).toBe(false);
  });

  it('a click on the plain field, or on the window beside both fields, leaves it plain (the frame and panel contain the point too)', async () => {
    expect((await decide(reads(treeOf(login('user'))), { x: USER.x + 10, y: USER.y + 10 })).into).toEqual({ passwordField: false, fieldBounds: USER, windowTitle: 'Login' });
    expect((await decide(reads(treeOf(login('none'))), { x: 900, y: 700 })).into).toEqual({ passwordField: false, fieldBounds: undefined, windowTitle: 'Login' });
  });

  it('a focused password field and a click on another password field: the focused one is the field to hide', async () => {
    const w = login('password');
    // A second password field (the confirmation) under the click.
    const confirm = field('Confirm', 'password-state', { x: 100, y: 300, width: 200, height: 30 }, false);
    w.root.children[0]!.children.push(confirm);
    expect((await decide(reads(treeOf(w)), { x: 150, y: 310 })).into).toEqual({ passwordField: true, fieldBounds: PASSWORD, windowTitle: 'Login' });
  });

  it('a click on a password field that has no bounds matches nothing; a focused plain field without bounds gives the clicked field', async () => {
    const w = login('user', 'password-state', false);
    w.root.children[0]!.children[1] = field('Password', 'password-state', undefined, false);
    expect((await decide(reads(treeOf(w)), inPassword)).into).toEqual({ passwordField: false, fieldBounds: undefined, windowTitle: 'Login' });
    expect((await decide(reads(treeOf(login('user', 'password-state', false))), inPassword)).into).toEqual({ passwordField: true, fieldBounds: PASSWORD, windowTitle: 'Login' });
  });
});

describe('typingInto: reads that say nothing sure fail closed', () => {
  it('"no tree" from an app that exposes none (xterm) is sure: plain, no warning, no second read; the title is given', async () => {
    for (const reason of ['not-exposed', 'no-window', 'no-bus', 'unsupported'] as const) {
      const r = reads(none(reason, 'xterm exposes no accessibility tree'), { fresh: treeOf(login('password')), window: { title: 'xterm', app: 'XTerm' } });
      const { into, warned } = await decide(r, { x: 150, y: 210 });
      expect(into, reason).toEqual({ passwordField: false, fieldBounds: undefined, windowTitle: 'xterm' });
      expect(warned, reason).toEqual([]);
      expect(r.calls.fresh, reason).toBe(0);
    }
  });

  it('an app that did not answer, read afresh and answering then: the fresh read decides, nothing is said', async () => {
    const plain = reads(none('no-answer', 'login (pid 4242) did not answer within 2 s'), { fresh: treeOf(login('user')) });
    expect(await decide(plain)).toEqual({ into: { passwordField: false, fieldBounds: USER, windowTitle: 'Login' }, warned: [] });
    expect(plain.calls).toEqual({ focused: 1, fresh: 1, window: 1 });
    const pw = reads(none('no-answer', 'login (pid 4242) did not answer within 2 s'), { fresh: treeOf(login('password')) });
    expect((await decide(pw)).into).toEqual({ passwordField: true, fieldBounds: PASSWORD, windowTitle: 'Login' });
  });

  it('no answer twice: masked as a password, and the warning says why in the reader\'s words', async () => {
    const r = reads(none('no-answer', 'first: login did not answer'), { fresh: none('no-answer', 'again: login did not answer') });
    expect(await decide(r)).toEqual({
      into: { passwordField: true, fieldBounds: undefined, windowTitle: 'Login' },
      warned: ['could not tell whether the text goes into a password field (again: login did not answer): it is masked as a secret to be safe'],
    });
    expect(r.calls).toEqual({ focused: 1, fresh: 1, window: 1 });
  });

  it('no answer and no fresh read to try (the runner without one): masked at once', async () => {
    const r = reads(none('no-answer', 'login did not answer'));
    expect(await decide(r)).toEqual({
      into: { passwordField: true, fieldBounds: undefined, windowTitle: 'Login' },
      warned: ['could not tell whether the text goes into a password field (login did not answer): it is masked as a secret to be safe'],
    });
  });

  it('a read that throws is tried afresh; thrown twice (an Error, then a bare string) it is masked and its message said', async () => {
    const recovered = reads(new Error('bus reset'), { fresh: treeOf(login('user')) });
    expect(await decide(recovered)).toEqual({ into: { passwordField: false, fieldBounds: USER, windowTitle: 'Login' }, warned: [] });
    const failed = reads(new Error('bus reset'), { fresh: new Error('AT-SPI registry gone') });
    expect((await decide(failed)).warned).toEqual(['could not tell whether the text goes into a password field (AT-SPI registry gone): it is masked as a secret to be safe']);
    const bare = reads('bus reset', { fresh: 'socket closed' });
    expect(await decide(bare)).toEqual({
      into: { passwordField: true, fieldBounds: undefined, windowTitle: 'Login' },
      warned: ['could not tell whether the text goes into a password field (socket closed): it is masked as a secret to be safe'],
    });
  });
});

describe('typingInto: the active window', () => {
  it('a window that cannot be read: no title, said through warn (an Error or a bare value); the tree still decides', async () => {
    const plain = await decide(reads(treeOf(login('user')), { window: new Error('no X server') }));
    expect(plain).toEqual({ into: { passwordField: false, fieldBounds: USER, windowTitle: undefined }, warned: ['could not read the active window to tell a password field: no X server'] });
    const r = reads(treeOf(login('password')));
    r.read.activeWindow = () => Promise.reject(42);
    expect(await decide(r)).toEqual({ into: { passwordField: true, fieldBounds: PASSWORD, windowTitle: undefined }, warned: ['could not read the active window to tell a password field: 42'] });
  });

  it('no active window at all: no title, nothing said', async () => {
    expect(await decide(reads(treeOf(login('user')), { window: undefined }))).toEqual({ into: { passwordField: false, fieldBounds: USER, windowTitle: undefined }, warned: [] });
  });

  it('neither the tree nor the window can be read (a desktop going away): still masked, both said, nothing thrown', async () => {
    const gone = await decide(reads(new Error('X server gone'), { fresh: new Error('X server gone'), window: new Error('X server gone') }));
    expect(gone.into).toEqual({ passwordField: true, fieldBounds: undefined, windowTitle: undefined });
    expect(gone.warned).toEqual(['could not read the active window to tell a password field: X server gone', 'could not tell whether the text goes into a password field (X server gone): it is masked as a secret to be safe']);
    const noWindow = await decide(reads(none('no-answer', 'login did not answer'), { window: undefined }));
    expect(noWindow.into).toEqual({ passwordField: true, fieldBounds: undefined, windowTitle: undefined });
  });
});
