import { contextBridge, ipcRenderer } from 'electron';
import { COMMAND_NAMES, IPC_COMMAND_CHANNEL_PREFIX, IPC_PUSH_CHANNEL, IPC_SUBSCRIBE_CHANNEL, RUN_FILE_PROTOCOL } from '../shared/bridge-names.js';

/**
 * Exposes the bridge client to the page, and nothing more. No Node, no ipcRenderer:
 * the page can only call the bridge commands by name and listen to pushes. Main's
 * bridge service validates every input, output and push with the contract
 * (src/shared/bridge.ts); this only keeps the page on the channels the contract names.
 * Channel and command names come from src/shared/bridge-names.ts, the list the
 * contract is checked against at compile time (bundled in: a sandboxed preload cannot
 * load modules at run time), so a command main serves is never refused here.
 */

const KNOWN_COMMANDS: ReadonlySet<string> = new Set(COMMAND_NAMES);

type Reply = { ok: true; output: unknown } | { ok: false; error: { code: string; message: string } };

class BridgeCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeCallError';
  }
}

contextBridge.exposeInMainWorld('deskpilot', {
  async call(name: string, input: unknown): Promise<unknown> {
    if (typeof name !== 'string' || !KNOWN_COMMANDS.has(name)) throw new BridgeCallError('invalid', `unknown command ${String(name).slice(0, 64)}`);
    const reply = (await ipcRenderer.invoke(IPC_COMMAND_CHANNEL_PREFIX + name, input)) as Reply;
    if (reply.ok) return reply.output;
    throw new BridgeCallError(reply.error.code, reply.error.message);
  },
  subscribe(listener: (message: unknown) => void): () => void {
    const handler = (_event: unknown, message: unknown) => listener(message);
    ipcRenderer.on(IPC_PUSH_CHANNEL, handler);
    // Now that the page listens, main sends the current state (the stop hotkey's among
    // it) and then every push. Refused only for a page that is not ours.
    ipcRenderer.invoke(IPC_SUBSCRIBE_CHANNEL).catch((error: unknown) => console.error('DeskPilot: main did not send the current state', error));
    return () => ipcRenderer.removeListener(IPC_PUSH_CHANNEL, handler);
  },
  fileUrl(runId: string, relativePath: string): string {
    return `${RUN_FILE_PROTOCOL}://run/${encodeURIComponent(runId)}/${relativePath.split('/').map(encodeURIComponent).join('/')}`;
  },
});
