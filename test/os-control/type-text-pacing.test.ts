import { afterEach, describe, expect, it, vi } from 'vitest';
import { usCharMap } from '../../src/os-control/keymap.js';
import { typeText } from '../../src/os-control/typing.js';
import { recordingDevices } from './recording-devices.js';

/**
 * When a chunk of strokes waits. Under fake timeouts and a frozen performance clock
 * (setImmediate stays real): a chunk that is a whole millisecond or more ahead of its
 * pace sleeps on a timer; a chunk that is on time only yields to the event loop, so it
 * pays no timer's 1 ms floor.
 */
const charMap = usCharMap();
const paste = async () => undefined;
const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

afterEach(() => vi.useRealTimers());

describe('typeText pacing boundary', () => {
  it('a chunk exactly 1 ms ahead waits on a timer for that millisecond', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { devices, calls } = recordingDevices();
    const done = typeText(devices, 'ab', { charMap, paste, chunk: 1, strokeIntervalMs: 1 });
    for (let i = 0; i < 5; i++) await macrotask();
    expect(calls).toEqual(['tap a']);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(['tap a', 'tap b']);
    await vi.advanceTimersByTimeAsync(2);
    await done;
  });

  it('a chunk on time does not wait on a timer: typing ends with no fake time passing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { devices, calls } = recordingDevices();
    let finished = false;
    const done = typeText(devices, 'abc', { charMap, paste, chunk: 1, strokeIntervalMs: 0 }).then(() => {
      finished = true;
    });
    for (let i = 0; i < 10 && !finished; i++) await macrotask();
    expect(calls).toEqual(['tap a', 'tap b', 'tap c']);
    expect(finished).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    await done;
  });
});
