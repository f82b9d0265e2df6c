import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import { mcpToolAllowed, type McpServerConfig } from '../../../shared/config.js';
import { errorText } from '../../../shared/error-text.js';
import { deskpilotVersion } from '../../version.js';
import type { AgentTool } from '../tools/agent-tool.js';
import { mcpToolName } from '../tools/mcp-tool-name.js';
import { withTimeout } from '../../../shared/promises.js';

/**
 * The MCP servers of config.json (`mcpServers`) as tools of a run. Each allowed tool is
 * an AgentTool named `<server>__<tool>` whose call is an `mcp_call` action
 * (`asAction`): it passes the gate under its server's approval and `risk:mcp-tool`, and
 * only then is the server called. A server with approval "deny" is never started and
 * its tools are never offered. A server that does not start, or stops mid-run, is a
 * problem the run logs as an error event; the run goes on (its tools then fail).
 */

export const MCP_CLIENT_LIMITS = {
  /** Starting a server and listing its tools; npx fetching a package can take this long. */
  connectMs: 30_000,
  /** One tool call (the SDK's default request timeout is 60 s). */
  callMs: 120_000,
  /** Text of one result given to the model and the log. */
  resultChars: 20_000,
  /** Tools taken from one server (the model's context is not a dump). */
  toolsPerServer: 64,
} as const;

export interface McpToolbox {
  readonly tools: readonly AgentTool[];
  /** What went wrong at start (a server that did not start), one sentence each. */
  readonly problems: readonly string[];
  /** Called with each later problem (a server that stopped). */
  onProblem(listener: (message: string) => void): void;
  /** Server name → its offered tool names, and whether it is running (deskpilot mcp list). */
  status(): Array<{ server: string; running: boolean; tools: string[]; error?: string }>;
  /** Stops every server; never rejects (a server that fails to close is already gone for the run). */
  close(): Promise<void>;
}

type ToolContent = { type: string; text?: string; mimeType?: string };

function resultText(result: { content?: unknown; structuredContent?: unknown; toolResult?: unknown }): string {
  const parts: string[] = [];
  for (const c of (Array.isArray(result.content) ? result.content : []) as ToolContent[]) {
    if (c.type === 'text' && typeof c.text === 'string') parts.push(c.text);
    else parts.push(`[${c.type}${c.mimeType ? ` ${c.mimeType}` : ''} content not shown]`);
  }
  if (!parts.length && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  if (!parts.length && result.toolResult !== undefined) parts.push(JSON.stringify(result.toolResult));
  const text = parts.join('\n');
  return text.length > MCP_CLIENT_LIMITS.resultChars ? `${text.slice(0, MCP_CLIENT_LIMITS.resultChars)}… (${text.length} characters, cut)` : text;
}

function transportFor(config: McpServerConfig): Transport {
  if ('command' in config) {
    return new StdioClientTransport({
      command: config.command,
      args: config.args,
      // The SDK's small inherited set (PATH, HOME, …) plus what the config names: API keys
      // in DeskPilot's environment do not reach a server unless the person says so.
      env: { ...getDefaultEnvironment(), ...config.env },
      ...(config.cwd ? { cwd: config.cwd } : {}),
      // A server's log lines must not land in the terminal's prompt.
      stderr: 'ignore',
    });
  }
  return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
}

interface Connected {
  name: string;
  client?: Client;
  running: boolean;
  error?: string;
  tools: string[];
}

/** The toolbox of a run started with this config, or undefined when it names no MCP server. */
export async function mcpToolboxFor(config: { mcpServers: Readonly<Record<string, McpServerConfig>> }): Promise<McpToolbox | undefined> {
  return Object.keys(config.mcpServers).length ? connectMcpServers(config.mcpServers) : undefined;
}

/** Starts the configured servers (not the denied ones), lists their tools, and makes them a run's tools. */
export async function connectMcpServers(servers: Readonly<Record<string, McpServerConfig>>): Promise<McpToolbox> {
  const listeners: Array<(message: string) => void> = [];
  const problems: string[] = [];
  const tools: AgentTool[] = [];
  const connected: Connected[] = [];
  const problem = (message: string, atStart: boolean) => {
    if (atStart) problems.push(message);
    for (const l of listeners) l(message);
  };
  let closing = false;

  await Promise.all(
    Object.entries(servers).map(async ([name, config]) => {
      if (config.approval === 'deny') return;
      const entry: Connected = { name, running: false, tools: [] };
      connected.push(entry);
      const client = new Client({ name: 'deskpilot', version: deskpilotVersion() });
      let started = false;
      client.onclose = () => {
        if (!entry.running || closing) return;
        entry.running = false;
        entry.error = 'stopped';
        problem(`MCP server ${name} stopped; the run goes on without it (its tools now fail)`, !started);
      };
      try {
        await withTimeout(client.connect(transportFor(config)), MCP_CLIENT_LIMITS.connectMs, `starting MCP server ${name}`);
        entry.running = true;
        entry.client = client;
        const listed = await withTimeout(client.listTools(), MCP_CLIENT_LIMITS.connectMs, `listing the tools of MCP server ${name}`);
        for (const tool of listed.tools.slice(0, MCP_CLIENT_LIMITS.toolsPerServer)) {
          if (!mcpToolAllowed(config, tool.name)) continue;
          const wire = mcpToolName(name, tool.name);
          if (!wire) {
            problems.push(`MCP server ${name}: tool ${tool.name} not offered (its name is too long for the model's tool names)`);
            continue;
          }
          let input: z.ZodType<Record<string, unknown>>;
          try {
            input = z.fromJSONSchema(tool.inputSchema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<Record<string, unknown>>;
          } catch (error) {
            problems.push(`MCP server ${name}: tool ${tool.name} not offered (its input schema cannot be read: ${errorText(error)})`);
            continue;
          }
          entry.tools.push(tool.name);
          const agentTool: AgentTool<Record<string, unknown>> = {
            name: wire,
            description: `[MCP server ${name}] ${(tool.description ?? tool.title ?? tool.name).slice(0, 1_000)}`,
            input,
            asAction: (args) => ({ type: 'mcp_call', server: name, tool: tool.name, arguments: args }),
            async handle(args, context) {
              if (!entry.running || !entry.client) return { ok: false, text: `the MCP server ${name} is not running (${entry.error ?? 'stopped'}): ${tool.name} was not called` };
              try {
                const result = await entry.client.callTool({ name: tool.name, arguments: args }, undefined, { signal: context.signal, timeout: MCP_CLIENT_LIMITS.callMs });
                return { ok: result.isError !== true, text: resultText(result) };
              } catch (error) {
                if (context.signal.aborted) throw error;
                return { ok: false, text: `the MCP server ${name} failed on ${tool.name}: ${errorText(error)}` };
              }
            },
          };
          tools.push(agentTool);
        }
        started = true;
      } catch (error) {
        entry.running = false;
        entry.error = errorText(error);
        problems.push(`MCP server ${name} did not start: ${errorText(error)}; the run goes on without its tools`);
        await client.close().catch(() => undefined);
      }
    }),
  );

  return {
    tools,
    problems,
    onProblem: (listener) => void listeners.push(listener),
    status: () => connected.map((c) => ({ server: c.name, running: c.running, tools: c.tools, ...(c.error ? { error: c.error } : {}) })),
    async close() {
      closing = true;
      await Promise.all(connected.map((c) => c.client?.close().catch(() => undefined)));
    },
  };
}
