import type { CommandName } from '../../shared/bridge-names.js';
import type { WireError } from '../../shared/bridge-wire.js';
import { BridgeError, type BridgeService, type ClientInfo } from '../service/types.js';

/**
 * The Electron IPC transport without Electron: what each ipcMain.handle does, and
 * which pages may call it. main.ts only wires these to ipcMain and webContents.
 */

export type IpcReply = { ok: true; output: unknown } | { ok: false; error: WireError };


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

/**
 * One ipcMain.handle body: refuse pages that are not ours, then hand the JSON to the
 * service, which validates input, result and pushes (one place for every transport).
 */
export function makeCommandHandler(service: BridgeService, client: ClientInfo, name: CommandName) {
  return async (trusted: boolean, input: unknown): Promise<IpcReply> => {
    if (!trusted) return { ok: false, error: { code: 'invalid', message: 'untrusted sender' } };
    try {
      return { ok: true, output: await service.call(name, input, client) };
    } catch (err) {
      if (err instanceof BridgeError) return { ok: false, error: { code: err.code, message: err.message } };
      return { ok: false, error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } };
    }
  };
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
