/**
 * The planner's text-form lines every reader must accept (issue 33 item 1), each with the
 * `act` input it comes to — the input the function-calling form sends. Shared by
 * planner-wire.fast (the reader) and planner-wire-sdk.fast (the same rows through the
 * real OpenAI SDK).
 */
export const READABLE: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['click("the Save button")', { action: 'click', target: 'the Save button' }],
  ['double_click("report.pdf in the file list")', { action: 'double_click', target: 'report.pdf in the file list' }],
  ['right_click("the desktop")', { action: 'right_click', target: 'the desktop' }],
  ['type_into("the Name field", "report.pdf")', { action: 'type_into', target: 'the Name field', text: 'report.pdf' }],
  ['type("He said \\"hi\\" — ½ € ✓\\n")', { action: 'type', text: 'He said "hi" — ½ € ✓\n' }],
  ['key("ctrl+s")', { action: 'key', keys: 'ctrl+s' }],
  ['scroll("the file list", "down", 3)', { action: 'scroll', target: 'the file list', direction: 'down', amount: 3 }],
  ['scroll("the page", "up")', { action: 'scroll', target: 'the page', direction: 'up' }],
  ['drag("the file icon", "the Trash")', { action: 'drag', target: 'the file icon', to: 'the Trash' }],
  ['wait(2)', { action: 'wait', seconds: 2 }],
  ['wait(0.5)', { action: 'wait', seconds: 0.5 }],
  ['done("The sum is 5")', { action: 'done', reason: 'The sum is 5' }],
  ['done()', { action: 'done' }],
  ['fail("The app is not installed")', { action: 'fail', reason: 'The app is not installed' }],
  // Forms models write around a line: inline code ticks, a trailing semicolon, spaces.
  ['`click("OK")`', { action: 'click', target: 'OK' }],
  ['  click( "OK" ) ;', { action: 'click', target: 'OK' }],
  ['click("a (b) c)")', { action: 'click', target: 'a (b) c)' }],
];
