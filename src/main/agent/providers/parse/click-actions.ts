/**
 * The click action names Claude's computer tool and Qwen-VL's computer_use function
 * share (both follow the same naming: anthropic SDK Computer*Input, Qwen-Agent
 * computer_use.py), with the button and click count each means. One table, read by
 * both parsers.
 */
export const CLICK_ACTIONS: Readonly<Record<string, { button: 'left' | 'right' | 'middle'; clicks: 1 | 2 | 3 }>> = {
  left_click: { button: 'left', clicks: 1 },
  right_click: { button: 'right', clicks: 1 },
  middle_click: { button: 'middle', clicks: 1 },
  double_click: { button: 'left', clicks: 2 },
  triple_click: { button: 'left', clicks: 3 },
};

/** The entry for a name, only for names the table holds (never Object.prototype's). */
export const clickAction = (name: string) => (Object.hasOwn(CLICK_ACTIONS, name) ? CLICK_ACTIONS[name] : undefined);
