import { z } from 'zod';
import type { TranscriptImage, TranscriptItem } from '../../transcript.js';
import { textCallResult } from '../text-call-result.js';

/**
 * The neutral transcript → Chat Completions `messages`.
 * Turns whose calls came as real tool_calls are replayed as tool_calls and answered
 * with `tool` messages (every call, a call not run gets an error note); screenshots
 * go in a following user message because many servers reject images in tool
 * messages. Turns parsed from text (UI-TARS, Qwen text tool calls) are replayed as
 * their raw text and answered in a user message.
 */

export const CompatStateSchema = z.object({ viaTools: z.boolean(), raw: z.string() });
export type CompatState = z.infer<typeof CompatStateSchema>;

export const PRUNED_NOTE = '[older screenshot removed to save context]';
export const NOT_RUN_NOTE = 'Not executed: an earlier action of this turn failed or the turn was interrupted.';

type Part = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
export type ChatMessage = Record<string, unknown>;

const imagePart = async (image: TranscriptImage): Promise<Part> => ({
  type: 'image_url',
  image_url: { url: `data:${image.mediaType};base64,${(await image.load()).toString('base64')}` },
});

export async function renderChat(system: string, transcript: readonly TranscriptItem[]): Promise<ChatMessage[]> {
  const messages: ChatMessage[] = [{ role: 'system', content: system }];
  let toolMsgs: ChatMessage[] = [];
  let parts: Part[] = [];
  let pending = new Map<string, boolean>(); // callId → answered via a tool message

  const flush = () => {
    for (const [id, viaTools] of pending) {
      if (viaTools) toolMsgs.push({ role: 'tool', tool_call_id: id, content: NOT_RUN_NOTE });
    }
    pending = new Map();
    messages.push(...toolMsgs);
    if (parts.length) messages.push({ role: 'user', content: parts });
    toolMsgs = [];
    parts = [];
  };
  const addImage = async (image: TranscriptImage | undefined, pruned: boolean | undefined) => {
    if (image && !pruned) parts.push(await imagePart(image));
    else if (pruned) parts.push({ type: 'text', text: PRUNED_NOTE });
  };

  for (const item of transcript) {
    if (item.role === 'assistant') {
      flush();
      const state = CompatStateSchema.safeParse(item.providerState);
      const viaTools = state.success ? state.data.viaTools : item.calls.length > 0;
      if (viaTools && item.calls.length) {
        messages.push({
          role: 'assistant',
          content: item.text || null,
          tool_calls: item.calls.map((c) => ({ id: c.callId, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input ?? {}) } })),
        });
      } else {
        messages.push({ role: 'assistant', content: (state.success ? state.data.raw : item.text) || '(no output)' });
      }
      for (const c of item.calls) pending.set(c.callId, viaTools);
    } else if (item.role === 'tool_result') {
      if (!pending.has(item.callId)) continue;
      const viaTools = pending.get(item.callId)!;
      pending.delete(item.callId);
      if (viaTools) toolMsgs.push({ role: 'tool', tool_call_id: item.callId, content: item.ok ? item.text || 'Done.' : `Error: ${item.text}` });
      else parts.push({ type: 'text', text: textCallResult(item) });
      await addImage(item.image, item.imagePruned);
    } else {
      if (item.text) parts.push({ type: 'text', text: item.text });
      await addImage(item.image, item.imagePruned);
    }
  }
  flush();
  return messages;
}
