import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { anthropicBlocks, estimateAnthropicRun, imageSize, imageTokens, PromptCache, textTokens } from '../../src/main/agent/cost/token-estimate.js';
import { referenceBodies, referenceScreenshotSize } from '../../src/main/agent/cost/reference-policies.js';

const text = (t: string, cache = false) => ({ type: 'text', text: t, ...(cache ? { cache_control: { type: 'ephemeral' } } : {}) });
const image = async (width: number, height: number, shade = 0) => ({
  type: 'image',
  source: { type: 'base64', media_type: 'image/jpeg', data: (await sharp({ create: { width, height, channels: 3, background: { r: shade, g: 0, b: 0 } } }).jpeg().toBuffer()).toString('base64') },
});

describe('token estimate rules', () => {
  it('reads image sizes from PNG and JPEG headers', async () => {
    const png = await sharp({ create: { width: 37, height: 21, channels: 3, background: 'red' } }).png().toBuffer();
    const jpg = await sharp({ create: { width: 1366, height: 768, channels: 3, background: 'red' } }).jpeg({ quality: 40 }).toBuffer();
    expect(imageSize(png)).toEqual({ width: 37, height: 21 });
    expect(imageSize(jpg)).toEqual({ width: 1366, height: 768 });
    expect(imageSize(Buffer.from('not an image'))).toBeUndefined();
    expect(imageTokens(1366, 768)).toBe(1399);
    expect(textTokens('abcdefghi')).toBe(3);
  });

  it('counts an image in a tool result by its pixels and the result head by its text', async () => {
    const body = {
      system: [text('s'.repeat(400), true)],
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [await image(750, 10)] }] }],
    };
    const blocks = anthropicBlocks(body);
    expect(blocks.map((b) => b.section)).toEqual(['system', 'messages']);
    expect(blocks[0]).toMatchObject({ tokens: 100, breakpoint: true });
    expect(blocks[1]!.imageTokens).toBe(10);
  });
});

describe('prompt cache model', () => {
  const block = (key: string, tokens: number, breakpoint = false) => ({ key, tokens, imageTokens: 0, breakpoint, section: 'messages' as const });

  it('writes up to the last breakpoint, reads what an earlier breakpoint wrote, and bills the tail at 1×', () => {
    const cache = new PromptCache();
    const first = cache.request([block('a', 100, true), block('b', 50, true), block('c', 10)]);
    expect(first).toMatchObject({ raw: 160, cacheRead: 0, cacheWrite: 150, uncached: 10, weighted: 150 * 1.25 + 10 });
    const second = cache.request([block('a', 100, true), block('b', 50), block('d', 30, true)]);
    expect(second).toMatchObject({ cacheRead: 150, cacheWrite: 30, uncached: 0 });
    expect(second.weighted).toBeCloseTo(15 + 37.5);
  });

  it('a changed block early in the prefix is a miss for everything after it', () => {
    const cache = new PromptCache();
    cache.request([block('a', 100, true), block('b', 50, true)]);
    const changed = cache.request([block('a', 100, true), block('B', 50, true)]);
    expect(changed).toMatchObject({ cacheRead: 100, cacheWrite: 50 });
  });

  it('looks back at most 20 blocks from a breakpoint', () => {
    const cache = new PromptCache();
    cache.request([block('a', 1, true)]);
    const near = [block('a', 1), ...Array.from({ length: 19 }, (_, i) => block(`n${i}`, 1)), block('end', 1, true)];
    expect(cache.request(near).cacheRead).toBe(1);
    const cache2 = new PromptCache();
    cache2.request([block('a', 1, true)]);
    const far = [block('a', 1), ...Array.from({ length: 21 }, (_, i) => block(`f${i}`, 1)), block('end', 1, true)];
    expect(cache2.request(far).cacheRead).toBe(0);
  });
});

describe('reference demo policies', () => {
  it('uses the standard size of the same aspect ratio', () => {
    expect(referenceScreenshotSize(1920, 1080)).toEqual({ width: 1366, height: 768 });
    expect(referenceScreenshotSize(1920, 1200)).toEqual({ width: 1280, height: 800 });
    expect(referenceScreenshotSize(1600, 1200)).toEqual({ width: 1024, height: 768 });
    expect(referenceScreenshotSize(1000, 1000)).toEqual({ width: 1000, height: 1000 });
  });

  it('keep-3 carries at most 3 screenshots; the Anthropic path carries all with 4 breakpoints', () => {
    const turns = 8;
    const bodies = Array.from({ length: turns }, (_, i) => {
      const messages: unknown[] = [{ role: 'user', content: [text('task')] }];
      for (let t = 0; t < i; t++) {
        messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `u${t}`, name: 'computer', input: { action: 'key', text: 'a' } }] });
        messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `u${t}`, content: [] }] });
      }
      return { system: [text('sys', true)], tools: [{ name: 'computer' }], messages };
    });
    const keep3 = estimateAnthropicRun(referenceBodies(bodies, 'keep-3', { width: 1920, height: 1080 }));
    const all = estimateAnthropicRun(referenceBodies(bodies, 'anthropic-path', { width: 1920, height: 1080 }));
    expect(keep3.requests.map((r) => r.images)).toEqual([1, 2, 3, 3, 3, 3, 3, 3]);
    expect(all.requests.map((r) => r.images)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(all.maxBreakpoints).toBe(4);
    // From the second request on, the Anthropic path reads every earlier screenshot from the cache.
    expect(all.requests[7]!.cacheRead).toBeGreaterThanOrEqual(7 * 1399);
  });
});
