import { z } from 'zod';
import type { AgentToolName } from './types.js';
import { fail, finalize, show, type ActionEntry, type ParseContext } from './parse/validate.js';

/**
 * The tools a run offers besides the computer, defined once (name, description, JSON
 * schema) and rendered by each provider in its own wire shape. The wire name of each
 * tool is its AgentToolName.
 *
 * shell / ask_user / finish parse into the shell / ask_user / finish actions.
 * find_text and qa_verdict are not actions: their calls parse into a ModelCall with
 * `actions: []` and the raw `input` left for the QA code (src/main/qa) to read.
 */

export interface AgentToolDef {
  name: AgentToolName;
  description: string;
  /** JSON Schema of the input object. */
  parameters: Record<string, unknown>;
}

const obj = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

export const AGENT_TOOLS: Record<AgentToolName, AgentToolDef> = {
  shell: {
    name: 'shell',
    description:
      'Run one shell command (bash on Linux/macOS, PowerShell on Windows) and get its output. A person approves every command first.',
    parameters: obj(
      {
        command: { type: 'string', description: 'The command line to run.' },
        timeout_seconds: { type: 'integer', minimum: 1, maximum: 600, description: 'Kill the command after this many seconds (default 60).' },
      },
      ['command'],
    ),
  },
  ask_user: {
    name: 'ask_user',
    description: 'Ask the person watching a question and wait for the answer (a missing detail, a choice, a password).',
    parameters: obj({ question: { type: 'string', description: 'The question, in one or two sentences.' } }, ['question']),
  },
  finish: {
    name: 'finish',
    description: 'End the task: success true when it is done, false when it cannot be done, with a short summary of what you did and saw.',
    parameters: obj({ success: { type: 'boolean' }, summary: { type: 'string' } }, ['success', 'summary']),
  },
  find_text: {
    name: 'find_text',
    description: 'Find a visible text label on the screen (OCR) and get the pixel coordinates of its matches in the latest screenshot.',
    parameters: obj({ text: { type: 'string', description: 'The label to look for, as it is written on screen.' } }, ['text']),
  },
  qa_verdict: {
    name: 'qa_verdict',
    description: 'Give the verdict of the test: pass, fail or blocked, with the reason and the evidence screenshots.',
    parameters: obj(
      {
        verdict: { type: 'string', enum: ['pass', 'fail', 'blocked'] },
        reason: { type: 'string' },
        evidence: {
          type: 'array',
          items: { type: 'string' },
          description: 'Observation ids of the screenshots that show it ("latest" for the current one); the first and the final screenshot are attached automatically.',
        },
        checks: {
          type: 'array',
          description:
            'For expectations marked "Expect …": the expectation number and, for text on screen, the region of the latest screenshot (its pixels) where it is shown.',
          items: {
            type: 'object',
            properties: {
              expectation: { type: 'integer', minimum: 1 },
              region: {
                type: 'object',
                properties: { x: { type: 'number' }, y: { type: 'number' }, width: { type: 'number' }, height: { type: 'number' } },
                required: ['x', 'y', 'width', 'height'],
                additionalProperties: false,
              },
            },
            required: ['expectation'],
            additionalProperties: false,
          },
        },
      },
      ['verdict', 'reason'],
    ),
  },
};

export const isAgentTool = (name: string): name is AgentToolName => Object.hasOwn(AGENT_TOOLS, name);

/** The definitions of the offered tools; a name we do not define is skipped, not sent half-made. */
export function agentToolDefs(tools: readonly string[]): AgentToolDef[] {
  return [...new Set(tools)].filter(isAgentTool).map((t) => AGENT_TOOLS[t]);
}

const ShellInput = z.object({ command: z.string(), timeout_seconds: z.number().int().min(1).max(600).optional() }).passthrough();
const AskInput = z.object({ question: z.string() }).passthrough();
const FinishInput = z.object({ success: z.boolean(), summary: z.string().optional() }).passthrough();

/** Parses an agent tool call's input into its actions (find_text / qa_verdict: none). */
export function parseAgentToolCall(name: AgentToolName, input: unknown, ctx: ParseContext): ActionEntry[] {
  const bad = (schema: z.ZodType, what: string): ActionEntry[] | undefined => {
    const r = schema.safeParse(input);
    if (r.success) return undefined;
    const i = r.error.issues[0];
    return [fail(`${name}: ${what}${i ? ` (${i.path.join('.') || 'input'}: ${i.message})` : ''}, got ${show(input)}`)];
  };
  switch (name) {
    case 'shell': {
      const err = bad(ShellInput, 'input must be {command, timeout_seconds?}');
      if (err) return err;
      const i = input as z.infer<typeof ShellInput>;
      return [finalize({ type: 'shell', command: i.command, ...(i.timeout_seconds ? { timeoutMs: i.timeout_seconds * 1000 } : {}) }, ctx)];
    }
    case 'ask_user': {
      const err = bad(AskInput, 'input must be {question}');
      if (err) return err;
      return [finalize({ type: 'ask_user', question: (input as z.infer<typeof AskInput>).question }, ctx)];
    }
    case 'finish': {
      const err = bad(FinishInput, 'input must be {success, summary}');
      if (err) return err;
      const i = input as z.infer<typeof FinishInput>;
      return [finalize({ type: 'finish', success: i.success, summary: i.summary ?? '' }, ctx)];
    }
    case 'find_text':
    case 'qa_verdict':
      return [];
  }
}
