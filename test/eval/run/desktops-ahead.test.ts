/**
 * Desktops started one task ahead (eval/run/desktops-ahead.ts): a task takes a desktop that
 * was started while the task before ran; no more wait than workers or than the tasks to come
 * need; those no task took are stopped at the end; a start that failed is its task's error.
 * The desktops are stand-in handles that count their starts and stops.
 */
import { describe, expect, it } from 'vitest';
import { DesktopsAhead } from '../../../src/main/eval/run/desktops-ahead.js';
import type { DesktopHandle } from '../../../src/main/eval/run/task-run.js';

function counter(fail: (n: number) => boolean = () => false) {
  const log: string[] = [];
  let n = 0;
  const start = async (): Promise<DesktopHandle> => {
    const id = ++n;
    log.push(`start ${id}`);
    if (fail(id)) throw new Error(`Xvfb ${id} exited with code 1`);
    return { display: `:${id}`, env: {}, stop: async () => void log.push(`stop ${id}`) };
  };
  return { log, start };
}

describe('desktops started ahead', () => {
  it('each take hands a started desktop and starts the next; never more waiting than workers or than tasks left', async () => {
    const { log, start } = counter();
    const desktops = new DesktopsAhead(start, 2, 3);
    expect((await desktops.take()).display).toBe(':1');
    // Two workers, two tasks left: two start ahead.
    expect(log).toEqual(['start 1', 'start 2', 'start 3']);
    expect((await desktops.take()).display).toBe(':2');
    expect((await desktops.take()).display).toBe(':3');
    // Three tasks, three desktops: none started for nobody.
    expect(log).toEqual(['start 1', 'start 2', 'start 3']);
    const warnings: string[] = [];
    await desktops.close((text) => warnings.push(text));
    expect(log).toEqual(['start 1', 'start 2', 'start 3']);
    expect(warnings).toEqual([]);
  });

  it('the next desktop starts once the taken one is up, not beside it', async () => {
    const log: string[] = [];
    const pending: Array<() => void> = [];
    const desktops = new DesktopsAhead(
      () => {
        const id = log.push(`start ${log.length + 1}`);
        return new Promise<DesktopHandle>((resolve) => pending.push(() => resolve({ display: `:${id}`, env: {}, stop: async () => undefined })));
      },
      1,
      3,
    );
    const first = desktops.take();
    expect(log).toEqual(['start 1']);
    pending[0]!();
    expect((await first).display).toBe(':1');
    expect(log).toEqual(['start 1', 'start 2']);
    pending[1]!();
    await desktops.close(() => undefined);
  });

  it('close stops the ones no task took (an interrupted eval) and starts no more; a stop that fails is a warning', async () => {
    const { log, start } = counter();
    const desktops = new DesktopsAhead(start, 1, 5);
    await desktops.take();
    const warnings: string[] = [];
    await desktops.close((text) => warnings.push(text));
    expect(log).toEqual(['start 1', 'start 2', 'stop 2']);

    const stubborn = new DesktopsAhead(async () => ({ display: ':9', env: {}, stop: () => Promise.reject(new Error('openbox would not die')) }), 1, 2);
    await stubborn.take();
    await stubborn.close((text) => warnings.push(text));
    expect(warnings).toEqual(['could not stop a virtual desktop started ahead for a task: openbox would not die']);
  });

  it('a desktop that failed to start ahead is the failure of the task that takes it, and the next one still starts', async () => {
    const { log, start } = counter((id) => id === 2);
    const desktops = new DesktopsAhead(start, 1, 3);
    await desktops.take();
    await expect(desktops.take()).rejects.toThrow('Xvfb 2 exited with code 1');
    expect((await desktops.take()).display).toBe(':3');
    await desktops.close(() => undefined);
    expect(log).toEqual(['start 1', 'start 2', 'start 3']);
  });
});
