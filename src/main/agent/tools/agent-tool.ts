import type { z } from 'zod';
import type { Action } from '../../../shared/actions.js';
import type { RunStatus } from '../../../shared/events.js';
import { builtinToolSpecs, toolNameProblem, type BuiltinToolChoice } from '../providers/builtin-tools.js';
import { toolSpec, type ToolSpec } from '../providers/tool-spec.js';
import type { ModelCall } from '../transcript.js';

/**
 * A tool a caller brings to a run (QA's verdict and find_text, an MCP server's tools):
 * the one declaration from which the model's tool definition is generated (the JSON
 * Schema comes from `input` through `z.toJSONSchema`) and the handler that answers a
 * call. The runner parses the call's input with `input` before `handle` sees it, so a
 * handler never reads unchecked model output. The provider layer knows the tool only
 * as a `ToolSpec`; tools outside it need no change there.
 *
 * An MCP tool, whose input schema is JSON Schema, passes `z.fromJSONSchema(schema)`.
 */
export interface AgentTool<Input = unknown> {
  /** The wire name: 1–64 of `[a-zA-Z0-9_-]`, not a built-in's nor the computer's (checked at run start). */
  readonly name: string;
  /** What the model reads in the tool definition and in the system prompt's tool list. */
  readonly description: string;
  readonly input: z.ZodType<Input>;
  /** Answers one call whose input passed `input`; `text` goes back to the model as the tool result. */
  handle(input: Input, context: ToolCallContext): Promise<ToolAnswer>;
  /**
   * For a tool whose call acts outside the run (an MCP server's tool): the action the call
   * is. It is proposed, checked and gated like a model's action (policy, approval queue,
   * user rules, the audit log); `handle` runs only when the gate lets it through, with the
   * arguments of the action that was let through (a person may have edited them).
   */
  asAction?(input: Input): Action;
}

export interface ToolCallContext {
  readonly runId: string;
  readonly step: number;
  /** Fires when the run stops: a handler that waits must stop waiting. */
  readonly signal: AbortSignal;
  /** The screenshot the model saw when it made this call. */
  readonly latestObservationId?: string;
  /** The call as the model made it (its id, name and raw input). */
  readonly call: ModelCall;
}

export interface ToolAnswer {
  ok: boolean;
  text: string;
  /** End the run after answering (e.g. a QA verdict was given). */
  endRun?: { status: RunStatus; summary: string; labels?: Record<string, string> };
}

/** A run's tools could not be offered (a bad or taken name): the run does not start. */
export class ToolSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolSetupError';
  }
}

/** The function tools of one run: what the model is offered and who answers each call. */
export interface RunTools {
  /** The built-ins, then the caller's tools, as wire specs (generated once per run). */
  readonly specs: readonly ToolSpec[];
  /** The caller's tool of that name; built-ins are actions and not here. */
  find(name: string): AgentTool | undefined;
}

/**
 * Checks a run's own tools and makes their wire specs: every name provider-safe, none
 * taken by a built-in or the computer tool, none twice. Throws ToolSetupError naming
 * every problem, before anything of the run exists.
 */
export function runTools(tools: readonly AgentTool[], options: BuiltinToolChoice = { elements: false, sandboxed: false }): RunTools {
  const problems: string[] = [];
  const byName = new Map<string, AgentTool>();
  for (const tool of tools) {
    const problem = toolNameProblem(tool.name);
    if (problem) problems.push(problem);
    else if (byName.has(tool.name)) problems.push(`tool name "${tool.name}" is offered twice`);
    else byName.set(tool.name, tool);
  }
  if (problems.length) throw new ToolSetupError(`the run's tools cannot be offered: ${problems.join('; ')}`);
  const specs = [...builtinToolSpecs(options), ...[...byName.values()].map(toolSpec)];
  return { specs, find: (name) => byName.get(name) };
}

/**
 * Answers one call of a caller's tool: input that does not fit the tool's schema is
 * refused with the first problem (the model tries again), else the handler answers.
 */
export async function callTool(tool: AgentTool, context: ToolCallContext): Promise<ToolAnswer> {
  const parsed = tool.input.safeParse(context.call.input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, text: `${tool.name} was not accepted: ${issue?.path.join('.') || 'input'}: ${issue?.message ?? 'invalid'}` };
  }
  return tool.handle(parsed.data, context);
}
