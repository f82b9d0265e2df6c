import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { WebSocketServer } from 'ws';
import type { BridgeService } from '../service/types.js';
import { admit, allowedHostNames, cookieName, isLoopbackHost, newToken, type AccessPolicy, type Refusal } from './auth.js';
import { TokenFailureLimiter } from './rate-limit.js';
import { mediaTypeOf, readStatic, resolveStatic } from './static-files.js';
import { attachBridgeClient, DEFAULT_WS_LIMITS, type WsLimits } from './ws-transport.js';

/**
 * `deskpilot serve`: the built renderer and the bridge over HTTP + WebSocket, for
 * supervising from a browser. Every request and upgrade must pass the Host, Origin
 * and token checks in auth.ts.
 */

export interface ServeOptions {
  service: BridgeService;
  /** Folder of the browser build (index.html + assets). */
  webRoot: string;
  port?: number;
  host?: string;
  /** Fixed token (tests); a random one otherwise. */
  token?: string;
  /** Largest WebSocket frame accepted, bytes. */
  maxPayload?: number;
  /** Most WebSocket clients at once (default 32); more are refused with 503. */
  maxClients?: number;
  limits?: Partial<WsLimits>;
  log?: (line: string) => void;
  /** PEM certificate and key: serve HTTPS/WSS. Required off loopback unless insecureRemote. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Listen off loopback over plain HTTP anyway (--insecure-remote). */
  insecureRemote?: boolean;
}

/** Refused before listening: off loopback without TLS and without --insecure-remote. */
export class ServeRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServeRefusedError';
  }
}

export interface RunningServer {
  port: number;
  host: string;
  token: string;
  /** The URL to open, token included. */
  url: string;
  /** Number of connected WebSocket clients. */
  clients(): number;
  close(): Promise<void>;
}

export const WS_PATH = '/bridge';
const FILES_PREFIX = '/files/';

export function contentSecurityPolicy(): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function securityHeaders(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', contentSecurityPolicy());
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  // The token may sit in the URL: never leak it to another site.
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

function deny(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(`${text}\n`);
}

function rejectUpgrade(socket: Duplex, status: number, reason: string): void {
  const text = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 421: 'Misdirected Request', 429: 'Too Many Requests', 503: 'Service Unavailable' }[status] ?? 'Error';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(reason) + 1}\r\n\r\n${reason}\n`);
}

/**
 * Off loopback the token, the screen and every approval would cross the network: only
 * with TLS, or when the person says --insecure-remote. Throws ServeRefusedError.
 */
export function refuseUnsafeBind(host: string, hasTls: boolean, insecureRemote: boolean): void {
  if (isLoopbackHost(host) || hasTls || insecureRemote) return;
  throw new ServeRefusedError(
    `refusing to listen on ${host} over plain HTTP: anyone on the network could read the token and your screen. ` +
      'Give --tls-cert and --tls-key, or pass --insecure-remote if the network is really yours (or tunnel: ssh -L).',
  );
}

// Over 120 lines because the HTTP and upgrade handlers share the token, the failure
// limiter and the held refusals of this server; auth, rate limits, static files and the
// socket transport are modules of their own (auth.ts, rate-limit.ts, static-files.ts, ws-transport.ts).
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  refuseUnsafeBind(host, Boolean(options.tls), Boolean(options.insecureRemote));
  const token = options.token ?? newToken();
  const log = options.log ?? (() => {});
  const limits: WsLimits = { ...DEFAULT_WS_LIMITS, ...options.limits };
  const webRoot = path.resolve(options.webRoot);
  const scheme = options.tls ? 'https:' : 'http:';
  const policy: AccessPolicy = { token, port: 0, hostNames: allowedHostNames(host), scheme };
  const failures = new TokenFailureLimiter(limits.tokenFailuresPerMinute, limits.tokenFailureBurst, limits.tokenFailureAddresses);
  let clientSeq = 0;
  /** Wrong-token answers waiting out their address's hold (rate-limit.ts), with their sockets: dropped on close. */
  const held = new Map<NodeJS.Timeout, Duplex>();
  /** Answers a refusal now, or after its hold; a socket that closes meanwhile is simply forgotten. */
  const refuse = (refusal: Refusal, socket: Duplex, answer: () => void): void => {
    if (!refusal.holdMs) return answer();
    const timer = setTimeout(() => {
      held.delete(timer);
      socket.off('close', forget);
      if (!socket.destroyed) answer();
    }, refusal.holdMs);
    const forget = () => {
      clearTimeout(timer);
      held.delete(timer);
    };
    held.set(timer, socket);
    socket.once('close', forget);
  };

  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? 512 * 1024 });

  const handleRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    securityHeaders(res);
    const verdict = admit(req, policy, failures);
    if (!verdict.ok) {
      const text = verdict.status === 401 ? 'DeskPilot: open the URL printed by `deskpilot serve` (it carries the token).' : verdict.reason;
      return refuse(verdict, req.socket, () => deny(res, verdict.status, text));
    }
    const { url } = verdict;
    if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'method not allowed');

    if (url.searchParams.has('token')) {
      // Remember the token for this browser session, so assets, images and the
      // WebSocket authenticate without the token ever reaching page scripts.
      res.setHeader('Set-Cookie', `${cookieName(policy.port)}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/${options.tls ? '; Secure' : ''}`);
    }

    if (url.pathname.startsWith(FILES_PREFIX)) {
      const parts = url.pathname.slice(FILES_PREFIX.length).split('/');
      let runId: string;
      let rel: string;
      try {
        runId = decodeURIComponent(parts[0] ?? '');
        rel = parts.slice(1).map(decodeURIComponent).join('/');
      } catch {
        return deny(res, 400, 'bad path');
      }
      if (!runId || !rel) return deny(res, 404, 'not found');
      try {
        const file = await options.service.readRunFile(runId, rel);
        res.setHeader('Content-Type', file.mediaType);
        res.setHeader('Cache-Control', 'private, max-age=3600');
        res.end(req.method === 'HEAD' ? undefined : file.data);
      } catch {
        deny(res, 404, 'not found');
      }
      return;
    }

    let file = await resolveStatic(webRoot, url.pathname);
    // A single-page app: unknown paths without an extension get index.html.
    if (!file && !path.extname(url.pathname)) file = await resolveStatic(webRoot, '/');
    if (!file) return deny(res, 404, url.pathname === '/' ? `no browser build in ${webRoot}: run \`npm run build:web\`` : 'not found');
    res.setHeader('Content-Type', mediaTypeOf(file));
    res.setHeader('Cache-Control', file.endsWith('.html') ? 'no-store' : 'private, max-age=600');
    const data = await readStatic(file);
    res.end(req.method === 'HEAD' ? undefined : data);
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    handleRequest(req, res).catch((err: unknown) => {
      log(`request failed: ${String(err)}`);
      if (!res.headersSent) deny(res, 500, 'internal error');
      else res.destroy();
    });
  };
  const server: Server = options.tls ? createTlsServer({ cert: options.tls.cert, key: options.tls.key }, onRequest) : createServer(onRequest);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  const handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const verdict = admit(req, policy, failures);
    if (!verdict.ok) {
      log(`refused WebSocket: ${verdict.reason}`);
      return refuse(verdict, socket, () => rejectUpgrade(socket, verdict.status, verdict.reason));
    }
    if (verdict.url.pathname !== WS_PATH) return rejectUpgrade(socket, 404, 'not found');
    if (wss.clients.size >= (options.maxClients ?? 32)) {
      log('refused WebSocket: too many clients');
      return rejectUpgrade(socket, 503, 'too many clients');
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      clientSeq += 1;
      const client = { id: `ws:${clientSeq}`, kind: 'ws' as const };
      log(`client ${client.id} connected`);
      attachBridgeClient(ws, options.service, client, limits, log);
    });
  };
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    try {
      handleUpgrade(req, socket, head);
    } catch (err) {
      // Nothing a client sends may take the supervisor down: refuse this one socket.
      log(`upgrade failed: ${err instanceof Error ? err.message : String(err)}`);
      socket.destroy();
    }
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  policy.port = port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = `${scheme}//${urlHost === '[::]' ? '[::1]' : urlHost}:${port}/?token=${token}`;
  if (!isLoopbackHost(host)) log(`listening on ${host}: reachable from other machines`);

  return {
    port,
    host,
    token,
    url,
    clients: () => wss.clients.size,
    close: async () => {
      for (const [timer, socket] of held) {
        clearTimeout(timer);
        socket.destroy();
      }
      held.clear();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
