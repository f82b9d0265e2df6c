import { describe, expect, it } from 'vitest';
import { ACT_TOOL_NAME, ACT_TOOL_SPEC, readActInput, readPlannerText } from '../../../src/main/agent/harness/planner/wire.js';
import { plannerTextReply } from '../../../src/main/agent/harness/planner/text-calls.js';
import { READABLE } from './planner-wire-rows.js';

/**
 * The planner's wire (issue 33 item 1) as a conformance set: each row is a reply in the
 * text form and the `act` input it must come to — the same input the function-calling form
 * sends — or the words of its refusal. planner-wire-sdk.fast sends the whole set through the
 * real OpenAI SDK against the fake model server, streamed, as text and as tool calls: apart,
 * so that a mutant of wire.ts is judged by this file alone (no SDK loaded, no server).
 */

const UNREADABLE: ReadonlyArray<readonly [string, RegExp]> = [
  ["click('the Save button')", /JSON string literals/],
  ['click(the Save button)', /JSON string literals/],
  ['click("OK", "Cancel")', /click takes at most 1 argument \(target\), got 2/],
  ['click()', /target: click needs target/],
  ['click("")', /target: a target description must not be empty/],
  ['click("   ")', /target: a target description must not be empty/],
  [`click(${JSON.stringify('x'.repeat(301))})`, /at most 300 characters/],
  ['type_into("the Name field")', /text: type_into needs text/],
  ['scroll("the list", "sideways", 3)', /direction/],
  ['scroll("the list", "down", 0)', /amount/],
  ['scroll("the list", "down", 2.5)', /amount/],
  ['wait("2")', /seconds/],
  ['wait(61)', /seconds/],
  ['key()', /keys: key needs keys/],
  ['click("OK") then wait', /an action is one line/],
  ['click(["OK"])', /strings or numbers/],
  ['done("a", "b")', /done takes at most 1 argument \(reason\)/],
];

describe('the text form', () => {
  it.each(READABLE)('%s → its act input, accepted by the act schema', (line, input) => {
    const read = readPlannerText(`I look at the screen.\nThe next step is clear.\n${line}`);
    expect(read).toEqual({ kind: 'action', thoughts: 'I look at the screen.\nThe next step is clear.', line: line.trim(), input, later: 0 });
    expect(readActInput(input)).toEqual({ ok: true, act: input });
  });

  it.each(UNREADABLE)('%s is unreadable and says why', (line, why) => {
    const reply = plannerTextReply(`thinking\n${line}`, 0);
    expect(reply.calls).toEqual([]);
    expect(reply.thoughts).toBe('thinking');
    expect(reply.unreadable).toMatch(why);
    expect(reply.unreadable).toMatch(/Expected: one action per line/);
  });

  it('the first action line is the action; later ones are counted, never run; a bad first line is not skipped', () => {
    const read = readPlannerText('Plan: press 2, then plus.\nclick("the 2 button")\nclick("the + button")\nwait(1)');
    expect(read).toMatchObject({ kind: 'action', input: { action: 'click', target: 'the 2 button' }, later: 2 });
    expect(readPlannerText('click(2)\nclick("the 2 button")')).toMatchObject({ kind: 'action', input: { action: 'click', target: 2 } });
    expect(plannerTextReply('click(2)\nclick("the 2 button")', 0).unreadable).toMatch(/target/);
    expect(readPlannerText("click('x')\nclick(\"x\")").kind).toBe('unreadable');
    // Prose after the action is no later action.
    expect(readPlannerText('click("x")\nThen I will check the result.\nwait(1)')).toMatchObject({ kind: 'action', later: 1 });
  });

  it('a space between the name and its parenthesis, and between a semicolon and a closing tick, is allowed', () => {
    expect(readPlannerText('click ("OK")')).toMatchObject({ kind: 'action', input: { action: 'click', target: 'OK' } });
    expect(readPlannerText('`click("OK"); `')).toMatchObject({ kind: 'action', input: { action: 'click', target: 'OK' } });
  });

  it('thoughts and the line are read without the blank lines and spaces around them; too many arguments are counted in the plural', () => {
    expect(readPlannerText('\n  Look first.  \n\n  click("x")  ')).toEqual({ kind: 'action', thoughts: 'Look first.', line: 'click("x")', input: { action: 'click', target: 'x' }, later: 0 });
    expect(readPlannerText('  \n  I think.  \n\n')).toEqual({ kind: 'none', thoughts: 'I think.' });
    expect(readPlannerText('type_into("a", "b", "c")')).toEqual({ kind: 'unreadable', thoughts: '', line: 'type_into("a", "b", "c")', error: 'type_into("a", "b", "c"): type_into takes at most 2 arguments (target, text), got 3' });
    expect(readPlannerText('click(null)')).toMatchObject({ kind: 'unreadable', error: 'click(null): arguments must be strings or numbers, not null' });
    expect(readPlannerText('click(true)')).toMatchObject({ kind: 'unreadable', error: 'click(true): arguments must be strings or numbers, not true' });
  });

  it('a reply without an action line is unreadable, with the way out', () => {
    expect(readPlannerText('I think the task is complete.')).toEqual({ kind: 'none', thoughts: 'I think the task is complete.' });
    expect(plannerTextReply('All done, the result is 5.', 3).unreadable).toMatch(/no action line.*done\("…"\)/s);
    // A word that is not an action name, or a name inside prose, is a thought.
    expect(readPlannerText('press("ok")\nI will click("x") soon').kind).toBe('none');
  });

  it('a readable line becomes one act call, its input the tool form', () => {
    expect(plannerTextReply('ok\nkey("Return")', 4)).toEqual({ thoughts: 'ok', calls: [{ callId: 'plan_4', name: ACT_TOOL_NAME, input: { action: 'key', keys: 'Return' }, actions: [] }] });
  });
});

describe('the act tool form', () => {
  it('declares one strict tool whose action names are the text form\'s', () => {
    expect(ACT_TOOL_SPEC.name).toBe('act');
    const params = ACT_TOOL_SPEC.parameters as { properties: Record<string, { enum?: string[] }>; required: string[]; additionalProperties: boolean };
    expect(params.properties.action!.enum).toEqual(['click', 'double_click', 'right_click', 'type', 'type_into', 'key', 'scroll', 'drag', 'wait', 'done', 'fail']);
    expect(params.required).toEqual(['action']);
    expect(params.additionalProperties).toBe(false);
    expect(Object.keys(params.properties).sort()).toEqual(['action', 'amount', 'direction', 'keys', 'reason', 'seconds', 'target', 'text', 'to']);
  });

  it('refuses a field the action does not take, an unknown key and an unknown action, naming the field', () => {
    expect(readActInput({ action: 'click', target: 'OK', text: 'hello' })).toEqual({ ok: false, error: 'act was not accepted: text: click takes no text' });
    expect(readActInput({ action: 'type', text: 'a', target: 'the field' })).toEqual({ ok: false, error: 'act was not accepted: target: type takes no target' });
    expect(readActInput({ action: 'done', seconds: 1 })).toEqual({ ok: false, error: 'act was not accepted: seconds: done takes no seconds' });
    expect(readActInput({ action: 'click', target: 'OK', x: 3 })).toMatchObject({ ok: false, error: expect.stringMatching(/Unrecognized key.*"x"/) });
    expect(readActInput({ action: 'tap', target: 'OK' })).toMatchObject({ ok: false, error: expect.stringMatching(/^act was not accepted: action: /) });
    expect(readActInput('click OK')).toMatchObject({ ok: false, error: expect.stringMatching(/^act was not accepted: /) });
    expect(readActInput({ action: 'drag', target: 'a' })).toEqual({ ok: false, error: 'act was not accepted: to: drag needs to' });
    expect(readActInput({ action: 'fail', reason: 'no app', keys: 'x' })).toEqual({ ok: false, error: 'act was not accepted: keys: fail takes no keys' });
  });

  it('every field an action does not take is refused by name', () => {
    for (const [field, value] of [['text', 'a'], ['keys', 'a'], ['to', 'the Trash'], ['direction', 'down'], ['amount', 2], ['seconds', 1]] as const) {
      expect(readActInput({ action: 'click', target: 'OK', [field]: value }), field).toEqual({ ok: false, error: `act was not accepted: ${field}: click takes no ${field}` });
    }
    expect(readActInput({ action: 'key', keys: 'a', target: 'OK' })).toEqual({ ok: false, error: 'act was not accepted: target: key takes no target' });
    // Input that is no object at all has no field to name.
    expect(readActInput('click OK')).toEqual({ ok: false, error: 'act was not accepted: Invalid input: expected object, received string' });
  });

  it('tells the planner what each field is for, in the tool it is given', () => {
    expect(ACT_TOOL_SPEC.description).toBe(
      'Do one thing on the screen. Name the element in words (target, to); DeskPilot finds it by the accessibility tree, the words on screen and a grounding model. ' +
        'An ambiguous or missing target comes back with the candidates: describe it better.',
    );
    const params = ACT_TOOL_SPEC.parameters as { properties: Record<string, { description?: string }> };
    expect(Object.fromEntries(Object.entries(params.properties).map(([k, v]) => [k, v.description]))).toEqual({
      action: 'What to do. done: the task is complete; fail: the task cannot be done.',
      target: 'The element to act on, in words a person would use: "the Save button in the dialog", "the Name field". Never coordinates.',
      text: 'type and type_into: the text to type, exactly.',
      keys: 'key: a key or combination, e.g. "Return", "ctrl+s".',
      to: 'drag: where to drop, in words.',
      direction: 'scroll: which way.',
      amount: 'scroll: wheel notches (default 3).',
      seconds: 'wait: seconds to wait.',
      reason: 'Why (for the person approving); for done the summary, for fail why the task cannot be done.',
    });
  });

  it('trims a target and keeps reason on any action', () => {
    expect(readActInput({ action: 'click', target: '  OK  ', reason: 'to confirm' })).toEqual({ ok: true, act: { action: 'click', target: 'OK', reason: 'to confirm' } });
  });
});
