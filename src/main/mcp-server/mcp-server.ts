import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { deskpilotVersion } from '../version.js';
import type { DesktopSession, ToolAnswer } from './desktop-session.js';
import { DESKTOP_TOOL_NAMES, DESKTOP_TOOLS, readsOnly } from './desktop-tools.js';

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

/** What a tool handler gets from the SDK that progress needs. */
interface RequestExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification(notification: ServerNotification): Promise<void>;
}

/**
 * MCP progress (spec: basic/utilities/progress): when the request carries a
 * `progressToken`, each note goes out as `notifications/progress` with that token and a
 * progress count that rises by one per note (no total: how long a person takes to
 * answer is unknown). Without a token, nothing is sent. The notes stop when the call
 * returns (the session stops calling this): a token is referenced only while its
 * request is in progress.
 */
function progressOf(extra: RequestExtra, log: (line: string) => void): ((message: string) => void) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let progress = 0;
  return (message) => {
    progress += 1;
    extra
      .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message } })
      .catch((error: unknown) => log(`a progress notification could not be sent: ${String(error)}`));
  };
}

export function createDeskPilotMcpServer(session: DesktopSession, log: (line: string) => void = () => undefined): McpServer {
  const server = new McpServer({ name: 'deskpilot', version: deskpilotVersion() }, { instructions: INSTRUCTIONS });
  for (const name of DESKTOP_TOOL_NAMES) {
    const tool = DESKTOP_TOOLS[name];
    server.registerTool(
      name,
      {
        description: tool.description,
        inputSchema: tool.input,
        annotations: { readOnlyHint: readsOnly(name), openWorldHint: false },
      },
      async (args: Record<string, unknown>, extra: RequestExtra) => toResult(await session.call(name, args, extra.signal, progressOf(extra, log))),
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
