import { ACT_TOOL_NAME } from './wire.js';

/**
 * What the planner-grounder harness tells the planner (appended to the system prompt): it
 * says what to act on in words, never where; DeskPilot finds the point (agent/resolve).
 * `text`: the model may answer without function calling (an OpenAI-compatible server), so
 * the one-action-per-line form is described with examples too.
 */
const HOW = [
  'How you act: you say WHAT to act on, in words; DeskPilot finds WHERE it is on the screen (the accessibility tree, the words on screen, a grounding model). Never give coordinates.',
  'Name targets as a person would: by their label or text, and when that is not enough by their kind and place ("the Save button in the dialog", "the field right of Name", "the 5 button").',
  'One action per reply. If a target is ambiguous or not found, nothing is done and you get the candidates back: describe it better.',
];

const ACTIONS = [
  'click(target), double_click(target), right_click(target)',
  'type_into(target, text): click the field, then type the text exactly',
  'type(text): type into whatever has the focus',
  'key(keys): a key or combination, e.g. "Return", "ctrl+s"',
  'scroll(target, direction, amount): direction up, down, left or right; amount in wheel notches (default 3)',
  'drag(target, to)',
  'wait(seconds)',
  'done(summary): the task is complete',
  'fail(why): the task cannot be done (the run ends unsuccessful)',
];

export function plannerHarnessPrompt(options: { fenced: boolean }): string {
  const call = `Act by calling the ${ACT_TOOL_NAME} tool with {action, target?, text?, keys?, to?, direction?, amount?, seconds?, reason?}. The actions:`;
  const text = [
    'If you cannot call tools, write the action on a line of its own, its strings as JSON string literals in double quotes; lines before it are your thoughts, and only the first action line is done. Examples:',
    '  The display shows 0; I press 2 first.',
    '  click("the 2 button")',
    '',
    '  type_into("the Name field", "report.pdf")',
    '  key("ctrl+s")',
    '  scroll("the file list", "down", 3)',
    '  done("The file is saved as report.pdf")',
  ];
  return [...HOW, call, ...ACTIONS.map((a) => `- ${a}`), ...(options.fenced ? text : [])].join('\n');
}
