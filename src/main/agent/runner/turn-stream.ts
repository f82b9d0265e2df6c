import { DeltaScrubber } from '../../sessions/scrub.js';

type TextKind = 'text' | 'thinking';

/**
 * The live text of one model turn (the app's and the serve page's streamed text; ACP and
 * MCP runs stream through the same service push). A turn that may type a password
 * (runner/turn-secrets.ts mayTypePassword) holds its deltas until its calls are parsed
 * and the typed words marked secret, then sends them through the log's scrubber: the
 * word the turn types into the field is masked there as it is in `model_text`, never
 * shown first and masked after. Every other turn streams at once, through the same
 * scrubber (keys, detector hits). Until the decision is known (a window title asked of
 * the OS, ~5–20 ms, while the model's first token takes 300 ms or more) deltas wait.
 */
export class TurnStream {
  private readonly scrubbed: DeltaScrubber;
  private held: Array<{ text: string; kind: TextKind }> = [];
  /** 'wait': undecided; 'live': nothing to hide, streamed now; 'hold': sent at end(); 'ended': the turn is over. */
  private mode: 'wait' | 'live' | 'hold' | 'ended' = 'wait';

  constructor(scrub: (text: string) => string, out: (text: string, kind: TextKind) => void, mayHoldSecret: Promise<boolean>) {
    this.scrubbed = new DeltaScrubber(scrub, out);
    // A decision that fails holds: the text then waits for the turn's check (fails closed).
    void mayHoldSecret.then(
      (hold) => this.decide(hold ? 'hold' : 'live'),
      () => this.decide('hold'),
    );
  }

  push(text: string, kind: TextKind): void {
    if (this.mode === 'live') this.scrubbed.push(text, kind);
    else if (this.mode !== 'ended') this.held.push({ text, kind });
  }

  /** After the turn's typed passwords are marked secret: what was held goes out through the scrubber, then the last partial words. */
  end(): void {
    this.release();
    this.mode = 'ended';
    this.scrubbed.flush();
  }

  /** The turn failed before its calls could be checked: what was held is never sent. */
  drop(): void {
    this.held = [];
    this.mode = 'ended';
  }

  private decide(mode: 'live' | 'hold'): void {
    if (this.mode !== 'wait') return;
    this.mode = mode;
    if (mode === 'live') this.release();
  }

  private release(): void {
    const held = this.held;
    this.held = [];
    for (const d of held) this.scrubbed.push(d.text, d.kind);
  }
}
