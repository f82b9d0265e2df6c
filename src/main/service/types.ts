import type { CommandName, CommandOutput, PushMessage } from '../../shared/bridge.js';

/**
 * The one object behind both bridge transports (Electron IPC, WebSocket). The
 * transports only move messages; this validates every input with the bridge
 * contract (src/shared/bridge.ts) and does the work.
 */
export interface ClientInfo {
  /** Stable per connection: "electron", "ws:3", "cli". */
  id: string;
  kind: 'electron' | 'ws' | 'cli';
}

/** A command failed: bad input (code "invalid"), unknown run, … Sent back to the client as is. */
export class BridgeError extends Error {
  constructor(
    readonly code: 'invalid' | 'not_found' | 'conflict' | 'unavailable' | 'internal',
    message: string,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

export interface BridgeService {
  /** Parses `input` with Commands[name].input; throws BridgeError('invalid') when it does not parse. */
  call<N extends CommandName>(name: N, input: unknown, client: ClientInfo): Promise<CommandOutput<N>>;
  /** Push messages for this client (events of runs, deltas, frames while it watches, run state). */
  subscribe(client: ClientInfo, listener: (message: PushMessage) => void): () => void;
  /** A file of a run's folder (screenshot, thumbnail); rejects paths that leave the folder. */
  readRunFile(runId: string, relativePath: string): Promise<{ data: Buffer; mediaType: string }>;
  close(): Promise<void>;
}

/** Where API keys live: the OS keychain in the desktop app; none in `deskpilot serve` (env only). */
export interface SecretStore {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
  has(name: string): Promise<boolean>;
}
