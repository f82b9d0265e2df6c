import type { ToolSpec } from '../../providers/tool-spec.js';
import type { ModelCall } from '../../transcript.js';
import { ACT_TOOL_NAME, readActInput, readPlannerText, TEXT_FORM_EXAMPLE } from './wire.js';

/** What a planner's text reply comes to: its thoughts, and its action as an `act` call, or why none could be read. */
export interface PlannerTextReply {
  thoughts: string;
  calls: ModelCall[];
  /** Set when no action could be read: told back to the planner (runner/unreadable.ts: twice, then the run ends). */
  unreadable?: string;
}

const EXPECTED = `Expected: ${TEXT_FORM_EXAMPLE}; done("…") when the task is complete, fail("why") when it cannot be done`;

/**
 * A reply with no tool call, read in the planner's text form (wire.ts): the first action
 * line becomes one `act` call with the same input the tool would have had, checked by the
 * same schema here so that a bad line counts as unreadable, as a bad line of any other text
 * format does. A reply without an action line is unreadable too: the planner ends a task
 * with done(…), never by falling silent.
 */
export function plannerTextReply(reply: string, seq: number): PlannerTextReply {
  const read = readPlannerText(reply);
  switch (read.kind) {
    case 'none':
      return { thoughts: read.thoughts, calls: [], unreadable: `the reply has no action line. ${EXPECTED}` };
    case 'unreadable':
      return { thoughts: read.thoughts, calls: [], unreadable: `${read.error}. ${EXPECTED}` };
    case 'action': {
      const act = readActInput(read.input);
      if (!act.ok) return { thoughts: read.thoughts, calls: [], unreadable: `${read.line}: ${act.error}. ${EXPECTED}` };
      return { thoughts: read.thoughts, calls: [{ callId: `plan_${seq}`, name: ACT_TOOL_NAME, input: read.input, actions: [] }] };
    }
  }
}

/**
 * A reply of a run that offers `act` (the planner-grounder harness) with no tool call, read in
 * the text form on any family's wire; undefined when the reply called a tool or the run does
 * not offer act (another harness's prose is no action). Every family calls this, so a planner
 * without function calling is read the same on Messages, Responses and Chat Completions.
 */
export function plannerTextFallback(text: string, calls: readonly ModelCall[], offered: readonly ToolSpec[], seq: number): PlannerTextReply | undefined {
  if (calls.length > 0 || !offered.some((tool) => tool.name === ACT_TOOL_NAME)) return undefined;
  return plannerTextReply(text, seq);
}
