import { describe, expect, it } from 'vitest';
import { toCompatTurn } from '../../src/main/agent/providers/openai-compatible/provider.js';
import { actionLook } from '../../src/main/agent/providers/parse/unreadable.js';

// Which OpenAI-compatible replies are unreadable (issue 14 class 6): they look like an
// action, or their format needs one, but nothing in them can be read. Such a turn is
// never a final answer; prose is.

const ctx = { image: { width: 1288, height: 728 } };
const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
const reply = (content: string, toolCalls: Array<{ id: string; name: string; arguments: string }> = []) => ({
  content,
  reasoning: '',
  toolCalls,
  finishReason: 'stop',
  usage,
});

describe('unreadable OpenAI-compatible replies', () => {
  it.each([
    ['qwen-vl', 'qwen2.5-vl-7b', '<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [1, 2]</tool_call>', 'tool call is not valid JSON'],
    ['qwen-vl', 'qwen2.5-vl-7b', 'I will now click: {"action": "left_click", "coordinate": [1, 2]}', 'a JSON action object'],
    ['qwen-vl', 'qwen2.5-vl-7b', '<tool_call>{"name": "computer_use", "arguments": {"action": "fly"}}</tool_call>', 'unknown computer_use action'],
    ['tools', 'llava-next', "Thought: click it\nAction: click(start_box='(1,2)')", 'an "Action:" line'],
    ['tools', 'llava-next', '<function=click><parameter=point>1 2</parameter></function>', '<seed:tool_call>'],
    ['ui-tars', 'ui-tars-1.5-7b', 'Thought: I am not sure what to do.', 'the reply holds no action'],
    ['ui-tars', 'ui-tars-1.5-7b', "Action：clik(start_box='(1,2)')", 'unknown UI-TARS action'],
  ] as const)('%s %s: %j is unreadable, naming the problem and the expected format', (format, model, content, why) => {
    const turn = toCompatTurn(reply(content), format, model, ctx, 0, []);
    expect(turn.unreadable).toContain(why);
    expect(turn.unreadable).toContain('Expected:');
  });

  it.each([
    ['qwen-vl', 'qwen2.5-vl-7b', 'The form is submitted; the task is complete.'],
    ['tools', 'llava-next', 'All done. I clicked Save and the dialog closed.'],
    ['qwen-vl', 'qwen2.5-vl-7b', '<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [1, 2]}}</tool_call>'],
    ['ui-tars', 'ui-tars-1.5-7b', "Thought: Done.\nAction: finished(content='ok')"],
  ] as const)('%s %s: %j is readable (an answer or an action)', (format, model, content) => {
    expect(toCompatTurn(reply(content), format, model, ctx, 0, []).unreadable).toBeUndefined();
  });

  it('a tool call the server parsed but that fails is a tool error, answered like any other, not an unreadable reply', () => {
    const turn = toCompatTurn(reply('', [{ id: 'c1', name: 'computer', arguments: '{"action": "left_click", "coordinate": [99999, 1]}' }]), 'tools', 'llava-next', ctx, 0, []);
    expect(turn.assistant.calls[0]!.actions[0]!.ok).toBe(false);
    expect(turn.unreadable).toBeUndefined();
  });

  it('prose that merely mentions actions is not an action', () => {
    expect(actionLook('I clicked the button and typed the address; the page loaded.')).toBeUndefined();
    expect(actionLook("Action: click(start_box='(1,2)')")).toBeDefined();
  });
});
