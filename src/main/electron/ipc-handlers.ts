import { Commands, PushMessageSchema, type CommandName, type PushMessage } from '../../shared/bridge.js';
import type { WireError } from '../../shared/bridge-wire.js';
import { BridgeError, type BridgeService, type ClientInfo } from '../service/types.js';

/**
 * The Electron IPC transport without Electron: what each ipcMain.handle does, and
 * which pages may call it. main.ts only wires these to ipcMain and webContents.
 */

export type IpcReply = { ok: true; output: unknown } | { ok: false; error: WireError };

export const COMMAND_NAMES = Object.keys(Commands) as CommandName[];

/**
 * Only our own page may use the bridge: the built renderer (file://…/out/renderer/),
 * or the dev server URL in development. Anything else (a navigated-away frame, an
 * iframe) is refused.
 */
export function isTrustedSender(senderUrl: string | undefined, appUrl: string): boolean {
  if (!senderUrl) return false;
  let sender: URL;
  let app: URL;
  try {
    sender = new URL(senderUrl);
    app = new URL(appUrl);
  } catch {
    return false;
  }
  if (app.protocol === 'file:') return sender.protocol === 'file:' && sender.pathname === app.pathname;
  return sender.origin === app.origin;
}

export function makeCommandHandler(service: BridgeService, client: ClientInfo, name: CommandName, after?: (name: CommandName, output: unknown) => void) {
  return async (trusted: boolean, input: unknown): Promise<IpcReply> => {
    if (!trusted) return { ok: false, error: { code: 'invalid', message: 'untrusted sender' } };
    // The service parses with the contract too; parsing here keeps junk out of main entirely.
    const parsed = Commands[name].input.safeParse(input);
    if (!parsed.success) return { ok: false, error: { code: 'invalid', message: parsed.error.issues.map((i) => i.message).join('; ') } };
    try {
      const output = await service.call(name, parsed.data, client);
      after?.(name, output);
      return { ok: true, output };
    } catch (err) {
      if (err instanceof BridgeError) return { ok: false, error: { code: err.code, message: err.message } };
      return { ok: false, error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } };
    }
  };
}

/** Pushes leave main only when they match the contract. */
export function validPush(message: PushMessage): PushMessage | null {
  const parsed = PushMessageSchema.safeParse(message);
  return parsed.success ? parsed.data : null;
}

/** deskpilot-file://run/<runId>/<path…> → its parts; null when malformed. */
export function parseRunFileUrl(raw: string): { runId: string; path: string } | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.hostname !== 'run') return null;
  const parts = url.pathname.split('/').filter(Boolean);
  if (parts.length < 2) return null;
  try {
    const [runId, ...rest] = parts.map(decodeURIComponent);
    if (!runId || rest.some((p) => p === '..' || p === '.' || p.includes('\0'))) return null;
    return { runId, path: rest.join('/') };
  } catch {
    return null;
  }
}
