import { Commands, type CommandName, type CommandOutput, type PushMessage } from '../../src/shared/bridge.js';
import { ConfigSchema } from '../../src/shared/config.js';
import { BridgeError, type BridgeService, type ClientInfo } from '../../src/main/service/types.js';

/**
 * A tiny in-test BridgeService for transport tests: it parses inputs with the real
 * contract like the real service, records what it was asked, and resolves one
 * pending approval exactly once. The end-to-end tests use the real service.
 */
export class FakeService implements BridgeService {
  readonly calls: { name: string; input: unknown; client: string }[] = [];
  readonly listeners = new Map<string, (m: PushMessage) => void>();
  approvalAnsweredBy: string | null = null;
  config = ConfigSchema.parse({});

  async call<N extends CommandName>(name: N, input: unknown, client: ClientInfo): Promise<CommandOutput<N>> {
    const parsed = Commands[name].input.safeParse(input);
    if (!parsed.success) throw new BridgeError('invalid', parsed.error.issues.map((i) => i.message).join('; '));
    this.calls.push({ name, input: parsed.data, client: client.id });
    // Let concurrent answers from several clients interleave for real.
    await new Promise((r) => setTimeout(r, 1));
    switch (name) {
      case 'approval.answer': {
        if (this.approvalAnsweredBy) return { accepted: false, reason: 'already answered' } as CommandOutput<N>;
        this.approvalAnsweredBy = client.id;
        return { accepted: true } as CommandOutput<N>;
      }
      case 'settings.get':
        return { config: this.config, keys: {} } as CommandOutput<N>;
      case 'run.start':
        return { runId: 'run-1' } as CommandOutput<N>;
      default:
        return {} as CommandOutput<N>;
    }
  }

  subscribe(client: ClientInfo, listener: (m: PushMessage) => void): () => void {
    this.listeners.set(client.id, listener);
    listener({ kind: 'run_state', runId: null, state: null, reason: '' });
    return () => this.listeners.delete(client.id);
  }

  push(message: PushMessage): void {
    for (const l of this.listeners.values()) l(message);
  }

  async readRunFile(runId: string, relativePath: string): Promise<{ data: Buffer; mediaType: string }> {
    if (runId === 'run-1' && relativePath === 'shots/0001.jpg') return { data: Buffer.from('JPEGDATA'), mediaType: 'image/jpeg' };
    throw new BridgeError('not_found', 'no such file');
  }

  async close(): Promise<void> {}
}
