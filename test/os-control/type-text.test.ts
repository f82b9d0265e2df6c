import { afterEach, describe, expect, it, vi } from 'vitest';
import { usCharMap } from '../../src/os-control/keymap.js';
import { planTyping, typeText } from '../../src/os-control/typing.js';
import { recordingDevices as recorder } from './recording-devices.js';

/**
 * typeText's order of key events, against a recording stand-in for the input devices
 * (the real-desktop tests check what the apps receive; these check what is pressed and
 * released, which no app shows): Shift is pressed for the shifted characters only,
 * released before a paste, and never left held — after text ending in a capital, after an
 * abort, after a paste that fails. Pacing: strokes wait for their time, under fake timers.
 */
const charMap = usCharMap();

afterEach(() => vi.useRealTimers());

describe('planTyping', () => {
  it('keys for what the layout types, paste runs for the rest; CR LF is one Enter', () => {
    expect(planTyping('aB\r\nc€é👋d', charMap).map((r) => (r.kind === 'keys' ? r.strokes.map((s) => `${s.shift ? '+' : ''}${s.key.name}`).join(' ') : `paste ${r.text}`))).toEqual([
      'a +b Return c',
      'paste €é👋',
      'd',
    ]);
  });
});

describe('typeText', () => {
  it('holds Shift exactly for the shifted characters and releases it at the end of text ending in one', async () => {
    const { devices, calls } = recorder();
    await typeText(devices, 'aBC d!', { charMap, paste: async () => undefined });
    expect(calls).toEqual(['tap a', 'down Shift_L', 'tap b', 'tap c', 'up Shift_L', 'tap space', 'tap d', 'down Shift_L', 'tap 1', 'up Shift_L']);
  });

  it('releases Shift before a paste and presses it again after', async () => {
    const { devices, calls } = recorder();
    await typeText(devices, 'A€B', { charMap, paste: async (text) => void calls.push(`paste ${text}`) });
    expect(calls).toEqual(['down Shift_L', 'tap a', 'up Shift_L', 'paste €', 'down Shift_L', 'tap b', 'up Shift_L']);
  });

  it('an abort between chunks stops typing and leaves Shift up', async () => {
    const { devices, calls } = recorder();
    const ctl = new AbortController();
    const tap = devices.tap.bind(devices);
    devices.tap = async (k) => {
      await tap(k);
      if (calls.filter((c) => c.startsWith('tap')).length === 2) ctl.abort();
    };
    await expect(typeText(devices, 'ABCDEFGH', { charMap, paste: async () => undefined, chunk: 2, signal: ctl.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toEqual(['down Shift_L', 'tap a', 'tap b', 'up Shift_L']);
  });

  it('a paste that fails leaves nothing held and says why', async () => {
    const { devices, calls } = recorder();
    await expect(typeText(devices, 'ab€', { charMap, paste: async () => Promise.reject(new Error('no clipboard')) })).rejects.toThrow('no clipboard');
    expect(calls).toEqual(['tap a', 'tap b']);
  });

  it('paces strokes: each chunk waits until its strokes’ time has come', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { devices, calls } = recorder();
    const done = typeText(devices, 'abcdef', { charMap, paste: async () => undefined, chunk: 2, strokeIntervalMs: 100 });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['tap a', 'tap b']);
    await vi.advanceTimersByTimeAsync(150);
    expect(calls).toEqual(['tap a', 'tap b']);
    await vi.advanceTimersByTimeAsync(50);
    expect(calls).toEqual(['tap a', 'tap b', 'tap c', 'tap d']);
    await vi.advanceTimersByTimeAsync(400);
    await done;
    expect(calls).toHaveLength(6);
  });

  it('types everything with the default chunk and interval', async () => {
    const { devices, calls } = recorder();
    const text = 'the quick brown fox jumps over the lazy dog';
    await typeText(devices, text, { charMap, paste: async () => undefined });
    expect(calls.filter((c) => c.startsWith('tap'))).toHaveLength(text.length);
  });
});
