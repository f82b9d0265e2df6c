/**
 * The element a recorded click lands on is read until the read ends (issue 28 risk: a
 * fixed 1.5 s budget ran out under load and the click logged no element, so its replay
 * had no path to check). Fake timers stand in for a slow accessibility bus: no real waiting.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ElementTreeResult } from '../../../src/shared/elements.js';
import { readActionTarget, TARGET_READ_BACKSTOP_MS } from '../../../src/main/agent/action-target.js';

const tree: ElementTreeResult = {
  kind: 'tree',
  windows: [
    {
      app: 'gnome-calculator',
      root: {
        path: 'frame "Calculator"',
        role: 'frame',
        name: 'Calculator',
        states: ['visible'],
        actions: [],
        bounds: { x: 0, y: 0, width: 400, height: 300 },
        children: [{ path: 'frame "Calculator" > push button "7"', role: 'push button', name: '7', states: ['visible', 'enabled'], actions: ['click'], bounds: { x: 10, y: 10, width: 40, height: 40 }, children: [] }],
      },
    },
  ],
} as unknown as ElementTreeResult;

afterEach(() => {
  vi.useRealTimers();
});

function slowRead(ms: number): () => Promise<ElementTreeResult> {
  return () => new Promise((resolve) => setTimeout(() => resolve(tree), ms));
}

describe('readActionTarget', () => {
  it('waits for a read slower than the old 1.5 s budget and logs the element it found', async () => {
    vi.useFakeTimers();
    const read = readActionTarget(slowRead(4_000), { x: 20, y: 20 });
    await vi.advanceTimersByTimeAsync(4_000);
    expect(await read).toEqual({
      point: { x: 20, y: 20 },
      window: { title: 'Calculator', app: 'gnome-calculator', bounds: { x: 0, y: 0, width: 400, height: 300 } },
      element: { path: 'frame "Calculator" > push button "7"', role: 'push button', name: '7', bounds: { x: 10, y: 10, width: 40, height: 40 } },
    });
  });

  it('a read that never answers lets the action go at the backstop, with the point alone', async () => {
    vi.useFakeTimers();
    let settled = false;
    const read = readActionTarget(() => new Promise<ElementTreeResult>(() => undefined), { x: 20, y: 20 }).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(TARGET_READ_BACKSTOP_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await read).toEqual({ point: { x: 20, y: 20 } });
  });

  it('a failed read is the point alone, never a failed action', async () => {
    expect(await readActionTarget(() => Promise.reject(new Error('bus gone')), { x: 5, y: 5 })).toEqual({ point: { x: 5, y: 5 } });
  });
});
