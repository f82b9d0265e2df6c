import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Stream } from 'node:stream';
import WebSocket from 'ws';
import type { PushMessage } from '../../src/shared/bridge.js';
import { BIN, REPO_ROOT, until } from '../e2e/support.js';

/** `deskpilot mcp` spawned by the real SDK client, as Claude Code or Codex start it. */
export interface McpUnderTest {
  client: Client;
  transport: StdioClientTransport;
  stderr(): string;
  /** Errors the client's transport reported: a stdout line that is not protocol would be one. */
  transportErrors: Error[];
  /** The supervision page URL printed on stderr. */
  pageUrl(): Promise<string>;
  close(): Promise<void>;
}

export async function spawnMcp(args: string[], env: Record<string, string>): Promise<McpUnderTest> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], env, cwd: REPO_ROOT, stderr: 'pipe' });
  let err = '';
  (transport.stderr as Stream | null)?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const transportErrors: Error[] = [];
  const client = new Client({ name: 'deskpilot-test-client', version: '1.0.0' });
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => err,
    transportErrors,
    pageUrl: () => until(() => /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(err)?.[0], 30_000, `the page URL on stderr (${err})`),
    close: () => client.close(),
  };
}

export function textOf(result: CallToolResult): string {
  return result.content
    .filter((c): c is Extract<CallToolResult['content'][number], { type: 'text' }> => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/** A browser client of the supervision page, as the UI talks to it (the bridge WebSocket). */
export interface PageClient {
  pushes: PushMessage[];
  call(name: string, input: unknown): Promise<{ ok: boolean; output?: unknown; error?: { message: string } }>;
  close(): void;
}

export async function connectPage(pageUrl: string): Promise<PageClient> {
  const u = new URL(pageUrl);
  const ws = new WebSocket(`ws://${u.host}/bridge?token=${u.searchParams.get('token')}`);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const pushes: PushMessage[] = [];
  const replies = new Map<number, (reply: { ok: boolean; output?: unknown; error?: { message: string } }) => void>();
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { kind: string; id?: number; message?: PushMessage; ok?: boolean };
    if (message.kind === 'push' && message.message) pushes.push(message.message);
    if (message.kind === 'reply' && typeof message.id === 'number') replies.get(message.id)?.(message as { ok: boolean });
  });
  let id = 0;
  return {
    pushes,
    call(name, input) {
      id += 1;
      const mine = id;
      return new Promise((resolve) => {
        replies.set(mine, resolve);
        ws.send(JSON.stringify({ id: mine, name, input }));
      });
    },
    close: () => ws.close(),
  };
}
