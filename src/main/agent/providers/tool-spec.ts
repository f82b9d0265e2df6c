import { z } from 'zod';

/**
 * A tool as every provider sends it: the wire name, the description the model reads,
 * and the JSON Schema of its input. The provider layer knows only this shape; who
 * answers a call (the runner's built-ins, QA, an MCP server) is not its business.
 */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON Schema (draft 2020-12, without `$schema`) of the input object. */
  readonly parameters: Record<string, unknown>;
}

/** What a tool declares about itself: the zod schema of its input is the one truth. */
export interface ToolDeclaration {
  readonly name: string;
  readonly description: string;
  readonly input: z.ZodType;
}

/**
 * The tool names every provider accepts: OpenAI function names are
 * `^[a-zA-Z0-9_-]{1,64}$`, Anthropic's `^[a-zA-Z0-9_-]{1,128}$` — the intersection.
 */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The wire form of a declared tool, its JSON Schema generated from the zod input
 * schema (`io: 'input'`: a field with a default is optional for the model). A part
 * zod cannot express in JSON Schema (a transform's output, a date) becomes `{}` (any)
 * rather than failing the run.
 */
export function toolSpec(tool: ToolDeclaration): ToolSpec {
  const schema: Record<string, unknown> = { ...z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) };
  delete schema.$schema;
  return { name: tool.name, description: tool.description, parameters: schema };
}
