/**
 * On a real X server (private Xvfb + openbox): the keysym an application receives for
 * the names of the generated table, the press order of a chord written key-first, and
 * held keys (key_down / mouse_down) released on key_up, on error and on stop — read from
 * xev (what a client is sent) and from the X server's own input state (xinput).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { heldState } from '../harness/native-apps.js';
import { checked } from '../harness/checked.js';
import { parseClaudeAction } from '../../src/main/agent/providers/parse/claude-computer.js';

let xvfb: Xvfb;
let computer: DesktopComputer;
let xev: ChildProcess;
let xevOut = '';
const never = new AbortController().signal;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** xev's window, focused, so that every key event reaches it. */
async function startXev(): Promise<void> {
  xev = spawn('xev', ['-event', 'keyboard', '-name', 'deskpilot-keysyms'], { env: xvfb.env, stdio: ['ignore', 'pipe', 'ignore'] });
  xev.stdout!.setEncoding('utf8').on('data', (d: string) => (xevOut += d));
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = spawnSync('xdotool', ['search', '--name', '^deskpilot-keysyms$'], { env: xvfb.env, encoding: 'utf8' }).stdout.trim().split('\n')[0];
    if (found) {
      spawnSync('xdotool', ['windowactivate', '--sync', found], { env: xvfb.env });
      break;
    }
    if (Date.now() > deadline) throw new Error('xev window did not appear');
    await sleep(100);
  }
  await sleep(300);
}

interface KeyEvent {
  type: 'press' | 'release';
  state: number;
  keysym: string;
}

/** Key events xev printed since `from` (an offset into its output). */
function keyEvents(from: number): KeyEvent[] {
  const out: KeyEvent[] = [];
  const re = /(KeyPress|KeyRelease) event[^\n]*\n[^\n]*\n\s*state 0x([0-9a-f]+), keycode \d+ \(keysym 0x[0-9a-f]+, (\w+)\)/g;
  for (const m of xevOut.slice(from).matchAll(re)) out.push({ type: m[1] === 'KeyPress' ? 'press' : 'release', state: parseInt(m[2]!, 16), keysym: m[3]! });
  return out;
}

/**
 * The key events `work` caused: read until `until` holds (a busy xev prints late), or
 * for `quietMs` when nothing in particular is awaited.
 */
async function eventsOf(work: () => Promise<unknown>, until?: (events: KeyEvent[]) => boolean, quietMs = 400): Promise<KeyEvent[]> {
  const from = xevOut.length;
  await work();
  if (!until) {
    await sleep(quietMs);
    return keyEvents(from);
  }
  const deadline = Date.now() + 5_000;
  while (!until(keyEvents(from)) && Date.now() < deadline) await sleep(50);
  // Let the releases that follow arrive too.
  await sleep(150);
  return keyEvents(from);
}

const nothingHeld = () => expect(heldState(xvfb)).toEqual({ keys: [], keycodes: [], buttons: [] });

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1024, height: 768 });
  process.env.DISPLAY = xvfb.display;
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = createComputer();
  await computer.warmUp();
  await startXev();
}, 60_000);

afterAll(async () => {
  await computer?.releaseAll();
  xev?.kill('SIGKILL');
});

beforeEach(() => nothingHeld());

describe('the keysym that arrives', () => {
  // [what the model writes, the keysym xev reports on press]
  const CASES: [string, string][] = [
    ['KP_Home', 'KP_Home'],
    ['KP_Delete', 'KP_Delete'],
    ['KP_Space', 'KP_Space'],
    ['ISO_Left_Tab', 'ISO_Left_Tab'],
    ['XF86MonBrightnessUp', 'XF86MonBrightnessUp'],
    ['XF86AudioPause', 'XF86AudioPause'],
    ['XF86Back', 'XF86Back'],
    ['XF86Calculator', 'XF86Calculator'],
    ['Undo', 'Undo'],
    ['Find', 'Find'],
    ['Help', 'Help'],
    ['Break', 'Break'],
    ['Pause', 'Pause'],
    ['Multi_key', 'Multi_key'],
    ['browserback', 'XF86Back'],
    ['num7', 'KP_7'],
    ['KeyA', 'a'],
    ['Digit1', '1'],
    ['meta', 'Alt_L'],
    ['Meta_L', 'Meta_L'],
    ['Meta_R', 'Meta_R'],
    ['XF86AudioForward', 'XF86AudioForward'],
    ['audiorewind', 'XF86AudioRewind'],
    ['AudioRandom', 'XF86AudioRandomPlay'],
  ];
  it.each(CASES)('%s → %s', async (name, keysym) => {
    const events = await eventsOf(
      () => computer.perform(checked({ type: 'key', keys: name }), never),
      (got) => got.some((e) => e.type === 'release' && got.some((p) => p.type === 'press' && p.keysym === keysym)),
    );
    const presses = events.filter((e) => e.type === 'press').map((e) => e.keysym);
    expect(presses, JSON.stringify(events)).toContain(keysym);
    nothingHeld();
  });
});

describe("Claude's key text pressed as Anthropic's reference executor presses it (xdotool key, issue 26 item 4)", () => {
  const presses = (events: KeyEvent[]) => events.filter((e) => e.type === 'press').map((e) => `${e.keysym}@${e.state.toString(16)}`);
  // Every key pressed is let go again (a shifted letter's release reads as the capital, so count, not names).
  const allReleased = (got: KeyEvent[]) => got.some((e) => e.type === 'press') && got.filter((e) => e.type === 'release').length >= got.filter((e) => e.type === 'press').length;
  it.each(['ctrl+C', 'shift+A', 'Meta_L+q', 'alt+Meta_R+x'])('%s: the application gets the same presses, in the same modifier state', async (text) => {
    const entry = parseClaudeAction('key', { action: 'key', text }, { image: { width: 1024, height: 768 } });
    if (!entry.ok) throw new Error(entry.error);
    const ours = await eventsOf(() => computer.perform(checked(entry.action), never), allReleased);
    nothingHeld();
    const theirs = await eventsOf(async () => spawnSync('xdotool', ['key', '--', text], { env: xvfb.env }), allReleased);
    nothingHeld();
    expect(presses(ours).length, JSON.stringify(ours)).toBeGreaterThan(1);
    expect(presses(ours)).toEqual(presses(theirs));
  });
});

describe('a chord written key-first', () => {
  it('"k+shift" presses Shift before k: the application gets K with Shift down', async () => {
    const events = await eventsOf(
      () => computer.perform(checked({ type: 'key', keys: 'k+shift' }), never),
      (got) => got.some((e) => e.type === 'release' && e.keysym === 'Shift_L'),
    );
    const presses = events.filter((e) => e.type === 'press');
    expect(presses.map((e) => e.keysym)).toEqual(['Shift_L', 'K']);
    expect(presses[1]!.state & 1).toBe(1);
    nothingHeld();
  });
});

describe('held keys and buttons', () => {
  it('key_down holds ctrl across actions: a later q arrives with Control down; key_up lets go', async () => {
    await computer.perform(checked({ type: 'key_down', keys: 'ctrl' }), never);
    expect(heldState(xvfb).keys).toEqual(['Control_L']);
    expect(computer.held().keys).toEqual(['Control_L']);
    const events = await eventsOf(
      () => computer.perform(checked({ type: 'key', keys: 'q' }), never),
      (got) => got.some((e) => e.type === 'release' && e.keysym === 'q'),
    );
    const q = events.find((e) => e.type === 'press' && e.keysym === 'q');
    expect(q && q.state & 4).toBe(4);
    // The tap of a chord that names the held key again does not let go of the hold.
    await computer.perform(checked({ type: 'key', keys: 'ctrl+a' }), never);
    expect(heldState(xvfb).keys).toEqual(['Control_L']);
    const released = await computer.perform(checked({ type: 'key_up', keys: 'ctrl' }), never);
    expect(released.output).toBeUndefined();
    nothingHeld();
    expect(computer.held()).toEqual({ keys: [], buttons: [] });
  });

  it('key_up of a key that is not held says so and presses nothing', async () => {
    // The earlier test's last release may still be on its way to xev.
    await sleep(800);
    let output: string | undefined;
    const events = await eventsOf(async () => {
      output = (await computer.perform(checked({ type: 'key_up', keys: 'shift' }), never)).output;
    });
    expect(output).toBe('Shift_L was not held; nothing to release');
    expect(events).toEqual([]);
    nothingHeld();
  });

  it('on error everything held is released (a second mouse_down of a held button fails)', async () => {
    await computer.perform(checked({ type: 'key_down', keys: 'shift+alt' }), never);
    await computer.perform(checked({ type: 'mouse_down', button: 'left', x: 500, y: 400 }), never);
    expect(heldState(xvfb).buttons).toEqual([1]);
    expect(heldState(xvfb).keys.sort()).toEqual(['Alt_L', 'Shift_L']);
    await expect(computer.perform(checked({ type: 'mouse_down', button: 'left' }), never)).rejects.toThrow(/already held/);
    nothingHeld();
    expect(computer.held()).toEqual({ keys: [], buttons: [] });
  });

  it('on stop everything held is released (a hold cut short by the abort)', async () => {
    await computer.perform(checked({ type: 'key_down', keys: 'super' }), never);
    const stop = new AbortController();
    const holding = computer.perform(checked({ type: 'hold_key', keys: 'ctrl', durationMs: 10_000 }), stop.signal);
    await sleep(300);
    expect(heldState(xvfb).keys.sort()).toEqual(['Control_L', 'Super_L']);
    stop.abort(new Error('stopped'));
    await expect(holding).rejects.toThrow();
    nothingHeld();
  });

  it('releaseAll (the end of a run) lets go of keys and buttons', async () => {
    await computer.perform(checked({ type: 'key_down', keys: 'ctrl' }), never);
    await computer.perform(checked({ type: 'mouse_down', button: 'right', x: 300, y: 300 }), never);
    expect(heldState(xvfb).keys).toEqual(['Control_L']);
    await computer.releaseAll();
    nothingHeld();
  });
});
