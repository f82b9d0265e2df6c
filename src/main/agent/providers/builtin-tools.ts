import { z } from 'zod';
import { ElementOpSchema, MAX_ELEMENT_ID } from '../../../shared/actions.js';
import { CLAUDE_COMPUTER_ACTIONS } from './parse/claude-computer.js';
import { QWEN_TOOL_NAME } from './parse/qwen-vl.js';
import { UI_TARS_CALL_NAME } from './parse/ui-tars.js';
import { fail, finalize, show, type ActionEntry, type ParseContext } from './parse/validate.js';
import { TOOL_NAME_PATTERN, toolSpec, type ToolDeclaration, type ToolSpec } from './tool-spec.js';

/**
 * The tools every run offers besides the computer: shell, ask_user, finish and (when the
 * run grounds on elements) element. Their
 * calls parse into actions, so they pass the gate like any other action. Any other
 * tool a run offers (QA's, an MCP server's: `agent/tools/agent-tool.ts`) is only a
 * `ToolSpec` here: its call parses into a `ModelCall` with `actions: []` and the raw
 * `input`, and the runner hands it to the tool's handler. This layer names no tool of
 * its callers.
 */
export type BuiltinToolName = 'shell' | 'ask_user' | 'finish' | 'element';

const ShellInput = z.object({
  command: z.string().describe('The command line to run.'),
  timeout_seconds: z.number().int().min(1).max(600).optional().describe('Kill the command after this many seconds (default 60).'),
});
/**
 * The shell tool of a sandboxed run: it may ask again with more access (the code
 * harness's execute takes the same fields). Offered only when
 * commands run in a sandbox that can refuse (an unsandboxed run has nothing to escalate
 * to); the words are kept short because the declaration rides in every request (~60
 * tokens a request, issue 19's cost target: raw ≤ 0.8× keep-3).
 */
export const EscalationInput = {
  escalate: z
    .object({
      write: z.array(z.string()).max(16).optional().describe('Existing absolute paths it must write outside the sandbox.'),
      network: z.boolean().optional().describe('It needs the network.'),
    })
    .strict()
    .optional()
    .describe('Only after the sandbox refused it: run it again with this access (a person approves).'),
  reason: z.string().max(2000).optional().describe('Why it needs that access.'),
};
const SandboxedShellInput = ShellInput.extend(EscalationInput);
const AskInput = z.object({ question: z.string().describe('The question, in one or two sentences.') });
const FinishInput = z.object({ success: z.boolean(), summary: z.string().optional() });
const ElementInput = z.object({
  id: z.number().int().min(1).max(MAX_ELEMENT_ID).describe('Id in the latest element list.'),
  action: ElementOpSchema.describe('invoke runs its default action without the pointer.'),
  value: z.string().optional().describe('Text, for set_value only.'),
});

interface BuiltinTool extends ToolDeclaration {
  readonly name: BuiltinToolName;
  /** The shape, for the error message when a call does not fit it. */
  readonly shape: string;
}

export const BUILTIN_TOOLS: Readonly<Record<BuiltinToolName, BuiltinTool>> = {
  shell: {
    name: 'shell',
    // The system prompt's tool line says which shell (bash, PowerShell) and that a person approves each command.
    description: 'Run one shell command in a sandbox limiting what it may write and reach, and get its output.',
    input: SandboxedShellInput,
    shape: '{command, timeout_seconds?, escalate?: {write?: [path], network?}, reason?}',
  },
  ask_user: {
    name: 'ask_user',
    description: 'Ask the person watching a question and wait for the answer (a missing detail, a choice, a password).',
    input: AskInput,
    shape: '{question}',
  },
  element: {
    name: 'element',
    description:
      'Act on an element of the latest element list by its id.',
    input: ElementInput,
    shape: '{id, action, value?}',
  },
  finish: {
    name: 'finish',
    description: 'End the task: success true when it is done, false when it cannot be done, with a short summary of what you did and saw.',
    input: FinishInput,
    shape: '{success, summary}',
  },
};

export const isBuiltinTool = (name: string): name is BuiltinToolName => Object.hasOwn(BUILTIN_TOOLS, name);

/** The built-ins' wire form, generated once from their zod schemas. */
export const BUILTIN_TOOL_SPECS: readonly ToolSpec[] = Object.values(BUILTIN_TOOLS).map(toolSpec);

/** The shell tool of a run whose commands run unsandboxed: no `escalate`, nothing said of a sandbox. */
const UNSANDBOXED_SHELL_SPEC: ToolSpec = toolSpec({
  ...BUILTIN_TOOLS.shell,
  description: 'Run one shell command and get its output.',
  input: ShellInput,
});

export interface BuiltinToolChoice {
  /** The run grounds on elements (profile `grounding` not `pixels`): `element` is offered. */
  elements: boolean;
  /** Commands run in a sandbox that can refuse (not danger-full-access): shell offers `escalate`. */
  sandboxed: boolean;
}

/** The built-ins a run offers. */
export function builtinToolSpecs(options: BuiltinToolChoice): readonly ToolSpec[] {
  return BUILTIN_TOOL_SPECS.filter((t) => options.elements || t.name !== 'element').map((t) =>
    t.name === 'shell' && !options.sandboxed ? UNSANDBOXED_SHELL_SPEC : t,
  );
}

/**
 * Names a run's own tool may not take: the built-ins, and every name a provider uses
 * for the computer (the `computer` function, Qwen's `computer_use`, the UI-TARS call
 * name, and the members of Claude's computer toolset, which arrive as bare names).
 */
const RESERVED_TOOL_NAMES: ReadonlySet<string> = new Set<string>([
  ...Object.keys(BUILTIN_TOOLS),
  'computer',
  QWEN_TOOL_NAME,
  UI_TARS_CALL_NAME,
  ...CLAUDE_COMPUTER_ACTIONS,
]);

/** Why `name` cannot be a run's own tool name, or undefined when it can. */
export function toolNameProblem(name: string): string | undefined {
  if (!TOOL_NAME_PATTERN.test(name)) {
    return `tool name ${show(name)} must be 1–64 characters of letters, digits, _ and - (what every model API accepts)`;
  }
  if (RESERVED_TOOL_NAMES.has(name)) return `tool name ${show(name)} is taken by DeskPilot's own tools or the computer tool`;
  return undefined;
}

/**
 * Reads a function-tool call of a tool the run `offered`: a built-in's input becomes its
 * actions, a call of one of the run's own tools gets no actions (the runner answers it);
 * undefined when the run did not offer the name (the provider then tries its computer
 * tool, else reports an unknown tool). A built-in the run left out is not read either:
 * planner-grounder offers act alone, a run that grounds on pixels no `element` — a model
 * that calls `shell` there anyway gets "unknown tool", never a command to approve.
 */
export function parseToolCall(name: string, input: unknown, ctx: ParseContext, offered: readonly ToolSpec[]): ActionEntry[] | undefined {
  if (!offered.some((tool) => tool.name === name)) return undefined;
  return isBuiltinTool(name) ? [parseBuiltinCall(name, input, ctx)] : [];
}

function parseBuiltinCall(name: BuiltinToolName, input: unknown, ctx: ParseContext): ActionEntry {
  const bad = (error: z.ZodError): ActionEntry => {
    const i = error.issues[0];
    return fail(`${name}: input must be ${BUILTIN_TOOLS[name].shape}${i ? ` (${i.path.join('.') || 'input'}: ${i.message})` : ''}, got ${show(input)}`);
  };
  switch (name) {
    case 'shell': {
      const r = SandboxedShellInput.safeParse(input);
      if (!r.success) return bad(r.error);
      return finalize(
        {
          type: 'shell',
          command: r.data.command,
          ...(r.data.timeout_seconds ? { timeoutMs: r.data.timeout_seconds * 1000 } : {}),
          ...(r.data.escalate ? { escalate: r.data.escalate } : {}),
          ...(r.data.reason ? { reason: r.data.reason } : {}),
        },
        ctx,
      );
    }
    case 'ask_user': {
      const r = AskInput.safeParse(input);
      if (!r.success) return bad(r.error);
      return finalize({ type: 'ask_user', question: r.data.question }, ctx);
    }
    case 'element': {
      const r = ElementInput.safeParse(input);
      if (!r.success) return bad(r.error);
      return finalize({ type: 'element', op: r.data.action, id: r.data.id, ...(r.data.value !== undefined ? { value: r.data.value } : {}) }, ctx);
    }
    case 'finish': {
      const r = FinishInput.safeParse(input);
      if (!r.success) return bad(r.error);
      return finalize({ type: 'finish', success: r.data.success, summary: r.data.summary ?? '' }, ctx);
    }
  }
}
