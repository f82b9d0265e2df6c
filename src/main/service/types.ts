import type { PolicyMode } from '../../shared/approvals.js';
import type { CommandName, CommandOutput, PushMessage } from '../../shared/bridge.js';
import type { Config } from '../../shared/config.js';
import type { PersonInput } from '../agent/record/record.js';
import type { RunHandle, RunOptions } from '../agent/run-api.js';

/**
 * The one object behind both bridge transports (Electron IPC, WebSocket). The
 * transports only move JSON; this validates every input, every output and every push
 * with the bridge contract (src/shared/bridge.ts) and does the work.
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
  /**
   * Parses `input` with Commands[name].input (BridgeError 'invalid' when it does not
   * parse) and the result with Commands[name].output (BridgeError 'internal' when the
   * service broke its own contract).
   */
  call<N extends CommandName>(name: N, input: unknown, client: ClientInfo): Promise<CommandOutput<N>>;
  /** Push messages for this client (events of runs, deltas, frames while it watches, run state), each parsed with PushMessageSchema. */
  subscribe(client: ClientInfo, listener: (message: PushMessage) => void): () => void;
  /** A file of a run's folder (screenshot, thumbnail); rejects paths that leave the folder. */
  readRunFile(runId: string, relativePath: string): Promise<{ data: Buffer; mediaType: string }>;
  close(): Promise<void>;
}

/** The real service, which can also host runs that other front ends start. */
export interface RunHostingService extends BridgeService {
  /**
   * Hosts a run another front end starts (`deskpilot mcp`, `deskpilot acp`) as the
   * active run: every client sees its events and state and answers its approvals, as
   * for `run.start`. `start` gets the hooks to pass to startRun. With `over` (the id of
   * the active run) it is hosted above that run until it ends; otherwise an active run
   * is a conflict (BridgeError 'conflict').
   */
  hostRun(
    start: (hooks: Pick<RunOptions, 'onEvent' | 'onDelta'>) => Promise<RunHandle>,
    policy: PolicyMode,
    options?: { over?: string },
  ): Promise<RunHandle>;
}

/** Where API keys live: the OS keychain in the desktop app; none in `deskpilot serve` (env only). */
export interface SecretStore {
  /** Why keys cannot be stored right now (no keyring…), or null: checked before a settings save writes anything. */
  storeProblem(): string | null;
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
  has(name: string): Promise<boolean>;
}

/** The desktop app's stop hotkey as pushed to its windows (kind 'kill_hotkey'). */
export type KillHotkeyPush = Extract<PushMessage, { kind: 'kill_hotkey' }>;

/**
 * What the host (the desktop shell) adds to the service: state only it knows, pushed to
 * every client, and its part of a settings save. Absent in `deskpilot serve`.
 */
export interface ServiceHost {
  /** The stop hotkey now; null until the shell has tried to register one. */
  killHotkey(): KillHotkeyPush | null;
  /** Called with each change of killHotkey(); the service validates and pushes it. */
  onKillHotkeyChange(listener: () => void): void;
  /**
   * Runs before a settings save writes anything (the shell registers a changed stop
   * hotkey here, keeping the old one until the new one works). Throwing a BridgeError
   * refuses the save; the returned function undoes it when the write then fails.
   */
  prepareSettings(next: Config): Promise<() => void>;
  /**
   * Whether a person's input went to the shell's own windows (a press inside one of
   * them, a key while one has the focus): a recording leaves it out, so pressing Stop
   * in the app is not a step of the task.
   */
  ownsInput(input: PersonInput): boolean;
  /**
   * Opens a file with the system's handler for its type (Electron's shell.openPath):
   * History's "Open report" for an eval. Rejects with the reason when nothing opened it.
   */
  openPath?(file: string): Promise<void>;
}
