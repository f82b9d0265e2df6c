import { describe, expect, it } from 'vitest';
import { countImages, pruneImages } from '../../src/main/agent/context.js';
import type { TranscriptImage, TranscriptItem } from '../../src/main/agent/transcript.js';

const image = (id: string): TranscriptImage => ({
  observationId: id,
  mediaType: 'image/jpeg',
  width: 10,
  height: 10,
  load: async () => Buffer.from(id),
});

function transcriptWithSteps(steps: number): TranscriptItem[] {
  const items: TranscriptItem[] = [{ role: 'user', text: 'task', image: image('o0') }];
  for (let i = 1; i <= steps; i += 1) {
    items.push({ role: 'assistant', text: '', calls: [] });
    items.push({ role: 'tool_result', callId: `c${i}`, name: 'computer', ok: true, text: '', image: image(`o${i}`) });
  }
  return items;
}

describe('pruneImages', () => {
  it('keeps the request flat: the 50th request carries no more images than the 10th', () => {
    const opts = { keepImages: 3, pruneStep: 3 };
    const at10 = countImages(pruneImages(transcriptWithSteps(10), opts));
    const at50 = countImages(pruneImages(transcriptWithSteps(50), opts));
    expect(at50).toBeLessThanOrEqual(at10);
    for (let steps = 0; steps < 60; steps += 1) {
      const n = countImages(pruneImages(transcriptWithSteps(steps), opts));
      expect(n).toBeLessThanOrEqual(3 + 3 - 1);
      expect(n).toBeLessThanOrEqual(steps + 1);
      expect(n).toBeGreaterThanOrEqual(Math.min(steps + 1, 3));
    }
  });

  it('removes the oldest images first, in steps, and marks them pruned', () => {
    const pruned = pruneImages(transcriptWithSteps(8), { keepImages: 3, pruneStep: 3 });
    const kept = pruned.flatMap((item) => (item.role !== 'assistant' && item.image ? [item.image.observationId] : []));
    // 9 images, keep ≥3, remove in threes: 6 removed, the newest 3 stay.
    expect(kept).toEqual(['o6', 'o7', 'o8']);
    expect(pruned.filter((item) => item.role !== 'assistant' && item.imagePruned).length).toBe(6);
  });

  it('keeps the prefix stable between prunes so cached prefixes keep hitting', () => {
    const opts = { keepImages: 3, pruneStep: 3 };
    const a = pruneImages(transcriptWithSteps(9), opts);
    const b = pruneImages(transcriptWithSteps(10), opts);
    const ids = (t: TranscriptItem[]) => t.map((item) => (item.role !== 'assistant' ? `${item.image?.observationId ?? '-'}` : 'a'));
    expect(ids(b).slice(0, ids(a).length)).toEqual(ids(a));
  });

  it('does not change its input', () => {
    const t = transcriptWithSteps(12);
    pruneImages(t, { keepImages: 2, pruneStep: 2 });
    expect(countImages(t)).toBe(13);
  });

  it('compacts the start up to the last pruned item: routine results lose their text, errors and output stay; no note is left', () => {
    const t: TranscriptItem[] = [{ role: 'user', text: 'task', image: image('o0') }];
    for (let i = 1; i <= 6; i += 1) {
      t.push({ role: 'assistant', text: '', calls: [] });
      const failed = i === 2;
      t.push({ role: 'tool_result', callId: `c${i}`, name: 'computer', ok: !failed, text: failed ? 'error: the window moved' : `click ${i}: done`, ...(failed ? {} : { routine: true }), image: image(`o${i}`) });
    }
    const pruned = pruneImages(t, { keepImages: 3, pruneStep: 1 });
    const results = pruned.filter((item) => item.role === 'tool_result');
    // 7 images, keep 3: o0…o3 pruned, so c1…c3 and the task are the compacted start.
    expect(results.map((r) => [r.callId, r.text, r.compacted === true, r.image?.observationId ?? null])).toEqual([
      ['c1', '', true, null],
      ['c2', 'error: the window moved', true, null],
      ['c3', '', true, null],
      ['c4', 'click 4: done', false, 'o4'],
      ['c5', 'click 5: done', false, 'o5'],
      ['c6', 'click 6: done', false, 'o6'],
    ]);
    expect(pruned[0]).toMatchObject({ role: 'user', text: 'task', compacted: true, imagePruned: true });
    expect(JSON.stringify(pruned)).not.toMatch(/removed/);
  });

  it('never removes the newest full screenshot, even when zooms came after it', () => {
    const zoom = (id: string): TranscriptImage => ({ ...image(id), zoom: true });
    const t: TranscriptItem[] = [
      { role: 'user', text: 'task', image: image('full') },
      { role: 'assistant', text: '', calls: [] },
      { role: 'tool_result', callId: 'z1', name: 'computer', ok: true, text: '', image: zoom('z1') },
      { role: 'assistant', text: '', calls: [] },
      { role: 'tool_result', callId: 'z2', name: 'computer', ok: true, text: '', image: zoom('z2') },
    ];
    const kept = (keepImages: number) =>
      pruneImages(t, { keepImages, pruneStep: 1 }).flatMap((item) => (item.role !== 'assistant' && item.image ? [item.image.observationId] : []));
    expect(kept(2)).toEqual(['full', 'z2']);
    expect(kept(1)).toEqual(['full']);
  });
});
