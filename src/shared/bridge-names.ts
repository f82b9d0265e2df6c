/**
 * The names of the bridge, without the schemas: command names, the Electron IPC
 * channels and the run-file protocol. Dependency-free so the sandboxed preload can
 * bundle it in about a kilobyte; the zod contract (bridge.ts, bridge-wire.ts) would
 * bring ~470 KB and half a second of schema building into every window's preload
 * (measured: 469 KB minified, 460–800 ms to load on a busy 2-core machine).
 *
 * bridge.ts declares `Commands` as `satisfies Record<CommandName, …>`, so a command
 * added there without its name here (or the reverse) does not compile.
 */

export const COMMAND_NAMES = [
  'run.start',
  'run.stop',
  'run.pause',
  'run.resume',
  'approval.answer',
  'approval.cancelCountdown',
  'question.answer',
  'settings.get',
  'settings.save',
  'sessions.list',
  'sessions.open',
  'sessions.delete',
  'sessions.export',
  'eval.report',
  'skills.list',
  'screen.watch',
  'connection.test',
  'record.start',
  'record.stop',
] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];

/** Electron IPC channel names (preload ↔ main): one channel per command, one for pushes. */
export const IPC_COMMAND_CHANNEL_PREFIX = 'deskpilot:cmd:';
export const IPC_PUSH_CHANNEL = 'deskpilot:push';
/**
 * The page asks main for pushes on this channel once it listens (and again after a
 * reload): main answers with the current state (run, stop hotkey, recording) and
 * then streams. A push sent before the page listens is lost, so nothing is sent
 * to a window before it asks.
 */
export const IPC_SUBSCRIBE_CHANNEL = 'deskpilot:subscribe';
/** Custom protocol the desktop app serves run files on: deskpilot-file://run/<runId>/<path>. */
export const RUN_FILE_PROTOCOL = 'deskpilot-file';
