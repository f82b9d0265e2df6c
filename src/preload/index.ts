import { contextBridge, ipcRenderer } from 'electron';

/**
 * Exposes the bridge client to the page, and nothing more. No Node, no ipcRenderer:
 * the page can only call the bridge commands by name and listen to pushes. Main
 * validates every message with the bridge contract (src/shared/bridge.ts).
 * Kept dependency-free: a sandboxed preload cannot load modules.
 */

const CMD = 'deskpilot:cmd:';
const PUSH = 'deskpilot:push';
const FILES = 'deskpilot-file';

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
    if (typeof name !== 'string' || !/^[a-z]+\.[a-z]+$/.test(name)) throw new BridgeCallError('invalid', 'bad command name');
    const reply = (await ipcRenderer.invoke(CMD + name, input)) as Reply;
    if (reply.ok) return reply.output;
    throw new BridgeCallError(reply.error.code, reply.error.message);
  },
  subscribe(listener: (message: unknown) => void): () => void {
    const handler = (_event: unknown, message: unknown) => listener(message);
    ipcRenderer.on(PUSH, handler);
    return () => ipcRenderer.removeListener(PUSH, handler);
  },
  fileUrl(runId: string, relativePath: string): string {
    return `${FILES}://run/${encodeURIComponent(runId)}/${relativePath.split('/').map(encodeURIComponent).join('/')}`;
  },
});
