/**
 * Every action kind, performed by the real Computer (nut.js on a private Xvfb), as the
 * Chromium probe received it — and the X server's own view that nothing stays held.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Action } from '../../src/shared/actions.js';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { DOM_BUTTON, startProbe, type Probe, type ProbeEvent } from '../harness/probe/probe.js';
import { heldState, pointerPosition } from '../harness/native-apps.js';
import { checked } from '../harness/checked.js';
import { comboToString, normaliseCombos } from '../../src/main/agent/supervision/key-combo.js';

let xvfb: Xvfb;
let probe: Probe;
let computer: DesktopComputer;
const never = new AbortController().signal;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  // nut.js binds to the display of the process when first used.
  process.env.DISPLAY = xvfb.display;
  probe = await startProbe(xvfb, { x: 0, y: 0, width: 1100, height: 760 });
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = createComputer();
  await computer.warmUp();
});

afterAll(async () => {
  await probe?.close();
  // The X server itself goes with the process (exit hook + watchdog): libnut keeps its
  // X connection open, and Xlib ends the process if the server dies under it.
});

beforeEach(async () => {
  await probe.reset();
  probe.clear();
});

const perform = (a: Action) => computer.perform(checked(a), never);
const click = (x: number, y: number, extra: Partial<Extract<Action, { type: 'click' }>> = {}): Action => ({
  type: 'click',
  x,
  y,
  button: 'left',
  clicks: 1,
  modifiers: [],
  ...extra,
});

function padPoint(dx: number, dy: number) {
  const pad = probe.padRect();
  return { x: Math.round(pad.x + dx), y: Math.round(pad.y + dy) };
}

function numLock(): string {
  const out = spawnSync('xset', ['q'], { env: xvfb.env, encoding: 'utf8' }).stdout;
  return /Num Lock:\s*(\w+)/.exec(out)?.[1] ?? '?';
}

function expectNothingHeld() {
  expect(heldState(xvfb)).toEqual({ keys: [], keycodes: [], buttons: [] });
  expect(computer.held()).toEqual({ keys: [], buttons: [] });
}

describe('mouse', () => {
  for (const button of ['left', 'right', 'middle', 'back', 'forward'] as const) {
    it(`clicks the ${button} button at the exact pixel`, async () => {
      const p = padPoint(101 + DOM_BUTTON[button] * 37, 77);
      const since = probe.nextSeq();
      await perform(click(p.x, p.y, { button }));
      const { down } = await probe.expectClickAt(p.x, p.y, { button, tolerance: 0, sinceSeq: since });
      expect(down.screenX).toBe(p.x);
      expect(down.screenY).toBe(p.y);
      expectNothingHeld();
    });
  }

  it('double and triple clicks', async () => {
    const p = padPoint(300, 120);
    let since = probe.nextSeq();
    await perform(click(p.x, p.y, { clicks: 2 }));
    await probe.waitFor((e) => e.type === 'dblclick', { sinceSeq: since });
    since = probe.nextSeq();
    // Far from the last click so the browser does not count it into the same series.
    const q = padPoint(500, 220);
    await perform(click(q.x, q.y, { clicks: 3 }));
    const third = await probe.waitFor((e) => e.type === 'click' && e.detail === 3, { sinceSeq: since });
    expect(probe.screenPos(third)).toEqual(q);
  });

  it('clicks with held modifiers and releases them', async () => {
    const p = padPoint(200, 200);
    const since = probe.nextSeq();
    await perform(click(p.x, p.y, { modifiers: ['ctrl', 'shift'] }));
    const { down } = await probe.expectClickAt(p.x, p.y, { sinceSeq: since });
    expect([down.ctrl, down.shift, down.alt]).toEqual([true, true, false]);
    expectNothingHeld();
  });

  it('moves the pointer', async () => {
    const p = padPoint(420, 150);
    const since = probe.nextSeq();
    await perform({ type: 'move', x: p.x, y: p.y });
    const mv = await probe.waitFor((e) => e.type === 'pointermove' && probe.screenPos(e).x === p.x && probe.screenPos(e).y === p.y, { sinceSeq: since });
    expect(mv.buttons).toBe(0);
    expect(pointerPosition(xvfb)).toEqual(p);
    expect(await computer.cursorPosition()).toEqual(p);
    expect((await perform({ type: 'cursor_position' })).output).toBe(`X=${p.x},Y=${p.y}`);
  });

  it('presses and releases a button separately, at two places', async () => {
    const a = padPoint(100, 300);
    const b = padPoint(180, 330);
    const since = probe.nextSeq();
    await perform({ type: 'mouse_down', button: 'left', x: a.x, y: a.y });
    expect(heldState(xvfb).buttons).toEqual([1]);
    await perform({ type: 'mouse_up', button: 'left', x: b.x, y: b.y });
    const down = await probe.waitFor((e) => e.type === 'pointerdown', { sinceSeq: since });
    const up = await probe.waitFor((e) => e.type === 'pointerup', { sinceSeq: since });
    expect(probe.screenPos(down)).toEqual(a);
    expect(probe.screenPos(up)).toEqual(b);
    expectNothingHeld();
  });

  it('drags along a path: start, waypoint, end, button held in between', async () => {
    const path = [padPoint(100, 100), padPoint(300, 100), padPoint(300, 260)];
    const since = probe.nextSeq();
    await perform({ type: 'drag', path, button: 'left', modifiers: [] });
    const down = await probe.waitFor((e) => e.type === 'pointerdown', { sinceSeq: since });
    const up = await probe.waitFor((e) => e.type === 'pointerup', { sinceSeq: since });
    expect(probe.screenPos(down)).toEqual(path[0]);
    expect(probe.screenPos(up)).toEqual(path[2]);
    const moves = probe.events().filter((e) => e.seq > down.seq && e.seq < up.seq && e.type === 'pointermove');
    expect(moves.length).toBeGreaterThan(5);
    expect(moves.every((e) => e.buttons === 1)).toBe(true);
    // The path went through the waypoint (the corner).
    expect(moves.some((e) => probe.screenPos(e).x === path[1]!.x && probe.screenPos(e).y === path[1]!.y)).toBe(true);
    expectNothingHeld();
  });

  it('scrolls in all four directions by the asked amount, with modifiers', async () => {
    const p = padPoint(250, 250);
    // Chromium may merge queued wheel notches into one event, so amounts are compared as summed deltas.
    // The end marker must travel the same queue as the notches: Chromium's browser process
    // holds each wheel event until the page acknowledges the previous one, while key events
    // go straight through, so a key marker (F9, as before) overtook wheels still queued
    // under load (2 of 3 busy runs read 120 where 360 was sent). A Shift+wheel marker queues
    // behind every notch, and its modifier keeps Chromium from merging it into them (Alt
    // cannot be the marker: openbox takes Alt+wheel for itself).
    const wheel = async (direction: 'up' | 'down' | 'left' | 'right', amount: number, modifiers: string[] = []) => {
      const since = probe.nextSeq();
      await perform({ type: 'scroll', x: p.x, y: p.y, direction, amount, modifiers });
      await perform({ type: 'scroll', x: p.x, y: p.y, direction: 'down', amount: 1, modifiers: ['shift'] });
      await probe.waitFor((e) => e.type === 'wheel' && e.shift === true, { sinceSeq: since });
      const events = probe.events().filter((e) => e.seq >= since && e.type === 'wheel' && e.shift !== true);
      return {
        events,
        dx: events.reduce((s, e) => s + e.deltaX!, 0),
        dy: events.reduce((s, e) => s + e.deltaY!, 0),
      };
    };
    const one = await wheel('down', 1);
    const notch = one.dy;
    expect(notch).toBeGreaterThan(0);
    expect(one.dx).toBe(0);
    expect(probe.screenPos(one.events[0]!)).toEqual(p);
    expect(await wheel('down', 3)).toMatchObject({ dx: 0, dy: 3 * notch });
    expect(await wheel('up', 2)).toMatchObject({ dx: 0, dy: -2 * notch });
    expect(await wheel('right', 4)).toMatchObject({ dx: 4 * notch, dy: 0 });
    expect(await wheel('left', 1)).toMatchObject({ dx: -notch, dy: 0 });
    const ctrl = await wheel('down', 2, ['ctrl']);
    expect(ctrl).toMatchObject({ dx: 0, dy: 2 * notch });
    expect(ctrl.events.every((e) => e.ctrl === true)).toBe(true);
    expectNothingHeld();
  });
});

describe('keys', () => {
  // [what the model writes, DOM key, DOM code]
  const NAMED: [string, string, string][] = [
    ['Return', 'Enter', 'Enter'],
    ['ENTER', 'Enter', 'Enter'],
    ['KP_Enter', 'Enter', 'NumpadEnter'],
    ['Escape', 'Escape', 'Escape'],
    ['BackSpace', 'Backspace', 'Backspace'],
    ['Delete', 'Delete', 'Delete'],
    ['Home', 'Home', 'Home'],
    ['End', 'End', 'End'],
    ['Page_Up', 'PageUp', 'PageUp'],
    ['PAGEDOWN', 'PageDown', 'PageDown'],
    ['ARROWLEFT', 'ArrowLeft', 'ArrowLeft'],
    ['Right', 'ArrowRight', 'ArrowRight'],
    ['Up', 'ArrowUp', 'ArrowUp'],
    ['down', 'ArrowDown', 'ArrowDown'],
    ['Insert', 'Insert', 'Insert'],
    ['F2', 'F2', 'F2'],
    ['space', ' ', 'Space'],
    ['a', 'a', 'KeyA'],
    ['7', '7', 'Digit7'],
    ['minus', '-', 'Minus'],
    ['KP_0', '0', 'Numpad0'],
    ['KP_Add', '+', 'NumpadAdd'],
    ['shift', 'Shift', 'ShiftLeft'],
    ['Shift_R', 'Shift', 'ShiftRight'],
    ['ctrl', 'Control', 'ControlLeft'],
    ['Control_R', 'Control', 'ControlRight'],
    ['alt', 'Alt', 'AltLeft'],
    ['super', 'Meta', 'MetaLeft'],
  ];
  for (const [name, key, code] of NAMED) {
    it(`presses ${name} → key ${JSON.stringify(key)}, code ${code}`, async () => {
      const since = probe.nextSeq();
      await perform({ type: 'key', keys: name, repeat: 1 });
      // Keypad keys come with a NumLock press around them (xdotool sets the lock they need).
      const down = await probe.waitFor((e) => e.type === 'keydown' && e.code !== 'NumLock', { sinceSeq: since });
      const up = await probe.waitFor((e) => e.type === 'keyup' && e.code !== 'NumLock', { sinceSeq: since });
      expect([down.key, down.code]).toEqual([key, code]);
      expect(up.code).toBe(code);
      expectNothingHeld();
      expect(numLock()).toBe('off');
    });
  }

  it('presses a combo with modifiers in order and releases them in reverse', async () => {
    const since = probe.nextSeq();
    await perform({ type: 'key', keys: 'ctrl+shift+Home', repeat: 1 });
    await probe.waitFor((e) => e.type === 'keyup' && e.code === 'ControlLeft', { sinceSeq: since });
    const keys = probe.events().filter((e) => e.seq >= since && (e.type === 'keydown' || e.type === 'keyup'));
    expect(keys.map((e) => `${e.type}:${e.code}`)).toEqual([
      'keydown:ControlLeft',
      'keydown:ShiftLeft',
      'keydown:Home',
      'keyup:Home',
      'keyup:ShiftLeft',
      'keyup:ControlLeft',
    ]);
    const home = keys.find((e) => e.type === 'keydown' && e.code === 'Home') as ProbeEvent;
    expect([home.ctrl, home.shift]).toEqual([true, true]);
    expectNothingHeld();
  });

  it.each([
    ['ctrl+exclam', 'Digit1'],
    ['ctrl+plus', 'Equal'],
    ['ctrl+at', 'Digit2'],
  ])('presses %s as the app sees it, with Shift — the chord the rules judge', async (keys, code) => {
    const since = probe.nextSeq();
    await perform({ type: 'key', keys, repeat: 1 });
    await probe.waitFor((e) => e.type === 'keyup' && e.code === 'ControlLeft', { sinceSeq: since });
    const down = probe.events().find((e) => e.seq >= since && e.type === 'keydown' && e.code === code) as ProbeEvent;
    expect([down.ctrl, down.shift, down.alt]).toEqual([true, true, false]);
    // The rules read the same chord: ctrl+shift and the key that was pressed.
    expect(normaliseCombos(keys).map(comboToString)).toEqual([`ctrl+shift+${code === 'Equal' ? 'equal' : code.slice(-1)}`]);
    expectNothingHeld();
  });

  it('repeats a key and runs xdotool-style sequences', async () => {
    await probe.focusField();
    await perform({ type: 'type', text: 'abcd' });
    await probe.waitForText('abcd');
    await perform({ type: 'key', keys: 'BackSpace', repeat: 3 });
    await probe.waitForText('a');
    await perform({ type: 'key', keys: 'ctrl+a BackSpace', repeat: 1 });
    await probe.waitForText('');
    await perform({ type: 'key', keys: 'shift x', repeat: 1 }); // UI-TARS chord
    await probe.waitForText('X');
  });

  it('holds a key for a duration', async () => {
    const since = probe.nextSeq();
    const holding = perform({ type: 'hold_key', keys: 'shift', durationMs: 300 });
    await probe.waitFor((e) => e.type === 'keydown' && e.code === 'ShiftLeft', { sinceSeq: since });
    expect(heldState(xvfb).keys).toContain('Shift_L');
    await holding;
    const down = probe.events().find((e) => e.seq >= since && e.type === 'keydown')!;
    const up = await probe.waitFor((e) => e.type === 'keyup' && e.code === 'ShiftLeft', { sinceSeq: since });
    expect(up.t - down.t).toBeGreaterThanOrEqual(250);
    expectNothingHeld();
  });

  it('holds a keypad key and leaves NumLock as it was', async () => {
    const since = probe.nextSeq();
    await perform({ type: 'hold_key', keys: 'KP_5', durationMs: 100 });
    const down = await probe.waitFor((e) => e.type === 'keydown' && e.code === 'Numpad5', { sinceSeq: since });
    expect(down.key).toBe('5');
    expectNothingHeld();
    expect(numLock()).toBe('off');
  });

  it('rejects unknown key names without pressing anything', async () => {
    const since = probe.nextSeq();
    // The one check refuses it: only a checked action can reach Computer.perform.
    expect(() => perform({ type: 'key', keys: 'ctrl+Retrun', repeat: 1 })).toThrow(/unknown key "Retrun".*"Return"/);
    await new Promise((r) => setTimeout(r, 100));
    expect(probe.events().filter((e) => e.seq >= since && e.type === 'keydown')).toEqual([]);
  });
});

describe('typing', () => {
  it('types accents, CJK, emoji, tab and newline exactly', async () => {
    const text = 'Grüße, 世界! 👋\ttab\nnew line';
    await probe.focusField();
    await perform({ type: 'type', text });
    await probe.waitForText(text);
    expectNothingHeld();
  });

  it('types 1,000 random printable ASCII characters exactly', async () => {
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const text = Array.from({ length: 1000 }, () => String.fromCharCode(32 + Math.floor(rand() * 95))).join('');
    await probe.focusField();
    await perform({ type: 'type', text });
    await probe.waitForText(text, 15_000);
    expectNothingHeld();
  });

  it('keeps the clipboard the user had', async () => {
    const { spawn, spawnSync } = await import('node:child_process');
    const owner = spawn('xclip', ['-i', '-selection', 'clipboard'], { env: xvfb.env, stdio: ['pipe', 'ignore', 'ignore'] });
    owner.stdin.end('the user’s clipboard');
    await new Promise((r) => owner.on('exit', r)); // xclip forks a server and exits
    await probe.focusField();
    await perform({ type: 'type', text: 'ünïcödé' });
    await probe.waitForText('ünïcödé');
    const after = spawnSync('xclip', ['-o', '-selection', 'clipboard'], { env: xvfb.env, encoding: 'utf8' }).stdout;
    expect(after).toBe('the user’s clipboard');
  });

  it('stops a long type on abort: nothing held, the probe saw a prefix', async () => {
    let seed = 777;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    // Upper case and shifted symbols, so Shift is down most of the time.
    const text = Array.from({ length: 5000 }, () => 'ABCDEFGHIJ!@#$%^&*()_+{}|:"<>?'[Math.floor(rand() * 30)]).join('');
    await probe.focusField();
    await perform({ type: 'type', text: 'Q' });
    await probe.waitForText('Q');
    await perform({ type: 'key', keys: 'BackSpace', repeat: 1 });
    await probe.waitForText('');
    const ac = new AbortController();
    const typing = computer.perform(checked({ type: 'type', text }), ac.signal);
    // 5,000 strokes take at least 5 s at the paced rate (the browser shows them later still),
    // so a stop 300 ms in lands mid-way. The warm-up above loaded nut.js and the keymap.
    await new Promise((r) => setTimeout(r, 300));
    ac.abort(new Error('stop pressed'));
    await expect(typing).rejects.toThrow('stop pressed');
    expectNothingHeld();
    // Let the browser catch up with what was sent, then read the field.
    let got = '';
    for (let last = -1; got.length !== last; await new Promise((r) => setTimeout(r, 400))) {
      last = got.length;
      got = await probe.textValue();
    }
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(text.length);
    expect(text.startsWith(got)).toBe(true);
  });

  it('releases a held key when a hold is aborted', async () => {
    const ac = new AbortController();
    const since = probe.nextSeq();
    const holding = computer.perform(checked({ type: 'hold_key', keys: 'ctrl+shift', durationMs: 10_000 }), ac.signal);
    await probe.waitFor((e) => e.type === 'keydown' && e.code === 'ShiftLeft', { sinceSeq: since });
    expect(heldState(xvfb).keys).toEqual(expect.arrayContaining(['Control_L', 'Shift_L']));
    ac.abort();
    await expect(holding).rejects.toThrow();
    expectNothingHeld();
  });

  it('stops a long drag on abort: the button and the modifier come up, nothing held', async () => {
    const pad = probe.padRect();
    // A long zig-zag: 200 waypoints, about 2 s of paced motion.
    const path = Array.from({ length: 200 }, (_, i) => ({ x: Math.round(pad.x + 50 + (i % 2) * 400), y: Math.round(pad.y + 50 + i) }));
    const ac = new AbortController();
    const since = probe.nextSeq();
    const dragging = computer.perform(checked({ type: 'drag', path, button: 'left', modifiers: ['shift'] }), ac.signal);
    await probe.waitFor((e) => e.type === 'pointerdown', { sinceSeq: since });
    ac.abort(new Error('stop pressed'));
    await expect(dragging).rejects.toThrow('stop pressed');
    expectNothingHeld();
    const up = await probe.waitFor((e) => e.type === 'pointerup', { sinceSeq: since });
    // Released where the drag was stopped, well before the end of the path.
    expect(probe.screenPos(up).y).toBeLessThan(path[199]!.y);
    await probe.waitFor((e) => e.type === 'keyup' && e.code === 'ShiftLeft', { sinceSeq: since });
  });

  it('releases a button held by mouse_down when releaseAll is called', async () => {
    const p = padPoint(50, 50);
    await perform({ type: 'mouse_down', button: 'right', x: p.x, y: p.y });
    expect(heldState(xvfb).buttons).toEqual([3]);
    await computer.releaseAll();
    expectNothingHeld();
  });
});

describe('takeover', () => {
  it('tells when the pointer is not where the agent left it', async () => {
    const p = padPoint(60, 60);
    await perform({ type: 'move', x: p.x, y: p.y });
    expect(await computer.takeover.check()).toBeUndefined();
    const { spawnSync } = await import('node:child_process');
    spawnSync('xdotool', ['mousemove', '--sync', String(p.x + 200), String(p.y + 40)], { env: xvfb.env });
    const report = await computer.takeover.check();
    expect(report?.expected).toEqual(p);
    expect(report?.actual).toEqual({ x: p.x + 200, y: p.y + 40 });
  });
});
