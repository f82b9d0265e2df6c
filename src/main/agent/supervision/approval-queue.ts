import type { ApprovalElement } from '../../../shared/events.js';
import { abortError } from '../../../shared/abort.js';
import type { Action } from '../../../shared/actions.js';
import type { CheckedAction } from '../../../os-control/check-action.js';
import { ApprovalAnswerSchema, type ApprovalAnswer, type ApprovedBy, type GateDecision } from '../../../shared/approvals.js';
import type { RunEventInput } from '../../../shared/events.js';

/**
 * The one approval queue of a run. Every proposal the gate holds is an item; only
 * the head item can be answered (and so fire). The CLI prompt, the Electron window
 * and every browser client answer through `answer()`, which is synchronous: the
 * first accepted answer removes the item before the call returns, so a second
 * answer — from another client in the same tick or later — finds nothing and gets
 * `accepted: false`. Resolved once, never twice.
 */

export interface QueueItem {
  readonly proposalId: string;
  readonly action: Action;
  readonly decision: GateDecision;
  /** Auto-approve this many ms after the item reaches the head, unless cancelled. */
  readonly countdownMs?: number;
  /** The focused window when it was proposed, shown to the person. */
  readonly window?: { title: string; app: string };
  /** The element the action lands on, shown to the person. */
  readonly element?: ApprovalElement;
}

export interface Resolution {
  /** The answer as accepted; an edit carries the checked action. */
  answer: ApprovalAnswer;
  by: ApprovedBy;
}

export interface AnswerResult {
  accepted: boolean;
  /** Why not, for the client that lost or sent something invalid. */
  reason?: string;
}

export type EditCheck = { ok: true; action: CheckedAction } | { ok: false; error: string };

export interface ApprovalQueueOptions {
  emit?: (event: RunEventInput) => void;
  /** Checks a person's edit exactly like model output; an invalid edit is refused and the item stays. */
  checkEdit?: (item: QueueItem, action: Action) => EditCheck;
  /** Runs synchronously inside the accepted answer, before any other answer can be seen. */
  onAccepted?: (item: QueueItem, resolution: Resolution) => void;
}

interface Entry {
  item: QueueItem;
  resolve: (resolution: Resolution) => void;
  reject: (reason: unknown) => void;
  timer?: ReturnType<typeof setTimeout>;
  cleanup: () => void;
}


export class ApprovalQueue {
  private readonly entries: Entry[] = [];

  constructor(private readonly options: ApprovalQueueOptions = {}) {}

  /** Items waiting, head first. */
  pending(): QueueItem[] {
    return this.entries.map((e) => e.item);
  }

  head(): QueueItem | undefined {
    return this.entries[0]?.item;
  }

  /**
   * Holds an item until it is answered. Emits `approval_requested`. Rejects with an
   * AbortError (and leaves the queue) when `signal` aborts.
   */
  hold(item: QueueItem, signal: AbortSignal): Promise<Resolution> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    // Only a person may answer what is humanOnly: no countdown, whatever the config says.
    const countdownMs = item.decision.humanOnly ? undefined : item.countdownMs;
    const held: QueueItem = { ...item, countdownMs };
    return new Promise<Resolution>((resolve, reject) => {
      const onAbort = () => {
        if (!this.remove(entry)) return;
        reject(abortError(signal));
      };
      const entry: Entry = {
        item: held,
        resolve,
        reject,
        cleanup: () => signal.removeEventListener('abort', onAbort),
      };
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent — a signal aborts once; cleanup removes the listener either way.
      signal.addEventListener('abort', onAbort, { once: true });
      this.entries.push(entry);
      this.options.emit?.({
        type: 'approval_requested',
        proposalId: held.proposalId,
        decision: held.decision,
        ...(countdownMs ? { countdownMs } : {}),
        ...(held.window ? { window: held.window } : {}),
        ...(held.element ? { element: held.element } : {}),
      });
      // Stryker disable next-line ConditionalExpression: equivalent — armHead arms only the head, and only once.
      if (this.entries[0] === entry) this.armHead();
    });
  }

  /**
   * A client's answer to the item `proposalId`. Accepted only for the head item,
   * only once, and only when it parses (an edit must also pass `checkEdit`).
   */
  answer(proposalId: string, answer: unknown, clientId: string): AnswerResult {
    const parsed = ApprovalAnswerSchema.safeParse(answer);
    if (!parsed.success) return { accepted: false, reason: `invalid answer: ${parsed.error.issues[0]?.message ?? 'does not parse'}` };
    const entry = this.entries.find((e) => e.item.proposalId === proposalId);
    if (!entry) return { accepted: false, reason: 'no pending approval with this id (answered already, or the run moved on)' };
    if (entry !== this.entries[0]) return { accepted: false, reason: 'only the head of the approval queue can be answered' };

    let accepted: ApprovalAnswer = parsed.data;
    if (accepted.decision === 'edit' && this.options.checkEdit) {
      const check = this.options.checkEdit(entry.item, accepted.action);
      if (!check.ok) return { accepted: false, reason: `edit refused: ${check.error}` };
      accepted = { decision: 'edit', action: check.action };
    }
    this.settle(entry, { answer: accepted, by: { kind: 'person', detail: clientId } });
    return { accepted: true };
  }

  /**
   * Cancels the head item's countdown: it then waits for a person like any other.
   * Emits `approval_requested` again for the same proposal without `countdownMs` — a
   * repeated request replaces the earlier one in every client.
   */
  cancelCountdown(proposalId: string): boolean {
    const entry = this.entries[0];
    if (!entry || entry.item.proposalId !== proposalId || entry.item.countdownMs === undefined) return false;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.item = { ...entry.item, countdownMs: undefined };
    this.options.emit?.({
      type: 'approval_requested',
      proposalId,
      decision: entry.item.decision,
      ...(entry.item.window ? { window: entry.item.window } : {}),
      ...(entry.item.element ? { element: entry.item.element } : {}),
    });
    return true;
  }

  private armHead(): void {
    const entry = this.entries[0];
    if (!entry || entry.timer || !entry.item.countdownMs) return;
    const ms = entry.item.countdownMs;
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      if (this.entries[0] !== entry) return;
      this.settle(entry, { answer: { decision: 'approve' }, by: { kind: 'countdown', detail: `${ms} ms` } });
    }, ms);
  }

  /** The compare-and-set: removes the entry, then reports and resolves. Synchronous. */
  private settle(entry: Entry, resolution: Resolution): void {
    if (!this.remove(entry)) return;
    this.options.onAccepted?.(entry.item, resolution);
    this.options.emit?.({ type: 'approval_answered', proposalId: entry.item.proposalId, answer: resolution.answer, by: resolution.by });
    entry.resolve(resolution);
  }

  /** false when the entry had already left the queue. Arms the next head's countdown. */
  private remove(entry: Entry): boolean {
    const i = this.entries.indexOf(entry);
    if (i < 0) return false;
    this.entries.splice(i, 1);
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.cleanup();
    // Stryker disable next-line ConditionalExpression: equivalent — armHead arms only the head, and only once.
    if (i === 0) this.armHead();
    return true;
  }
}
