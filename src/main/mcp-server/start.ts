import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import { startServer, type RunningServer } from '../server/server.js';
import { defaultWebRoot } from '../server/web-root.js';
import { DesktopSession, type DesktopSessionOptions } from './desktop-session.js';
import { createDeskPilotMcpServer } from './mcp-server.js';

/**
 * `deskpilot mcp`: the MCP server on stdio, and the supervision page of `deskpilot
 * serve` (same server, same token checks) where a person watches the session, answers
 * its approvals and stops it. Stdio carries the protocol, so the terminal cannot ask:
 * the page is where "ask" is answered; its URL (with the token) goes to stderr.
 */

/** What the session's runs need (desktop-session.ts: service, computer, home, policy, sandbox, run_task's model, env), and the process's own parts. */
export interface McpServeOptions extends Omit<DesktopSessionOptions, 'clientName'> {
  /** The protocol's streams (stdin and the guarded stdout). */
  input: Readable;
  output: Writable;
  /** The supervision page: port (0 = any free one), address, web root. */
  page: { port: number; host: string; webRoot?: string };
  /** Lines for the person (stderr). */
  log: (line: string) => void;
}

export interface RunningMcp {
  page: RunningServer;
  /** Resolves when the client closed the connection (stdin ended) and the session was closed. */
  closed: Promise<void>;
  /** The kill switch for the process (Ctrl-C, SIGTERM): stops the call in flight and everything held. */
  stop(reason: string): Promise<void>;
}

export async function startMcp(options: McpServeOptions): Promise<RunningMcp> {
  const page = await startServer({
    service: options.service,
    webRoot: options.page.webRoot ?? defaultWebRoot(),
    port: options.page.port,
    host: options.page.host,
    log: (line) => options.log(`page: ${line}`),
  });
  let clientName = 'an MCP client';
  const { service, computer, home, policy, sandbox, taskChoices, env } = options;
  const session = new DesktopSession({ service, computer, home, policy, sandbox, taskChoices, env, clientName: () => clientName });
  const server = createDeskPilotMcpServer(session, options.log);
  server.server.oninitialized = () => {
    const info = server.server.getClientVersion();
    if (info) clientName = `${info.name} ${info.version}`.slice(0, 120);
  };
  const transport = new StdioServerTransport(options.input, options.output);
  await server.connect(transport);

  let shutdown: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (shutdown ??= (async () => {
      await session.close();
      await server.close().catch((error: unknown) => options.log(`closing the MCP connection failed: ${String(error)}`));
      await page.close();
    })());
  const closed = new Promise<void>((resolve) => {
    // The SDK's stdio transport does not watch for the end of stdin: the client is gone then.
    options.input.once('end', () => void close().then(resolve));
    options.input.once('close', () => void close().then(resolve));
  });
  return {
    page,
    closed,
    async stop(reason) {
      session.stop(reason);
      await close();
    },
  };
}
