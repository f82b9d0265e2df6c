import type { ToolResultItem } from '../transcript.js';

/**
 * How the result of a call the model wrote as text (no tool call on the wire: the planner's
 * text form, UI-TARS, Qwen text tool calls) goes back: as user text. The wire has no call to
 * answer — Anthropic and Responses reject a tool_result / function_call_output whose id the
 * reply never carried — yet the model must hear it ("ambiguous, candidates …", a refusal).
 */
export function textCallResult(item: Pick<ToolResultItem, 'ok' | 'text'>): string {
  return `Result: ${item.ok ? item.text || 'Done.' : `Error: ${item.text}`}`;
}
