import sharp from 'sharp';
import type { FakeImage, FakeProtocol, FakeRequest, FakeToolResult } from './types.js';

/**
 * Reads a request body of any of the three protocols into the neutral facts a test
 * asserts on: images (decoded with sharp for their real pixel size), tool results,
 * the last user text and the offered tool names.
 */

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

async function decodeImage(mediaType: string, base64: string): Promise<FakeImage> {
  const buf = Buffer.from(base64, 'base64');
  try {
    const meta = await sharp(buf).metadata();
    return { mediaType, width: meta.width ?? 0, height: meta.height ?? 0, bytes: buf.length };
  } catch {
    // An undecodable image is recorded with size 0 so a test can assert on it.
    return { mediaType, width: 0, height: 0, bytes: buf.length };
  }
}

async function decodeDataUrl(url: string): Promise<FakeImage | undefined> {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!m) return undefined;
  return decodeImage(m[1]!, m[2]!);
}

interface Facts {
  images: FakeImage[];
  toolResults: FakeToolResult[];
  lastUserText: string;
  toolNames: string[];
}

// ---------- Anthropic Messages ----------
async function anthropicBlockImages(blocks: unknown[]): Promise<FakeImage[]> {
  const out: FakeImage[] = [];
  for (const b of blocks) {
    if (!isObj(b) || b.type !== 'image' || !isObj(b.source)) continue;
    if (b.source.type === 'base64') out.push(await decodeImage(str(b.source.media_type), str(b.source.data)));
  }
  return out;
}

async function anthropicFacts(body: Json): Promise<Facts> {
  const facts: Facts = { images: [], toolResults: [], lastUserText: '', toolNames: [] };
  for (const msg of arr(body.messages)) {
    if (!isObj(msg)) continue;
    const content = typeof msg.content === 'string' ? [{ type: 'text', text: msg.content }] : arr(msg.content);
    const texts: string[] = [];
    for (const block of content) {
      if (!isObj(block)) continue;
      if (block.type === 'text') texts.push(str(block.text));
      if (block.type === 'image') facts.images.push(...(await anthropicBlockImages([block])));
      if (block.type === 'tool_result') {
        const inner = typeof block.content === 'string' ? [{ type: 'text', text: block.content }] : arr(block.content);
        const images = await anthropicBlockImages(inner);
        facts.images.push(...images);
        facts.toolResults.push({
          callId: str(block.tool_use_id),
          text: inner.filter((b) => isObj(b) && b.type === 'text').map((b) => str((b as Json).text)).join('\n'),
          isError: block.is_error === true,
          images,
        });
      }
    }
    if (msg.role === 'user') facts.lastUserText = texts.join('\n');
  }
  for (const t of arr(body.tools)) if (isObj(t)) facts.toolNames.push(str(t.name) || str(t.type));
  return facts;
}

// ---------- OpenAI Responses ----------
async function responsesFacts(body: Json): Promise<Facts> {
  const facts: Facts = { images: [], toolResults: [], lastUserText: '', toolNames: [] };
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : arr(body.input);
  for (const item of input) {
    if (!isObj(item)) continue;
    if (item.type === 'computer_call_output') {
      const images: FakeImage[] = [];
      const out = isObj(item.output) ? item.output : {};
      const img = await decodeDataUrl(str(out.image_url));
      if (img) images.push(img);
      facts.images.push(...images);
      facts.toolResults.push({
        callId: str(item.call_id),
        text: '',
        isError: false,
        images,
        acknowledgedSafetyChecks: arr(item.acknowledged_safety_checks).filter(isObj).map((c) => ({
          id: str(c.id),
          code: str(c.code),
          message: str(c.message),
        })),
      });
      continue;
    }
    if (item.type === 'function_call_output') {
      const parts = typeof item.output === 'string' ? [{ type: 'input_text', text: item.output }] : arr(item.output);
      const images: FakeImage[] = [];
      const texts: string[] = [];
      for (const p of parts) {
        if (!isObj(p)) continue;
        if (p.type === 'input_text') texts.push(str(p.text));
        if (p.type === 'input_image') {
          const img = await decodeDataUrl(str(p.image_url));
          if (img) images.push(img);
        }
      }
      facts.images.push(...images);
      facts.toolResults.push({ callId: str(item.call_id), text: texts.join('\n'), isError: false, images });
      continue;
    }
    if (item.role === 'user' || item.role === 'system' || item.role === 'developer') {
      const content = typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : arr(item.content);
      const texts: string[] = [];
      for (const p of content) {
        if (!isObj(p)) continue;
        if (p.type === 'input_text') texts.push(str(p.text));
        if (p.type === 'input_image') {
          const img = await decodeDataUrl(str(p.image_url));
          if (img) facts.images.push(img);
        }
      }
      if (item.role === 'user') facts.lastUserText = texts.join('\n');
    }
  }
  for (const t of arr(body.tools)) if (isObj(t)) facts.toolNames.push(str(t.name) || str(t.type));
  return facts;
}

// ---------- OpenAI Chat Completions ----------
async function chatFacts(body: Json): Promise<Facts> {
  const facts: Facts = { images: [], toolResults: [], lastUserText: '', toolNames: [] };
  for (const msg of arr(body.messages)) {
    if (!isObj(msg)) continue;
    const content = typeof msg.content === 'string' ? [{ type: 'text', text: msg.content }] : arr(msg.content);
    const texts: string[] = [];
    const images: FakeImage[] = [];
    for (const p of content) {
      if (!isObj(p)) continue;
      if (p.type === 'text') texts.push(str(p.text));
      if (p.type === 'image_url' && isObj(p.image_url)) {
        const img = await decodeDataUrl(str(p.image_url.url));
        if (img) images.push(img);
      }
    }
    facts.images.push(...images);
    if (msg.role === 'tool') {
      facts.toolResults.push({ callId: str(msg.tool_call_id), text: texts.join('\n'), isError: false, images });
    } else if (msg.role === 'user') {
      facts.lastUserText = texts.join('\n');
    }
  }
  for (const t of arr(body.tools)) {
    if (isObj(t)) facts.toolNames.push(isObj(t.function) ? str(t.function.name) : str(t.type));
  }
  return facts;
}

export async function inspectRequest(
  protocol: FakeProtocol,
  body: Json,
): Promise<Pick<FakeRequest, 'images' | 'toolResults' | 'lastUserText' | 'toolNames'>> {
  if (protocol === 'anthropic') return anthropicFacts(body);
  if (protocol === 'responses') return responsesFacts(body);
  return chatFacts(body);
}
