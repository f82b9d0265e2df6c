import { abortError } from '../../shared/abort.js';
import type { RunEvent } from '../../shared/events.js';
import type { ImageTarget } from '../../os-control/types.js';
import type { Driver } from '../agent/index.js';
import type { ModelTurn } from '../agent/providers/types.js';
import type { ModelCall } from '../agent/transcript.js';

/**
 * An MCP session is a DeskPilot run whose "model" is the MCP client: each tool call
 * becomes one model turn with one call, which the runner then validates, gates,
 * executes and logs exactly as it does a model's. So the session gets the one gate,
 * approval queue, kill switch, key release, coordinate mapping and event log of a run,
 * with no second path to the desktop.
 *
 * This file is the bridge: `submit` hands a call to the waiting runner and resolves with
 * its result, read from the `observation` event that answers the call (logged right
 * after the action ran and the screen settled).
 */

/** The screenshot size MCP clients get: Anthropic's recommended computer-use size (WXGA, 1280×800), JPEG. */
export const MCP_IMAGE_TARGET: ImageTarget = { format: 'jpeg', quality: 85, maxLongEdge: 1280, maxPixels: 1280 * 800 };

export interface CallResult {
  ok: boolean;
  text: string;
  /** The run-folder path of the screenshot taken after the call, and its size. */
  image?: { path: string; width: number; height: number; mediaType: 'image/jpeg' | 'image/png' | 'image/webp' };
}

interface Pending {
  call: ModelCall;
  resolve(result: CallResult): void;
  reject(error: Error): void;
}

const MEDIA = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;

export class ClientAsModel {
  /** Calls handed in and not yet taken by the runner (the session sends one at a time). */
  private readonly queue: Pending[] = [];
  /** The call the runner is working on. */
  private inFlight: Pending | undefined;
  /** The runner waiting for the next call. */
  private taker: { resolve(next: Pending | 'end'): void } | undefined;
  private ended = false;
  private endedReason = '';
  private seq = 0;

  constructor(private readonly clientName: () => string) {}

  /** Hands a call to the run; resolves with its result, rejects when the run ends first. */
  submit(call: Omit<ModelCall, 'callId'>): Promise<CallResult> {
    if (this.ended) return Promise.reject(new Error(this.endedReason));
    this.seq += 1;
    const full: ModelCall = { ...call, callId: `mcp-${this.seq}` };
    return new Promise<CallResult>((resolve, reject) => {
      const pending: Pending = { call: full, resolve, reject };
      if (this.taker) {
        const taker = this.taker;
        this.taker = undefined;
        taker.resolve(pending);
      } else {
        this.queue.push(pending);
      }
    });
  }

  /** The client is gone: the run's next turn ends it as done. */
  end(): void {
    this.close('the MCP client closed the session');
    if (this.taker) {
      const taker = this.taker;
      this.taker = undefined;
      taker.resolve('end');
    }
  }

  /** The run ended (stopped, a limit, an error): every call not answered fails with why. */
  close(reason: string): void {
    if (!this.ended) {
      this.ended = true;
      this.endedReason = reason;
    }
    const failed = [...(this.inFlight ? [this.inFlight] : []), ...this.queue.splice(0)];
    this.inFlight = undefined;
    for (const p of failed) p.reject(new Error(this.endedReason));
  }

  /** Feed every event of the run: the observation that answers the call in flight resolves it. */
  onEvent(event: RunEvent): void {
    if (event.type === 'run_ended') {
      this.close(`the DeskPilot session ended (${event.status}): ${event.summary}`);
      return;
    }
    if (event.type !== 'observation' || !this.inFlight) return;
    const result = event.toolResults?.find((r) => r.callId === this.inFlight!.call.callId);
    if (!result) return;
    const done = this.inFlight;
    this.inFlight = undefined;
    const { image } = event.observation;
    done.resolve({ ok: result.ok, text: result.text, image: { path: event.image, width: image.width, height: image.height, mediaType: MEDIA[image.format] } });
  }

  /** The Driver of the session's run: the client's next tool call is its turn. */
  readonly provider: Driver = {
    family: 'openai-compatible',
    model: 'mcp-client',
    imageTarget: () => MCP_IMAGE_TARGET,
    turn: async (_request, signal): Promise<ModelTurn> => {
      const next = await this.take(signal);
      if (next === 'end') {
        return { assistant: { role: 'assistant', text: this.endedReason, calls: [] }, usage: ZERO_TOKENS, stopReason: 'end_turn' };
      }
      this.inFlight = next;
      return {
        // Shown with the approval as the "reasoning": who asks for this action.
        assistant: { role: 'assistant', text: `The MCP client ${this.clientName()} calls ${next.call.name}.`, calls: [next.call] },
        usage: ZERO_TOKENS,
        stopReason: 'tool_use',
      };
    },
  };

  private take(signal: AbortSignal): Promise<Pending | 'end'> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    if (this.ended) return Promise.resolve('end');
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.taker = undefined;
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.taker = {
        resolve: (next) => {
          signal.removeEventListener('abort', onAbort);
          resolve(next);
        },
      };
    });
  }
}

const ZERO_TOKENS = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
