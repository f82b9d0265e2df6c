import type { Config } from '../../shared/config.js';
import type { ElementTreeResult } from '../../shared/elements.js';
import type { SandboxProbe } from '../sandbox/index.js';

/**
 * `deskpilot doctor`: what DeskPilot needs on this machine, one check per prerequisite.
 *
 * Every check is a small function of `DoctorProbes` (what it may ask the machine), so
 * each can be unit-tested with invented answers and the real probes (probes.ts) are
 * the only code that touches the OS.
 */

/** ok: fine · warn: works without it, or cannot be told · fail: DeskPilot cannot work · skip: not on this OS. */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckOutcome {
  /** Short stable id (JSON consumers key on it): "display", "xdotool", … */
  id: string;
  status: CheckStatus;
  /** What was found, one sentence. */
  detail: string;
  /** What to do about it; present whenever status is warn or fail. */
  fix?: string;
}

export interface CommandResult {
  /** null when the command could not be started or was killed by the timeout. */
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface PathInfo {
  isDirectory: boolean;
  /** Permission bits (mode & 0o777). */
  mode: number;
  uid: number;
}

export interface MacPermissionProbe {
  screen: 'granted' | 'denied' | 'unknown';
  accessibility: 'granted' | 'denied' | 'unknown';
}

export interface DoctorProbes {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  nodeVersion: string;
  /** Absolute path of an executable on PATH, or undefined. */
  which(command: string): Promise<string | undefined>;
  /** Run a command (no shell) with the probes' environment; never throws. */
  run(command: string, args: readonly string[], timeoutMs?: number): Promise<CommandResult>;
  stat(file: string): Promise<PathInfo | undefined>;
  /** Effective uid, undefined on Windows. */
  uid(): number | undefined;
  /** Can a TCP connection be opened to host:port within the timeout? */
  tcpConnect(host: string, port: number, timeoutMs: number): Promise<{ ok: true } | { ok: false; error: string }>;
  /** Unix socket connect (X display sockets). */
  unixConnect(file: string, timeoutMs: number): Promise<boolean>;
  macPermissions(): Promise<MacPermissionProbe>;
  /** The user's config (built-in profiles merged); throws ConfigError on a bad file. */
  loadConfig(): Promise<Config>;
  /** The data folder (~/.deskpilot or $DESKPILOT_HOME). */
  home: string;
  /** Every window on the accessibility bus, without its elements (depth 0); never throws. */
  accessibleWindows(): Promise<ElementTreeResult>;
  /** Runs `true` through the real sandbox (sandbox/probe.ts); absent in probes that do not ask. */
  sandbox?(): Promise<SandboxProbe>;
}

export interface DoctorCheck {
  id: string;
  /** A failed required check makes `deskpilot doctor` exit 1. */
  required: boolean;
  /** Runs the check; may throw (the runner reports that as a failure of this check). */
  run(probes: DoctorProbes): Promise<CheckOutcome | CheckOutcome[]>;
}
