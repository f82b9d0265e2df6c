import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { AssistantItem, TranscriptImage, TranscriptItem } from '../../transcript.js';
import { isBuiltinTool } from '../builtin-tools.js';
import { textCallResult } from '../text-call-result.js';
import type { ToolSpec } from '../tool-spec.js';
import type { ClaudeToolVersion } from './models.js';

/**
 * The neutral transcript → Anthropic Messages `messages`. Every tool_use is answered
 * by a tool_result in the next user message (a call the runner did not run gets an
 * error result saying so); tool results come first in that message, then any user
 * text and images; a pruned image leaves nothing behind, and a result with nothing to
 * say is sent without content. A call the model wrote as text (the planner's text form)
 * was never a tool_use: its result goes as user text after the tool results. Prompt-caching breakpoints (the API allows 4; the
 * provider puts the first on the system prompt, which caches tools + system): the last
 * two user messages, so each request reads what the previous one wrote, and the end of
 * the compacted start of the conversation (context.ts), so a request right after a
 * prune still reads everything up to the previous compacted end. A transient item (the
 * element list) goes last in its message and never carries a breakpoint.
 */

type Block = Anthropic.ContentBlockParam;
type ToolResultContent = Anthropic.ToolResultBlockParam['content'];

export const NOT_RUN_NOTE = 'Not executed: an earlier action of this turn failed or the turn was interrupted.';

const ReplayBlock = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }).passthrough(),
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }).passthrough(),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }).passthrough(),
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown(), toolset_name: z.string().nullish() }).passthrough(),
]);
/** What AssistantItem.providerState holds for Anthropic turns: the content blocks as returned. */
export const AnthropicStateSchema = z.object({ content: z.array(z.unknown()) });

async function imageBlock(image: TranscriptImage): Promise<Anthropic.ImageBlockParam> {
  const data = (await image.load()).toString('base64');
  return { type: 'image', source: { type: 'base64', media_type: image.mediaType, data } };
}

/**
 * Replays the blocks the API returned (thinking signatures intact); synthesises them
 * when the state is missing — then a call that names no function tool of the run (a
 * built-in or one of `tools`) was a member of the GA computer toolset.
 */
export function assistantBlocks(item: AssistantItem, version: ClaudeToolVersion, tools: readonly ToolSpec[]): Block[] {
  const state = AnthropicStateSchema.safeParse(item.providerState);
  const out: Block[] = [];
  if (state.success) {
    for (const raw of state.data.content) {
      const b = ReplayBlock.safeParse(raw);
      if (!b.success) continue;
      const v = b.data;
      if (v.type === 'text') {
        if (v.text) out.push({ type: 'text', text: v.text });
      } else if (v.type === 'thinking') out.push({ type: 'thinking', thinking: v.thinking, signature: v.signature });
      else if (v.type === 'redacted_thinking') out.push({ type: 'redacted_thinking', data: v.data });
      else out.push({ type: 'tool_use', id: v.id, name: v.name, input: v.input ?? {}, ...(v.toolset_name ? { toolset_name: v.toolset_name } : {}) });
    }
    return out;
  }
  if (item.text) out.push({ type: 'text', text: item.text });
  for (const call of item.calls) {
    const member = version === 'computer_toolset_20260801' && !isBuiltinTool(call.name) && !tools.some((t) => t.name === call.name);
    out.push({ type: 'tool_use', id: call.callId, name: call.name, input: call.input ?? {}, ...(member ? { toolset_name: 'computer' } : {}) });
  }
  return out;
}

export async function renderMessages(transcript: readonly TranscriptItem[], version: ClaudeToolVersion, tools: readonly ToolSpec[]): Promise<Anthropic.MessageParam[]> {
  const messages: Anthropic.MessageParam[] = [];
  let results: Anthropic.ToolResultBlockParam[] = [];
  let extra: Block[] = [];
  // Blocks of transient items (the element list): last in their message, never a cache breakpoint.
  let transient: Block[] = [];
  const transientBlocks = new Set<Block>();
  let pending = new Map<string, string | undefined>(); // callId → toolset_name
  let textCalls = new Set<string>(); // calls of the last turn read from its text: no tool_use to answer
  // Index the user message holding the last compacted item will have once flushed.
  let compactedEnd: number | undefined;

  const answerMissing = () => {
    for (const [id, toolset] of pending) {
      results.push({ type: 'tool_result', tool_use_id: id, is_error: true, content: NOT_RUN_NOTE, ...(toolset ? { toolset_name: toolset } : {}) });
    }
    pending = new Map();
  };
  const flushUser = () => {
    const content: Block[] = [...results, ...extra, ...transient];
    if (content.length) messages.push({ role: 'user', content });
    results = [];
    extra = [];
    transient = [];
  };

  for (const item of transcript) {
    if (item.role === 'assistant') {
      answerMissing();
      flushUser();
      const blocks = assistantBlocks(item, version, tools);
      if (blocks.length === 0) blocks.push({ type: 'text', text: '(no output)' });
      messages.push({ role: 'assistant', content: blocks });
      for (const b of blocks) if (b.type === 'tool_use') pending.set(b.id, b.toolset_name ?? undefined);
      textCalls = new Set(item.calls.map((c) => c.callId).filter((id) => !pending.has(id)));
    } else if (item.role === 'tool_result' && textCalls.delete(item.callId)) {
      extra.push({ type: 'text', text: textCallResult(item) });
      if (item.image && !item.imagePruned) extra.push(await imageBlock(item.image));
      if (item.compacted) compactedEnd = messages.length;
    } else if (item.role === 'tool_result') {
      if (!pending.has(item.callId)) continue; // an answer to nothing would be rejected by the API
      const toolset = pending.get(item.callId);
      pending.delete(item.callId);
      const content: Exclude<ToolResultContent, string | undefined> = [];
      if (item.text) content.push({ type: 'text', text: item.text });
      if (item.image && !item.imagePruned) content.push(await imageBlock(item.image));
      results.push({
        type: 'tool_result',
        tool_use_id: item.callId,
        is_error: !item.ok,
        ...(content.length ? { content } : {}),
        ...(toolset ? { toolset_name: toolset } : {}),
      });
      if (item.compacted) compactedEnd = messages.length;
    } else if (item.transient) {
      const block: Block = { type: 'text', text: item.text };
      transient.push(block);
      transientBlocks.add(block);
    } else {
      if (item.text) extra.push({ type: 'text', text: item.text });
      if (item.image && !item.imagePruned) extra.push(await imageBlock(item.image));
      if (item.compacted) compactedEnd = messages.length;
    }
  }
  answerMissing();
  flushUser();
  const marked = addCacheBreakpoints(messages, 2, transientBlocks);
  // The user message holding the last compacted item (flushed at index compactedEnd).
  if (compactedEnd !== undefined && !marked.has(compactedEnd)) markLastBlock(messages[compactedEnd], transientBlocks);
  return messages;
}

type Cacheable = Block & { cache_control?: Anthropic.CacheControlEphemeral | null };

/** cache_control on the last block of a user message that is not transient (a transient block changes every request). */
function markLastBlock(message: Anthropic.MessageParam | undefined, transient: ReadonlySet<Block>): boolean {
  if (!message || message.role !== 'user' || typeof message.content === 'string') return false;
  const kept = message.content.filter((b) => !transient.has(b));
  if (kept.length === 0) return false;
  const last = kept[kept.length - 1]! as Cacheable;
  if (last.type !== 'text' && last.type !== 'image' && last.type !== 'tool_result') return false;
  last.cache_control = { type: 'ephemeral' };
  return true;
}

/** cache_control on the last block of the last `count` user messages; returns their indices. */
function addCacheBreakpoints(messages: Anthropic.MessageParam[], count: number, transient: ReadonlySet<Block>): Set<number> {
  const marked = new Set<number>();
  for (let i = messages.length - 1; i >= 0 && marked.size < count; i--) {
    if (markLastBlock(messages[i], transient)) marked.add(i);
  }
  return marked;
}
