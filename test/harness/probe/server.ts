/**
 * The probe's loopback HTTP server: serves the page, collects the events it POSTs, and
 * hands it commands through a long poll (the page asks GET /command, the server answers
 * when the test has queued one).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/** One event as the page recorded it. Fields beyond `seq/t/type` depend on the event type. */
export const ProbeEventSchema = z
  .object({
    seq: z.number(),
    /** Epoch milliseconds (fractional) when the browser saw the event. */
    t: z.number(),
    type: z.string(),
    target: z.string().optional(),
    button: z.number().optional(),
    buttons: z.number().optional(),
    screenX: z.number().optional(),
    screenY: z.number().optional(),
    clientX: z.number().optional(),
    clientY: z.number().optional(),
    detail: z.number().optional(),
    ctrl: z.boolean().optional(),
    shift: z.boolean().optional(),
    alt: z.boolean().optional(),
    meta: z.boolean().optional(),
    deltaX: z.number().optional(),
    deltaY: z.number().optional(),
    deltaMode: z.number().optional(),
    key: z.string().optional(),
    code: z.string().optional(),
    repeat: z.boolean().optional(),
    location: z.number().optional(),
    inputType: z.string().optional(),
    data: z.string().nullable().optional(),
    /** For input events: the field's value, only while it is at most 256 characters long. */
    value: z.string().optional(),
    valueLength: z.number().optional(),
    layout: z.unknown().optional(),
    changed: z.boolean().optional(),
  })
  .passthrough();
export type ProbeEvent = z.infer<typeof ProbeEventSchema>;

const AckSchema = z.object({ id: z.number(), ok: z.boolean(), result: z.unknown().optional(), error: z.string().optional() });

export interface ProbeCommand {
  kind: string;
  [key: string]: unknown;
}

export interface ProbeServer {
  url: string;
  events: ProbeEvent[];
  /** Listeners called whenever new events arrive. */
  onEvents: Set<() => void>;
  /** Sends a command to the page and resolves with its result. */
  command(cmd: ProbeCommand, timeoutMs?: number): Promise<unknown>;
  close(): Promise<void>;
}

const PAGE = readFileSync(new URL('./page.html', import.meta.url), 'utf8');

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startProbeServer(): Promise<ProbeServer> {
  const events: ProbeEvent[] = [];
  const onEvents = new Set<() => void>();
  const pendingCommands: (ProbeCommand & { id: number })[] = [];
  const waitingPolls: ServerResponse[] = [];
  const acks = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;

  function deliver(): void {
    while (pendingCommands.length && waitingPolls.length) {
      const res = waitingPolls.shift()!;
      if (res.writableEnded || res.destroyed) continue;
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(pendingCommands.shift()));
    }
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      try {
        if (req.method === 'GET' && (req.url === '/' || req.url?.startsWith('/?'))) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          res.end(PAGE);
        } else if (req.method === 'POST' && req.url === '/events') {
          const batch = z.array(ProbeEventSchema).parse(JSON.parse(await readBody(req)));
          events.push(...batch);
          events.sort((a, b) => a.seq - b.seq);
          res.writeHead(204).end();
          for (const l of onEvents) l();
        } else if (req.method === 'GET' && req.url === '/command') {
          // Long poll: answered by deliver(), or with "none" after 20 s so the browser never times out.
          waitingPolls.push(res);
          const timer = setTimeout(() => {
            const i = waitingPolls.indexOf(res);
            if (i >= 0) waitingPolls.splice(i, 1);
            if (!res.writableEnded) res.writeHead(200, { 'content-type': 'application/json' }).end('{"kind":"none"}');
          }, 20_000);
          res.on('close', () => clearTimeout(timer));
          deliver();
        } else if (req.method === 'POST' && req.url === '/ack') {
          const ack = AckSchema.parse(JSON.parse(await readBody(req)));
          const waiter = acks.get(ack.id);
          acks.delete(ack.id);
          if (waiter) {
            if (ack.ok) waiter.resolve(ack.result);
            else waiter.reject(new Error(`probe command failed: ${ack.error ?? 'unknown'}`));
          }
          res.writeHead(204).end();
        } else if (req.url === '/favicon.ico') {
          res.writeHead(204).end();
        } else {
          res.writeHead(404).end();
        }
      } catch (err) {
        res.writeHead(400).end(String(err));
      }
    })();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    events,
    onEvents,
    command(cmd, timeoutMs = 10_000) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          acks.delete(id);
          reject(new Error(`probe did not answer command ${cmd.kind} within ${timeoutMs} ms`));
        }, timeoutMs);
        acks.set(id, {
          resolve: (v) => {
            clearTimeout(timer);
            resolve(v);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
        pendingCommands.push({ ...cmd, id });
        deliver();
      });
    },
    async close() {
      for (const res of waitingPolls.splice(0)) if (!res.writableEnded) res.end('{"kind":"none"}');
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
