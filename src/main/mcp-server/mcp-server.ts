import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { deskpilotVersion } from '../version.js';
import type { DesktopSession, ToolAnswer } from './desktop-session.js';
import { DESKTOP_TOOL_NAMES, DESKTOP_TOOLS } from './desktop-tools.js';

/**
 * The MCP server of `deskpilot mcp`: the desktop tools (each one action through the
 * session's gate) and run_task (a whole run with DeskPilot's own model). A refused,
 * rejected or failed call is a tool error (`isError: true`) whose text says why, so the
 * client's model reads the reason; a protocol error is only for a malformed request.
 */

export const RunTaskInputSchema = z
  .object({
    task: z.string().trim().min(1).max(20_000).describe('what to do on the desktop, in plain words'),
    max_steps: z.number().int().min(1).max(500).optional().describe('end the run after this many model steps (default: config.json limits)'),
  })
  .strict();

const INSTRUCTIONS =
  'DeskPilot: this desktop under supervision. Take a screenshot first; give every x/y in the pixels of the latest screenshot. ' +
  'Every input action passes DeskPilot\'s policy and may wait for a person to approve it; a refusal comes back as a tool error with the reason — do not retry the same action blindly.';

function toResult(answer: ToolAnswer): CallToolResult {
  if (!answer.ok) return { isError: true, content: [{ type: 'text', text: answer.text }] };
  const content: CallToolResult['content'] = [{ type: 'text', text: answer.text }];
  if (answer.image) content.push({ type: 'image', data: answer.image.data.toString('base64'), mimeType: answer.image.mediaType });
  return { content };
}

export function createDeskPilotMcpServer(session: DesktopSession): McpServer {
  const server = new McpServer({ name: 'deskpilot', version: deskpilotVersion() }, { instructions: INSTRUCTIONS });
  for (const name of DESKTOP_TOOL_NAMES) {
    const tool = DESKTOP_TOOLS[name];
    server.registerTool(
      name,
      {
        description: tool.description,
        inputSchema: tool.input,
        annotations: { readOnlyHint: name === 'screenshot' || name === 'find_text' || name === 'wait', openWorldHint: false },
      },
      async (args: Record<string, unknown>, extra: { signal: AbortSignal }) => toResult(await session.call(name, args, extra.signal)),
    );
  }
  server.registerTool(
    'run_task',
    {
      description:
        "Run a whole desktop task with DeskPilot's own model and supervision (its policy and approval queue). Returns the outcome, the summary and the DeskPilot session id.",
      inputSchema: RunTaskInputSchema,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    async (args, extra) => toResult(await session.runTask(args.task, args.max_steps, extra.signal)),
  );
  return server;
}
