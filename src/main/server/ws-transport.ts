import type { RawData, WebSocket } from 'ws';
import { Commands, type CommandName, type PushMessage } from '../../shared/bridge.js';
import { WireRequestSchema, type WireError, type WireServerMessage } from '../../shared/bridge-wire.js';
import { BridgeError, type BridgeService, type ClientInfo } from '../service/types.js';
import { TokenBucket } from './rate-limit.js';

/**
 * One WebSocket client of the bridge: parses every request with the wire envelope and
 * hands it to the service (which parses the command input with the contract), replies,
 * and forwards pushes. A hostile client can only hurt itself: oversized frames close
 * its socket (ws maxPayload), floods are answered "rate_limited" and then cut off,
 * a slow reader loses live frames first and is cut off if it falls far behind.
 */

export interface WsLimits {
  /** Sustained requests per second per client. */
  perSecond: number;
  burst: number;
  /** Rate-limited requests tolerated before the socket is closed. */
  maxRejected: number;
  /** Requests awaiting a reply, per client. */
  maxInFlight: number;
  /** Above this many buffered bytes live frames are dropped for this client. */
  dropFramesAboveBytes: number;
  /** Above this many buffered bytes the client is disconnected. */
  disconnectAboveBytes: number;
  /**
   * Wrong tokens one peer address may present and be answered at once; later wrong answers are
   * held (a person mistyping a URL a few times stays well under 20; the right token is never held) …
   */
  tokenFailureBurst: number;
  /** … and how many wrong answers a minute it gets after that: 10/min makes guessing a 192-bit token hopeless, as it already was. */
  tokenFailuresPerMinute: number;
  /** Peer addresses whose failures are remembered at once (least recently failing dropped first). */
  tokenFailureAddresses: number;
}

export const DEFAULT_WS_LIMITS: WsLimits = {
  perSecond: 100,
  burst: 200,
  maxRejected: 500,
  maxInFlight: 64,
  dropFramesAboveBytes: 2 * 1024 * 1024,
  disconnectAboveBytes: 64 * 1024 * 1024,
  tokenFailureBurst: 20,
  tokenFailuresPerMinute: 10,
  tokenFailureAddresses: 4096,
};

const isCommandName = (name: string): name is CommandName => Object.prototype.hasOwnProperty.call(Commands, name);

function toWireError(err: unknown): WireError {
  if (err instanceof BridgeError) return { code: err.code, message: err.message };
  // Zod errors thrown by a service that parses with .parse() are still the client's fault.
  if (err instanceof Error && err.name === 'ZodError') return { code: 'invalid', message: err.message };
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

export function attachBridgeClient(
  ws: WebSocket,
  service: BridgeService,
  client: ClientInfo,
  limits: WsLimits = DEFAULT_WS_LIMITS,
  log: (line: string) => void = () => {},
): void {
  const bucket = new TokenBucket(limits.perSecond, limits.burst);
  let rejected = 0;
  let inFlight = 0;
  let open = true;

  const send = (msg: WireServerMessage): void => {
    if (!open || ws.readyState !== ws.OPEN) return;
    ws.send(JSON.stringify(msg));
  };

  const onPush = (message: PushMessage): void => {
    if (!open) return;
    if (ws.bufferedAmount > limits.disconnectAboveBytes) {
      log(`client ${client.id} too slow; disconnecting`);
      ws.terminate();
      return;
    }
    if (message.kind === 'frame' && ws.bufferedAmount > limits.dropFramesAboveBytes) return;
    send({ kind: 'push', message });
  };
  const unsubscribe = service.subscribe(client, onPush);

  const handle = async (data: RawData, isBinary: boolean): Promise<void> => {
    if (!bucket.take()) {
      rejected += 1;
      if (rejected > limits.maxRejected) {
        log(`client ${client.id} flooding; disconnecting`);
        ws.close(1008, 'rate limit');
        return;
      }
      send({ kind: 'reply', id: null, ok: false, error: { code: 'rate_limited', message: 'too many requests' } });
      return;
    }
    if (isBinary) {
      send({ kind: 'reply', id: null, ok: false, error: { code: 'invalid', message: 'binary frames are not part of the protocol' } });
      return;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(data.toString());
    } catch {
      send({ kind: 'reply', id: null, ok: false, error: { code: 'invalid', message: 'not JSON' } });
      return;
    }
    const parsed = WireRequestSchema.safeParse(raw);
    if (!parsed.success) {
      const id = typeof raw === 'object' && raw !== null && Number.isSafeInteger((raw as { id?: unknown }).id) && ((raw as { id: number }).id >= 0) ? (raw as { id: number }).id : null;
      send({ kind: 'reply', id, ok: false, error: { code: 'invalid', message: `malformed request: ${parsed.error.issues[0]?.message ?? 'invalid'}` } });
      return;
    }
    const { id, name, input } = parsed.data;
    if (!isCommandName(name)) {
      send({ kind: 'reply', id, ok: false, error: { code: 'invalid', message: `unknown command: ${name.slice(0, 64)}` } });
      return;
    }
    if (inFlight >= limits.maxInFlight) {
      send({ kind: 'reply', id, ok: false, error: { code: 'rate_limited', message: 'too many requests in flight' } });
      return;
    }
    inFlight += 1;
    try {
      const output = await service.call(name, input, client);
      send({ kind: 'reply', id, ok: true, output });
    } catch (err) {
      send({ kind: 'reply', id, ok: false, error: toWireError(err) });
    } finally {
      inFlight -= 1;
    }
  };

  ws.on('message', (data, isBinary) => {
    handle(data, isBinary).catch((err: unknown) => log(`client ${client.id}: ${String(err)}`));
  });
  ws.on('error', (err) => log(`client ${client.id} socket error: ${err.message}`));
  ws.on('close', () => {
    open = false;
    unsubscribe();
  });
}
