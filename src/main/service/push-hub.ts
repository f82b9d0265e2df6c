import { PushMessageSchema, type PushMessage } from '../../shared/bridge.js';
import { issueText } from './bridge-errors.js';
import type { ClientInfo } from './types.js';

export type Listener = (message: PushMessage) => void;

/** The service's subscribers and the one way a push reaches them: through the bridge contract, once. */
export class PushHub {
  private readonly listeners = new Map<Listener, ClientInfo>();

  /** Every push passes the contract here, once, whatever transport carries it. */
  valid(message: PushMessage): PushMessage | null {
    const parsed = PushMessageSchema.safeParse(message);
    if (parsed.success) return parsed.data;
    // A bug in main, not a client's fault: never delivered, always reported.
    console.error(`deskpilot: push ${message.kind} broke the bridge contract and was not sent: ${issueText(parsed.error.issues)}`);
    return null;
  }

  /** To every subscriber, or to those `to` picks. */
  push(raw: PushMessage, to: (client: ClientInfo) => boolean = () => true): void {
    const message = this.valid(raw);
    if (!message) return;
    for (const [listener, client] of this.listeners) {
      if (!to(client)) continue;
      try {
        listener(message);
      } catch {
        // One broken client must not starve the others.
      }
    }
  }

  /** Adds a subscriber and greets it with the messages that pass the contract. */
  add(client: ClientInfo, listener: Listener, greeting: readonly PushMessage[]): void {
    this.listeners.set(listener, client);
    for (const message of greeting.map((m) => this.valid(m))) {
      try {
        if (message) listener(message);
      } catch {
        // ignore a listener that throws at once
      }
    }
  }

  /** Removes a subscriber; says whether its client still has another. */
  remove(client: ClientInfo, listener: Listener): boolean {
    this.listeners.delete(listener);
    return [...this.listeners.values()].some((c) => c.id === client.id);
  }

  clear(): void {
    this.listeners.clear();
  }
}
