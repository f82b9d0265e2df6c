import { appendFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROVIDERS, type ProviderDescriptor, type ProviderFamily } from '../../../src/shared/providers.js';
import { inspectRequest } from './inspect.js';
import { anthropicMessage, anthropicStream, chatBody, chatStream, responsesBody, responsesStream, type SseFrame } from './render.js';
import type { FakeFault, FakeProtocol, FakeReply, FakeRequest, FakeResult, FakeTurn } from './types.js';
import { anthropicBlocks, PromptCache } from '../../../src/main/agent/cost/token-estimate.js';

/**
 * A loopback model server that speaks the real wire protocols (Anthropic Messages,
 * OpenAI Responses, OpenAI Chat Completions) so the real SDKs can talk to it through
 * their base-URL setting. Tests script the turns; every request is recorded.
 */

export interface FakeModelServer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** baseURL for @anthropic-ai/sdk (it appends /v1/messages). */
  readonly anthropicBaseUrl: string;
  /** baseURL for openai (it appends /responses, /chat/completions). */
  readonly openaiBaseUrl: string;
  /** The baseURL a profile of this family uses to reach this server (by the API its descriptor names). */
  baseUrlFor(family: ProviderFamily): string;
  /** Every request received, in order (faulted ones included). */
  readonly requests: FakeRequest[];
  /** Queue turns; each request consumes the next one. */
  script(...turns: FakeTurn[]): void;
  /** Answers requests once the script is used up (default: a 400 naming the request). */
  setFallback(turn: FakeTurn | undefined): void;
  /** Turns not yet consumed. */
  pending(): number;
  /** Drops the turns not yet consumed and says how many there were: a file whose tests share one server starts each test from an empty script. */
  clear(): number;
  close(): Promise<void>;
}

const ROUTES: Record<string, FakeProtocol> = {
  '/v1/messages': 'anthropic',
  '/v1/responses': 'responses',
  '/v1/chat/completions': 'chat',
};

/** The SDKs' baseURL per wire API: @anthropic-ai/sdk appends /v1/messages, openai appends /responses or /chat/completions. */
const BASE_BY_API: Record<ProviderDescriptor['api'], (url: string) => string> = {
  messages: (url) => url,
  responses: (url) => `${url}/v1`,
  chat: (url) => `${url}/v1`,
};

const isFault = (r: FakeResult): r is FakeFault => 'fault' in r;

function errorBody(protocol: FakeProtocol, status: number, message: string): Record<string, unknown> {
  if (protocol === 'anthropic') {
    const type =
      status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : status === 401 ? 'authentication_error'
        : status === 403 ? 'permission_error' : status === 404 ? 'not_found_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
    return { type: 'error', error: { type, message } };
  }
  return { error: { message, type: status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error', code: null, param: null } };
}

function writeSse(res: http.ServerResponse, frames: SseFrame[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const f of frames) res.write(`${f.event ? `event: ${f.event}\n` : ''}data: ${f.data}\n\n`);
  res.end();
}

export interface FakeModelOptions {
  model?: string;
  /** Append every request as one JSON line ({index, protocol, path, receivedAt, body}) to this file. */
  logFile?: string;
  /**
   * Anthropic replies without a scripted `usage` report the estimated tokens of the
   * request (src/main/agent/cost/token-estimate.ts: uncached input, cache reads and
   * writes by where its breakpoints fall), as the real API reports its own count.
   */
  estimateUsage?: boolean;
}

export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModelServer> {
  const cache = new PromptCache();
  const queue: FakeTurn[] = [];
  const requests: FakeRequest[] = [];
  let fallback: FakeTurn | undefined;
  let seq = 0;

  const noTurn = (req: FakeRequest): FakeFault => ({
    fault: 'status',
    status: 400,
    body: errorBody(req.protocol, 400, `fake model: no scripted turn left for request #${req.index}`),
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const receivedAt = Date.now();
    const path = (req.url ?? '/').split('?')[0]!;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const protocol = ROUTES[path];
    if (req.method !== 'POST' || !protocol) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake model: no route ${req.method} ${path}` } }));
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      body = {};
    }
    const facts = await inspectRequest(protocol, body);
    const record: FakeRequest = {
      index: requests.length,
      protocol,
      path,
      headers: req.headers,
      body,
      stream: body.stream === true,
      receivedAt,
      ...facts,
    };
    requests.push(record);
    if (options.logFile) appendFileSync(options.logFile, `${JSON.stringify({ index: record.index, protocol, path, receivedAt, body })}\n`);
    const estimated = options.estimateUsage && protocol === 'anthropic' ? cache.request(anthropicBlocks(body)) : undefined;
    const turn = queue.shift() ?? fallback;
    let result: FakeResult;
    try {
      result = turn === undefined ? noTurn(record) : typeof turn === 'function' ? await turn(record) : turn;
    } catch (err) {
      // A throwing turn is a test bug; answer 400 so the SDK fails fast and says why.
      result = { fault: 'status', status: 400, body: errorBody(protocol, 400, `fake model: turn threw: ${String(err)}`) };
    }
    if (estimated && !isFault(result) && !result.usage) {
      result = { ...result, usage: { input: estimated.uncached, output: 40, cacheRead: estimated.cacheRead, cacheWrite: estimated.cacheWrite } };
    }
    respond(record, result, res, req);
  }

  function respond(record: FakeRequest, result: FakeResult, res: http.ServerResponse, req: http.IncomingMessage): void {
    const { protocol, body } = record;
    if (isFault(result)) {
      switch (result.fault) {
        case 'status': {
          const payload = result.body ?? errorBody(protocol, result.status, `fake model: injected ${result.status}`);
          res.writeHead(result.status, { 'content-type': 'application/json', ...(result.headers ?? {}) });
          res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
          return;
        }
        case 'hang':
          // Keep the socket open; close() or the client's abort ends it.
          return;
        case 'reset':
          req.socket.destroy();
          return;
        case 'stream_error': {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          if (protocol === 'anthropic') {
            res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_x', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } })}\n\n`);
            res.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`);
          } else if (protocol === 'responses') {
            res.end(`event: error\ndata: ${JSON.stringify({ type: 'error', code: 'server_error', message: 'The server had an error', param: null, sequence_number: 0 })}\n\n`);
          } else {
            res.end(`data: ${JSON.stringify({ error: { message: 'The server had an error', type: 'server_error' } })}\n\n`);
          }
          return;
        }
        case 'stall': {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          const frames =
            protocol === 'anthropic'
              ? anthropicStream({ text: 'I will' }, { model: 'm', seq: seq++ })
              : protocol === 'responses'
                ? responsesStream({ text: 'I will' }, { model: 'm', seq: seq++ }, body)
                : chatStream({ text: 'I will' }, { model: 'm', seq: seq++ });
          for (const f of frames.slice(0, 3)) res.write(`${f.event ? `event: ${f.event}\n` : ''}data: ${f.data}\n\n`);
          return;
        }
        case 'malformed':
          if (record.stream) {
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            res.end('event: message_start\ndata: {"type":"message_start","message":{"id":\n\n');
          } else {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end('{"id":"broken","content":[{"type":"text","text":"unterminated');
          }
          return;
      }
    }
    const reply: FakeReply = result;
    const ctx = { model: typeof body.model === 'string' ? body.model : (options.model ?? 'fake-model'), seq: seq++ };
    if (protocol === 'anthropic') {
      if (record.stream) return writeSse(res, anthropicStream(reply, ctx));
      return json(res, anthropicMessage(reply, ctx));
    }
    if (protocol === 'responses') {
      if (record.stream) return writeSse(res, responsesStream(reply, ctx, body));
      return json(res, responsesBody(reply, ctx, body));
    }
    if (record.stream) return writeSse(res, chatStream(reply, ctx));
    return json(res, chatBody(reply, ctx));
  }

  function json(res: http.ServerResponse, payload: unknown): void {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_fake_${seq}` });
    res.end(JSON.stringify(payload));
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake model crashed: ${String(err)}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    baseUrlFor: (family) => BASE_BY_API[PROVIDERS[family].api](url),
    requests,
    script: (...turns) => void queue.push(...turns),
    setFallback: (turn) => void (fallback = turn),
    pending: () => queue.length,
    clear: () => queue.splice(0).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
