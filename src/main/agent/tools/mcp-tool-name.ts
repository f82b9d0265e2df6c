/**
 * The wire name of an MCP server's tool as the model is offered it: `<server>__<tool>`,
 * every character outside `[A-Za-z0-9_-]` (the OpenAI/Anthropic intersection) as `_`.
 * One function, used where the tool is offered and where its gated action is performed.
 * Undefined when the name would be longer than 64 characters (the tool is not offered).
 */
export function mcpToolName(server: string, tool: string): string | undefined {
  const name = `${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return name.length <= 64 ? name : undefined;
}
