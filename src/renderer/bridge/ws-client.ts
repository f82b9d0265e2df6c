import { Commands, PushMessageSchema, type BridgeClient, type CommandInput, type CommandName, type CommandOutput, type PushMessage } from '../../shared/bridge.js';
import { WireServerMessageSchema } from '../../shared/bridge-wire.js';

/**
 * The bridge over the WebSocket of `deskpilot serve`. The page was opened with
 * ?token=…; the server answered with an HttpOnly cookie, so the socket and run
 * files authenticate without page scripts ever holding the token. Reconnects with
 * backoff; every message is parsed with the contract.
 */

export class BridgeCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeCallError';
  }
}

export interface WsClientOptions {
  url: string;
  /** Base for run file URLs ("" = same origin). */
  filesBase?: string;
  onConnection?: (connected: boolean) => void;
  WebSocketImpl?: typeof WebSocket;
}

/** WebSocket.OPEN, without needing a global WebSocket (tests pass an implementation). */
const OPEN = 1;

interface Pending {
  name: CommandName;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

export class WsBridgeClient implements BridgeClient {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(m: PushMessage) => void>();
  private readonly queue: string[] = [];
  private backoffMs = 250;
  private closed = false;

  constructor(private readonly options: WsClientOptions) {
    this.open();
  }

  private open(): void {
    const Impl = this.options.WebSocketImpl ?? WebSocket;
    const ws = new Impl(this.options.url);
    this.ws = ws;
    ws.onopen = () => {
      this.backoffMs = 250;
      this.options.onConnection?.(true);
      for (const m of this.queue.splice(0)) ws.send(m);
    };
    ws.onmessage = (e: MessageEvent) => this.onMessage(typeof e.data === 'string' ? e.data : '');
    ws.onclose = () => {
      this.options.onConnection?.(false);
      for (const [id, p] of this.pending) {
        p.reject(new BridgeCallError('unavailable', 'connection lost'));
        this.pending.delete(id);
      }
      if (this.closed) return;
      setTimeout(() => this.open(), this.backoffMs);
      this.backoffMs = Math.min(this.backoffMs * 2, 5_000);
    };
  }

  private onMessage(text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return;
    }
    const parsed = WireServerMessageSchema.safeParse(raw);
    if (!parsed.success) return;
    const msg = parsed.data;
    if (msg.kind === 'push') {
      for (const l of this.listeners) l(msg.message);
      return;
    }
    if (msg.id === null) return;
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (!msg.ok) return p.reject(new BridgeCallError(msg.error.code, msg.error.message));
    const out = Commands[p.name].output.safeParse(msg.output);
    if (out.success) p.resolve(out.data);
    else p.reject(new BridgeCallError('invalid', `bad reply to ${p.name}`));
  }

  call<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>> {
    const id = this.nextId++;
    const text = JSON.stringify({ id, name, input });
    return new Promise<CommandOutput<N>>((resolve, reject) => {
      this.pending.set(id, { name, resolve: resolve as (v: unknown) => void, reject });
      if (this.ws && this.ws.readyState === OPEN) this.ws.send(text);
      else this.queue.push(text);
    });
  }

  subscribe(listener: (m: PushMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  fileUrl(runId: string, relativePath: string): string {
    const rel = relativePath.split('/').map(encodeURIComponent).join('/');
    return `${this.options.filesBase ?? ''}/files/${encodeURIComponent(runId)}/${rel}`;
  }

  close(): void {
    this.closed = true;
    this.ws?.close();
  }
}

/** Validates pushes coming from a bridge exposed by the preload (defence in depth). */
export function validatedClient(inner: BridgeClient): BridgeClient {
  return {
    call: (name, input) => inner.call(name, input),
    subscribe: (listener) =>
      inner.subscribe((m) => {
        const parsed = PushMessageSchema.safeParse(m);
        if (parsed.success) listener(parsed.data);
      }),
    fileUrl: (runId, rel) => inner.fileUrl(runId, rel),
  };
}
