import type { ImageTarget } from '../../../../os-control/types.js';
import type { ProviderProfile } from '../../../../shared/config.js';
import { defaultHarness, harnessOf, harnessProblem } from '../../../../shared/harnesses.js';
import { qwenCoordinates } from '../parse/qwen-vl.js';
import { uiTarsCoordinates } from '../parse/ui-tars.js';

/**
 * Which output format a model on an OpenAI-compatible server speaks, and the
 * screenshot it wants:
 * - tools: any function-calling vision model; our own `computer` function (shaped
 *   like Claude's computer tool, which most open models have seen).
 * - ui-tars: UI-TARS text actions; smart resize to multiples of 28 (Qwen2-VL patches).
 * - qwen-vl: Qwen-VL `computer_use` function calls; multiples of 28 (Qwen2.5-VL) or
 *   32 (Qwen3-VL: 16-px patches merged 2×2).
 */

export type CompatFormat = NonNullable<ProviderProfile['format']> | 'code' | 'planner-grounder';

/**
 * The harness a model on an OpenAI-compatible server speaks (shared/harnesses.ts
 * harnessOf: `harness`, else `format`, else by model id); for `hybrid`, the GUI format
 * inside it (execute is one of the request's tools, offered beside the computer function). A harness this wire cannot
 * carry was refused when the config was read (harnessProblem); here it is an error too.
 */
export function chooseFormat(profile: Pick<ProviderProfile, 'model' | 'format' | 'harness'>): CompatFormat {
  const problem = harnessProblem({ provider: 'openai-compatible', ...profile });
  if (problem) throw new Error(problem);
  const harness = harnessOf({ provider: 'openai-compatible', ...profile });
  // hybrid: the model's own GUI format (qwen-vl or tools; harnessProblem refused UI-TARS), with execute among the request's tools.
  const format = harness === 'hybrid' ? defaultHarness({ provider: 'openai-compatible', model: profile.model }) : harness;
  if (format === 'claude-computer' || format === 'openai-computer') throw new Error(`harness "${format}" does not run on openai-compatible`);
  return format;
}

export function compatImageTarget(format: CompatFormat, model: string): ImageTarget {
  switch (format) {
    case 'code':
    case 'ui-tars':
      // UI-TARS-1.5 was trained up to 16384 28-px patches; 1.0 on far fewer.
      return uiTarsCoordinates(model) === 'absolute'
        ? { format: 'jpeg', quality: 85, multipleOf: 28, maxPixels: 16384 * 28 * 28 }
        : { format: 'jpeg', quality: 85, multipleOf: 28, maxPixels: 2560 * 28 * 28 };
    case 'qwen-vl':
      return qwenCoordinates(model) === 'relative1000'
        ? { format: 'jpeg', quality: 85, multipleOf: 32, maxPixels: 2560 * 32 * 32 }
        : { format: 'jpeg', quality: 85, multipleOf: 28, maxPixels: 2560 * 28 * 28 };
    case 'tools':
    case 'planner-grounder':
      return { format: 'jpeg', quality: 85, maxLongEdge: 1568, maxPixels: 1568 * 28 * 28 };
  }
}

/** Our `computer` function for general function-calling models. */
export function genericComputerParameters(image: { width: number; height: number }): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      action: {
        type: 'string',
        enum: ['left_click', 'right_click', 'middle_click', 'double_click', 'triple_click', 'mouse_move', 'left_click_drag', 'scroll', 'type', 'key', 'wait', 'screenshot'],
      },
      coordinate: {
        type: 'array',
        items: { type: 'number' },
        description: `[x, y] in pixels of the latest ${image.width}x${image.height} screenshot (0,0 is the top-left corner).`,
      },
      start_coordinate: { type: 'array', items: { type: 'number' }, description: '[x, y] where a left_click_drag starts.' },
      text: { type: 'string', description: 'Text to type, the key combo for action=key (e.g. "ctrl+s", "Return"), or modifiers held during a click.' },
      scroll_direction: { type: 'string', enum: ['up', 'down', 'left', 'right'] },
      scroll_amount: { type: 'integer', minimum: 1, maximum: 50, description: 'Wheel notches (required for action=scroll).' },
      duration: { type: 'number', description: 'Seconds, for action=wait.' },
    },
    required: ['action'],
  };
}

/** The action space UI-TARS models were trained on, appended to the system prompt. */
export function uiTarsInstructions(): string {
  return [
    '## Output format',
    'Thought: a short plan and the next action, in one or two sentences.',
    'Action: one or more actions, one per line.',
    '',
    '## Action space',
    "click(start_box='<|box_start|>(x1,y1)<|box_end|>')",
    "left_double(start_box='<|box_start|>(x1,y1)<|box_end|>')",
    "right_single(start_box='<|box_start|>(x1,y1)<|box_end|>')",
    "drag(start_box='<|box_start|>(x1,y1)<|box_end|>', end_box='<|box_start|>(x3,y3)<|box_end|>')",
    "hotkey(key='ctrl c')",
    "type(content='text') # end content with \\n to submit",
    "scroll(start_box='<|box_start|>(x1,y1)<|box_end|>', direction='down or up or right or left')",
    'wait() # sleep 5 s, then look again',
    "finished(content='summary') # the task is done",
    'call_user() # you need the person to help',
  ].join('\n');
}
