import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider } from '../../../src/main/agent/providers/index.js';
import { ACT_TOOL_NAME, ACT_TOOL_SPEC, readActInput, readPlannerText } from '../../../src/main/agent/harness/planner/wire.js';
import { plannerTextReply } from '../../../src/main/agent/harness/planner/text-calls.js';
import type { TranscriptItem } from '../../../src/main/agent/transcript.js';
import { startFakeModel, type FakeModelServer } from '../../harness/fake-model/index.js';
import { FAST_RETRY, image, observation, signal } from '../../providers/helpers.js';

/**
 * The planner's wire (issue 33 item 1) as a conformance set: each row is a reply in the
 * text form and the `act` input it must come to — the same input the function-calling form
 * sends — or the words of its refusal. The whole set is then sent through the real OpenAI
 * SDK against the fake model server, streamed, as text and as tool calls.
 */
const READABLE: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
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

  it('trims a target and keeps reason on any action', () => {
    expect(readActInput({ action: 'click', target: '  OK  ', reason: 'to confirm' })).toEqual({ ok: true, act: { action: 'click', target: 'OK', reason: 'to confirm' } });
  });
});

describe('both forms through the fake model server, streamed', () => {
  let fake: FakeModelServer;
  beforeAll(async () => {
    fake = await startFakeModel();
  });
  afterAll(async () => {
    await fake.close();
  });
  const planner = () =>
    createProvider({ provider: 'openai-compatible', model: 'qwen2.5-coder:7b', harness: 'planner-grounder' }, { baseUrl: fake.openaiBaseUrl, timeoutMs: 5000, retry: FAST_RETRY });
  const request = () => ({
    system: 'sys',
    transcript: [{ role: 'user', text: 'add 2 and 3', image: image(640, 480) }] as TranscriptItem[],
    observation: observation(640, 480),
    tools: [ACT_TOOL_SPEC],
  });

  it('offers only act, and reads every row the same as text and as a tool call, in 3-character chunks', async () => {
    for (const [line, input] of READABLE) {
      fake.script({ text: `The display shows 0.\n${line}`, chunkSize: 3 }, { toolCalls: [{ id: 'c1', name: ACT_TOOL_NAME, input }], chunkSize: 3 });
      const p = planner();
      const asText = await p.turn(request(), signal());
      const asTool = await p.turn(request(), signal());
      expect(fake.requests.at(-1)!.toolNames).toEqual([ACT_TOOL_NAME]);
      expect(asText.unreadable).toBeUndefined();
      expect(asText.assistant.text).toBe('The display shows 0.');
      expect(asText.stopReason).toBe('tool_use');
      expect(asText.assistant.calls.map((c) => [c.name, c.input])).toEqual([[ACT_TOOL_NAME, input]]);
      expect(asTool.assistant.calls.map((c) => [c.name, c.input, c.actions])).toEqual([[ACT_TOOL_NAME, input, []]]);
    }
  });

  it('a text reply with no readable action is unreadable (the runner tells it back), a tool call never is', async () => {
    fake.script({ text: 'I am finished.', chunkSize: 2 }, { text: "click('OK')" });
    const p = planner();
    expect((await p.turn(request(), signal())).unreadable).toMatch(/no action line/);
    expect((await p.turn(request(), signal())).unreadable).toMatch(/JSON string literals/);
  });

  it('the text turn is replayed as its raw text and answered in a user message', async () => {
    fake.script({ text: 'thinking\nclick("the 2 button")' }, { text: 'done("5")' });
    const p = planner();
    const first = await p.turn(request(), signal());
    const next = request();
    next.transcript.push(first.assistant, { role: 'tool_result', callId: first.assistant.calls[0]!.callId, name: ACT_TOOL_NAME, ok: false, text: '"the 2 button" matches 2 places equally well' });
    await p.turn(next, signal());
    const body = fake.requests.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> };
    expect(body.messages[2]).toEqual({ role: 'assistant', content: 'thinking\nclick("the 2 button")' });
    expect(JSON.stringify(body.messages[3])).toContain('Error: \\"the 2 button\\" matches 2 places equally well');
  });
});
