/**
 * Does a reply without a readable tool call still look like an attempted action? Then
 * it is not a final answer: the runner tells the model what was wrong and asks again
 * (issue 14 class 6). Each pattern is an action notation some model family writes into
 * its text: Hermes/Qwen `<tool_call>`, seed XML, the omni `<computer_env>` wrapper,
 * UI-TARS `Action:` lines and `click(start_box=…)` calls, a JSON action object.
 */
const ACTION_LOOKS: ReadonlyArray<[RegExp, string]> = [
  [/<\/?tool_call>/, 'a <tool_call> block'],
  [/<\/?seed:tool_call>|<function[=\s]/, 'a <seed:tool_call>/<function=…> block'],
  [/<computer_env>/, 'a <computer_env> block'],
  [/(?:^|\n)\s*Action\s*[:：]/, 'an "Action:" line'],
  [/"action"\s*:\s*"[A-Za-z_]+"/, 'a JSON action object'],
  [/\b[A-Za-z_]+\s*\(\s*(?:start_box|end_box|point|start_point|coordinate|content|key|direction)\s*=/, 'an action call'],
];

/** What in the text looks like an attempted action, or undefined for plain prose. */
export function actionLook(text: string): string | undefined {
  for (const [pattern, what] of ACTION_LOOKS) if (pattern.test(text)) return what;
  return undefined;
}
