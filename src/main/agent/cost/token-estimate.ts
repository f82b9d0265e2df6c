import { createHash } from 'node:crypto';

/**
 * Estimated input tokens of Anthropic Messages requests, and what prompt caching makes
 * of them — the yardstick of issue 19's bench and of the context-policy test. An
 * estimate, not the tokenizer: the same rules for every policy compared, so ratios hold.
 *
 * Rules (Anthropic vision, prompt-caching and pricing docs, 2026):
 * - an image costs about width·height/750 tokens (a 1366×768 screenshot ≈ 1,399);
 * - text about one token per 4 characters (tool definitions as their JSON);
 * - the cache is keyed by the exact prefix in the order tools → system → messages;
 *   a `cache_control` breakpoint writes the prefix up to and including its block, and a
 *   later request reads the longest prefix an earlier breakpoint wrote, found by looking
 *   back from each of its own breakpoints over at most 20 block boundaries;
 * - at most 4 breakpoints per request (the API rejects more; we count and report them);
 * - cache reads are billed at 0.1× the input price, 5-minute cache writes at 1.25×,
 *   everything after the last breakpoint at 1×.
 * Not modelled: the cache TTL (a bench run takes seconds), the minimum cacheable prefix
 * (1,024–4,096 tokens by model; every prefix here is larger after the first request).
 */

export const IMAGE_PIXELS_PER_TOKEN = 750;
export const TEXT_CHARS_PER_TOKEN = 4;
export const CACHE_READ_WEIGHT = 0.1;
export const CACHE_WRITE_WEIGHT = 1.25;
export const CACHE_LOOKBACK_BLOCKS = 20;
export const MAX_CACHE_BREAKPOINTS = 4;

/** One cacheable unit of a request: a tool definition, a system block, a message content block. */
export interface PromptBlock {
  /** What the block holds, exactly (its bytes without cache_control): the prefix key. */
  key: string;
  tokens: number;
  imageTokens: number;
  /** A cache_control breakpoint ends here. */
  breakpoint: boolean;
  /** Where it sits: tools, system or messages (the "prefix" is tools + system). */
  section: 'tools' | 'system' | 'messages';
}

export interface RequestEstimate {
  /** Every input token of the request (what would be billed without caching). */
  raw: number;
  imageTokens: number;
  images: number;
  cacheRead: number;
  cacheWrite: number;
  /** After the last breakpoint, or all of it when nothing hit or was written. */
  uncached: number;
  /** raw reweighted: reads 0.1×, writes 1.25×, the rest 1×. */
  weighted: number;
  breakpoints: number;
}

export const imageTokens = (width: number, height: number): number => Math.ceil((width * height) / IMAGE_PIXELS_PER_TOKEN);
export const textTokens = (text: string): number => Math.ceil(text.length / TEXT_CHARS_PER_TOKEN);

/** Pixel size of a PNG or JPEG from its header (no decoding); undefined when neither. */
export function imageSize(data: Buffer): { width: number; height: number } | undefined {
  if (data.length >= 24 && data.readUInt32BE(0) === 0x89504e47 && data.toString('ascii', 12, 16) === 'IHDR') {
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 9 < data.length) {
    if (data[i] !== 0xff) return undefined;
    const marker = data[i + 1]!;
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    const length = data.readUInt16BE(i + 2);
    // SOF0–SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) are not frames.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: data.readUInt16BE(i + 7), height: data.readUInt16BE(i + 5) };
    }
    i += 2 + length;
  }
  return undefined;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function withoutCacheControl(block: Json): Json {
  const { cache_control: _cc, ...rest } = block;
  return rest;
}

/** Tokens of one content block (images by pixel size, everything else by its JSON text). */
function contentTokens(block: unknown): { tokens: number; imageTokens: number; images: number } {
  if (!isObj(block)) return { tokens: textTokens(JSON.stringify(block) ?? ''), imageTokens: 0, images: 0 };
  if (block.type === 'image') {
    const source = isObj(block.source) ? block.source : {};
    const data = typeof source.data === 'string' ? Buffer.from(source.data, 'base64') : Buffer.alloc(0);
    const size = imageSize(data);
    // A synthetic image (the reference replay) states its size instead of carrying bytes.
    const w = size?.width ?? (typeof source.width === 'number' ? source.width : 0);
    const h = size?.height ?? (typeof source.height === 'number' ? source.height : 0);
    const t = imageTokens(w, h);
    return { tokens: t, imageTokens: t, images: 1 };
  }
  if (block.type === 'tool_result') {
    const inner = typeof block.content === 'string' ? [{ type: 'text', text: block.content }] : list(block.content);
    const { content: _c, cache_control: _cc, ...head } = block;
    let tokens = textTokens(JSON.stringify(head));
    let img = 0;
    let images = 0;
    for (const part of inner) {
      const t = contentTokens(part);
      tokens += t.tokens;
      img += t.imageTokens;
      images += t.images;
    }
    return { tokens, imageTokens: img, images };
  }
  if (block.type === 'text' && typeof block.text === 'string') return { tokens: textTokens(block.text), imageTokens: 0, images: 0 };
  return { tokens: textTokens(JSON.stringify(withoutCacheControl(block))), imageTokens: 0, images: 0 };
}

/** Whether a block (or, for a tool_result, the block itself) carries a breakpoint. */
const hasBreakpoint = (block: unknown): boolean => isObj(block) && isObj(block.cache_control);

/** Keys stay short: an image's base64 is hashed, never kept. */
function keyOf(role: string, block: unknown): string {
  const json = JSON.stringify(isObj(block) ? withoutCacheControl(block) : block) ?? '';
  return `${role}:${json.length > 256 ? createHash('sha1').update(json).digest('hex') : json}`;
}

/** An Anthropic Messages request body → its blocks in cache order (tools, system, messages). */
export function anthropicBlocks(body: unknown): PromptBlock[] {
  const b = isObj(body) ? body : {};
  const out: PromptBlock[] = [];
  for (const tool of list(b.tools)) {
    const json = JSON.stringify(isObj(tool) ? withoutCacheControl(tool) : tool) ?? '';
    out.push({ key: `tool:${json}`, tokens: textTokens(json), imageTokens: 0, breakpoint: hasBreakpoint(tool), section: 'tools' });
  }
  const system = typeof b.system === 'string' ? [{ type: 'text', text: b.system }] : list(b.system);
  for (const block of system) {
    const t = contentTokens(block);
    out.push({ key: keyOf('system', block), tokens: t.tokens, imageTokens: 0, breakpoint: hasBreakpoint(block), section: 'system' });
  }
  for (const message of list(b.messages)) {
    if (!isObj(message)) continue;
    const role = typeof message.role === 'string' ? message.role : '?';
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : list(message.content);
    content.forEach((block, i) => {
      const t = contentTokens(block);
      // The first block of a message also stands for the message boundary (a role change).
      out.push({ key: `${i === 0 ? '>' : ''}${keyOf(role, block)}`, tokens: t.tokens, imageTokens: t.imageTokens, breakpoint: hasBreakpoint(block), section: 'messages' });
    });
  }
  return out;
}

/** Images in a block list (the estimator's own count, for reports). */
export function imageCount(body: unknown): number {
  const b = isObj(body) ? body : {};
  let n = 0;
  for (const message of list(b.messages)) {
    if (!isObj(message)) continue;
    for (const block of typeof message.content === 'string' ? [] : list(message.content)) n += contentTokens(block).images;
  }
  return n;
}

/**
 * The prompt cache across the requests of one run, in order. Each request reads the
 * longest prefix an earlier breakpoint wrote (within the look-back of one of its own
 * breakpoints), writes up to its last breakpoint, and leaves the rest uncached.
 */
export class PromptCache {
  private readonly entries = new Set<string>();

  request(blocks: readonly PromptBlock[], images = 0): RequestEstimate {
    // prefix[j] identifies blocks[0..j).
    const prefix: string[] = [''];
    for (const block of blocks) prefix.push(createHash('sha1').update(prefix[prefix.length - 1]!).update('\u0000').update(block.key).digest('hex'));
    const ends = blocks.flatMap((block, i) => (block.breakpoint ? [i + 1] : []));
    let hit = 0;
    for (const end of ends) {
      for (let j = end; j >= Math.max(1, end - CACHE_LOOKBACK_BLOCKS); j--) {
        if (this.entries.has(prefix[j]!)) {
          hit = Math.max(hit, j);
          break;
        }
      }
    }
    const lastEnd = ends.length ? ends[ends.length - 1]! : 0;
    const sum = (from: number, to: number) => blocks.slice(from, to).reduce((s, b) => s + b.tokens, 0);
    const raw = sum(0, blocks.length);
    const cacheRead = sum(0, hit);
    const cacheWrite = lastEnd > hit ? sum(hit, lastEnd) : 0;
    const uncached = raw - cacheRead - cacheWrite;
    for (const end of ends) this.entries.add(prefix[end]!);
    return {
      raw,
      imageTokens: blocks.reduce((s, b) => s + b.imageTokens, 0),
      images,
      cacheRead,
      cacheWrite,
      uncached,
      weighted: cacheRead * CACHE_READ_WEIGHT + cacheWrite * CACHE_WRITE_WEIGHT + uncached,
      breakpoints: ends.length,
    };
  }
}

export interface RunEstimate {
  requests: RequestEstimate[];
  raw: number;
  weighted: number;
  cacheRead: number;
  cacheWrite: number;
  uncached: number;
  imageTokens: number;
  /** Share of requests that read more than their tools + system from the cache. */
  conversationHitRate: number;
  /** Most breakpoints any request carried (the API allows 4). */
  maxBreakpoints: number;
}

/** Estimates a run's Anthropic request bodies, in the order they were sent. */
export function estimateAnthropicRun(bodies: readonly unknown[]): RunEstimate {
  const cache = new PromptCache();
  const requests: RequestEstimate[] = [];
  let conversationHits = 0;
  for (const body of bodies) {
    const blocks = anthropicBlocks(body);
    const estimate = cache.request(blocks, imageCount(body));
    const prefixTokens = blocks.filter((b) => b.section !== 'messages').reduce((s, b) => s + b.tokens, 0);
    if (estimate.cacheRead > prefixTokens) conversationHits += 1;
    requests.push(estimate);
  }
  const total = (pick: (r: RequestEstimate) => number) => requests.reduce((s, r) => s + pick(r), 0);
  return {
    requests,
    raw: total((r) => r.raw),
    weighted: total((r) => r.weighted),
    cacheRead: total((r) => r.cacheRead),
    cacheWrite: total((r) => r.cacheWrite),
    uncached: total((r) => r.uncached),
    imageTokens: total((r) => r.imageTokens),
    conversationHitRate: requests.length > 1 ? conversationHits / (requests.length - 1) : 0,
    maxBreakpoints: Math.max(0, ...requests.map((r) => r.breakpoints)),
  };
}

/** The part of a request that must never change during a run: tools and system, as bytes. */
export function anthropicPrefix(body: unknown): string {
  const b = isObj(body) ? body : {};
  return JSON.stringify({ tools: b.tools ?? null, system: b.system ?? null });
}
