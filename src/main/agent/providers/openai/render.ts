import { z } from 'zod';
import type { AssistantItem, TranscriptImage, TranscriptItem } from '../../transcript.js';
import { textCallResult } from '../text-call-result.js';

/**
 * The neutral transcript → OpenAI Responses `input` items.
 *
 * Chained (the normal case): the last assistant turn has a response id; we send
 * `previous_response_id` and only what came after it — computer_call_output (with the
 * screenshot and any acknowledged safety checks), function_call_output and user
 * messages. Every call of that turn is answered; the calls of a turn read from its text
 * (`fromText`: the planner's text form) were never calls on the server, so their results
 * go as user messages.
 * Replay (no response id, e.g. a resumed run whose server state is gone): the whole
 * transcript as plain messages, calls described in text, so nothing refers to
 * server state that may not exist.
 */

export const OpenAIStateSchema = z.object({ responseId: z.string(), fromText: z.boolean().optional() });
export const PRUNED_NOTE = '[older screenshot removed to save context]';
export const NOT_RUN_NOTE = 'Not executed: an earlier action of this turn failed or the turn was interrupted.';

export type InputItem = Record<string, unknown>;

export interface RenderedInput {
  previousResponseId?: string;
  input: InputItem[];
}

const dataUrl = async (image: TranscriptImage) => `data:${image.mediaType};base64,${(await image.load()).toString('base64')}`;

function responseIdOf(item: TranscriptItem): string | undefined {
  if (item.role !== 'assistant') return undefined;
  const s = OpenAIStateSchema.safeParse(item.providerState);
  return s.success ? s.data.responseId : undefined;
}

async function userMessage(text: string, image: TranscriptImage | undefined, pruned: boolean | undefined, detail: string): Promise<InputItem | undefined> {
  const content: InputItem[] = [];
  if (text) content.push({ type: 'input_text', text });
  if (image && !pruned) content.push({ type: 'input_image', image_url: await dataUrl(image), detail });
  else if (pruned) content.push({ type: 'input_text', text: PRUNED_NOTE });
  return content.length ? { role: 'user', content } : undefined;
}

export async function renderInput(
  transcript: readonly TranscriptItem[],
  detail: 'original' | 'high' | 'auto',
  options: { chain?: boolean } = {},
): Promise<RenderedInput> {
  let last = -1;
  for (let i = transcript.length - 1; i >= 0 && options.chain !== false; i--) {
    if (responseIdOf(transcript[i]!)) {
      last = i;
      break;
    }
  }
  if (last === -1) return { input: await renderReplay(transcript, detail) };

  const turn = transcript[last] as AssistantItem;
  const tail = transcript.slice(last + 1);
  const computerCalls = new Set(turn.calls.filter((c) => c.name === 'computer').map((c) => c.callId));
  const fromText = OpenAIStateSchema.safeParse(turn.providerState).data?.fromText === true;
  const pending = new Set(fromText ? [] : turn.calls.map((c) => c.callId));
  const textCalls = new Set(fromText ? turn.calls.map((c) => c.callId) : []);
  // A computer_call_output must carry a screenshot; a call answered without one (not the
  // last of its turn) borrows the newest screenshot of this segment.
  // When the screen did not change after the turn (the runner then sends no new image),
  // the newest screenshot before it shows the same pixels.
  let fallback: TranscriptImage | undefined;
  for (const item of transcript) if (item.role !== 'assistant' && item.image && !item.imagePruned && !item.image.zoom) fallback = item.image;
  for (const item of tail) if (item.role !== 'assistant' && item.image && !item.imagePruned) fallback = item.image;

  const input: InputItem[] = [];
  const notes: InputItem[] = [];
  for (const item of tail) {
    if (item.role === 'tool_result' && textCalls.delete(item.callId)) {
      const m = await userMessage(textCallResult(item), item.image, item.imagePruned, detail);
      if (m) notes.push(m);
    } else if (item.role === 'tool_result') {
      if (!pending.delete(item.callId)) continue;
      if (computerCalls.has(item.callId)) {
        const image = item.image && !item.imagePruned ? item.image : fallback;
        if (image) {
          input.push({
            type: 'computer_call_output',
            call_id: item.callId,
            output: { type: 'computer_screenshot', image_url: await dataUrl(image) },
            ...(item.acknowledgedSafetyChecks?.length ? { acknowledged_safety_checks: item.acknowledgedSafetyChecks } : {}),
          });
        }
        if (!item.ok || item.text) {
          notes.push({ role: 'user', content: [{ type: 'input_text', text: `${item.ok ? 'Computer action output' : 'Computer action failed'}: ${item.text}` }] });
        }
      } else {
        input.push({ type: 'function_call_output', call_id: item.callId, output: item.ok ? item.text || 'Done.' : `Error: ${item.text}` });
        if (item.image && !item.imagePruned) {
          const m = await userMessage(`Screenshot after ${item.name}:`, item.image, false, detail);
          if (m) notes.push(m);
        }
      }
    } else if (item.role === 'user') {
      const m = await userMessage(item.text, item.image, item.imagePruned, detail);
      if (m) notes.push(m);
    }
  }
  for (const callId of pending) {
    if (computerCalls.has(callId)) {
      if (fallback) input.push({ type: 'computer_call_output', call_id: callId, output: { type: 'computer_screenshot', image_url: await dataUrl(fallback) } });
      notes.push({ role: 'user', content: [{ type: 'input_text', text: `Computer call ${callId}: ${NOT_RUN_NOTE}` }] });
    } else {
      input.push({ type: 'function_call_output', call_id: callId, output: NOT_RUN_NOTE });
    }
  }
  return { previousResponseId: responseIdOf(turn)!, input: [...input, ...notes] };
}

async function renderReplay(transcript: readonly TranscriptItem[], detail: string): Promise<InputItem[]> {
  const out: InputItem[] = [];
  for (const item of transcript) {
    if (item.role === 'assistant') {
      const calls = item.calls.map((c) => `[called ${c.name} ${JSON.stringify(c.input).slice(0, 500)}]`);
      const text = [item.text, ...calls].filter(Boolean).join('\n');
      if (text) out.push({ role: 'assistant', content: text });
    } else {
      const text = item.role === 'tool_result' ? `Result of ${item.name}${item.ok ? '' : ' (failed)'}: ${item.text}` : item.text;
      const m = await userMessage(text, item.image, item.imagePruned, detail);
      if (m) out.push(m);
    }
  }
  return out;
}
