import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/** The serve transport in a child process (serve-child.ts), and raw-socket clients for it. */

export const TOKEN = 'sec-token-0123456789abcdef';

export interface ServeChild {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything the child wrote on stderr so far (its log). */
  stderr(): string;
  /** True while the process runs. */
  alive(): boolean;
  stop(): Promise<void>;
}

export async function startServeChild(options: Record<string, unknown> = {}): Promise<ServeChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'serve-child.ts'), JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { port, url } = await new Promise<{ port: number; url: string }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^listening (\d+) (\S+)$/m.exec(out);
      if (m) resolve({ port: Number(m[1]), url: m[2]! });
    });
    child.once('exit', (code) => reject(new Error(`serve child exited (${code}): ${err}`)));
  });
  return {
    child,
    port,
    url,
    stderr: () => err,
    alive: () => child.exitCode === null && child.signalCode === null,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface RawResponse {
  /** HTTP status, or 0 when the server closed without answering. */
  status: number;
  head: string;
  body: string;
}

/**
 * Sends raw bytes and reads the answer: up to the end of the headers for a 101, else
 * until the server closes (or `waitMs` passes: a bound on the wait, not an assertion).
 */
export function sendRaw(port: number, data: string | Buffer, options: { localAddress?: string; waitMs?: number } = {}): Promise<RawResponse> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, ...(options.localAddress ? { localAddress: options.localAddress } : {}) });
    let buf = Buffer.alloc(0);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = buf.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      const split = text.indexOf('\r\n\r\n');
      resolve({ status: m ? Number(m[1]) : 0, head: split >= 0 ? text.slice(0, split) : text, body: split >= 0 ? text.slice(split + 4) : '' });
    };
    const timer = setTimeout(finish, options.waitMs ?? 5_000);
    socket.on('connect', () => socket.write(data));
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (/^HTTP\/1\.1 101/.test(buf.toString('latin1')) && buf.includes('\r\n\r\n')) finish();
    });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', finish);
  });
}

/** A WebSocket upgrade request with the given target and extra header lines. */
export function upgradeRequest(port: number, target: string, headers: Record<string, string | null> = {}): string {
  const all: Record<string, string | null> = {
    Host: `127.0.0.1:${port}`,
    Connection: 'Upgrade',
    Upgrade: 'websocket',
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
    ...headers,
  };
  return `GET ${target} HTTP/1.1\r\n${Object.entries(all).filter(([, v]) => v !== null).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
}

/** A plain GET with the given target and header lines (Connection: close). */
export function getRequest(port: number, target: string, headers: Record<string, string | null> = {}): string {
  const all: Record<string, string | null> = { Host: `127.0.0.1:${port}`, Connection: 'close', ...headers };
  return `GET ${target} HTTP/1.1\r\n${Object.entries(all).filter(([, v]) => v !== null).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
}
