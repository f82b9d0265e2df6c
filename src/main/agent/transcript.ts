import type { Action } from '../../shared/actions.js';

/**
 * The provider-neutral conversation. The runner keeps it (and can rebuild it from a
 * session's event log); the context manager prunes its images; each provider renders
 * it into its own wire format on every request.
 */

/** An image in the transcript: a screenshot on disk, loaded when a request is built. */
export interface TranscriptImage {
  observationId: string;
  mediaType: 'image/jpeg' | 'image/png' | 'image/webp';
  width: number;
  height: number;
  /** A zoom: part of the screen at full resolution, not a screenshot the model's coordinates refer to. */
  zoom?: boolean;
  load(): Promise<Buffer>;
}

/** One model tool call, parsed into zero or more actions (OpenAI's GA computer tool batches several). */
export interface ModelCall {
  /** The provider's id for the call, used to answer it. */
  callId: string;
  /** The tool the model called ("computer", "bash", "ask_user", "done", a toolset member …). */
  name: string;
  /** The raw input, as the model sent it, for the log and for faithful replay. */
  input: unknown;
  /** Parsed actions in order; a parse failure is an entry with `error` and is never executed. */
  actions: Array<{ ok: true; action: Action } | { ok: false; error: string }>;
  /** OpenAI pending safety checks on this call: only a person may acknowledge them. */
  safetyChecks?: Array<{ id: string; code: string; message: string }>;
  /**
   * Set only by agent/replay's provider: its element actions carry the element found
   * again by the recorded path (a replay has no element list to resolve ids in), and the
   * runner keeps those targets. No provider's parser sets it: a model's element action
   * names an id only, and its target always comes from the list the model was sent.
   */
  foundElements?: true;
  /**
   * Set only by agent/replay's provider, on a step with a recorded code block: the size
   * of the screenshot the block's model was sent, the pixels its computer calls are in
   * (harness/code/recorded-space.ts). A model's block is always in the screenshot it has.
   */
  blockSpace?: { width: number; height: number };
}

/**
 * A call with exactly the fields the log keeps and the transcript needs: the loop writes
 * it into model_text, resume reads it back (runner/resume.ts). One copy, so the two
 * cannot drift apart.
 */
export function callRecord(c: ModelCall): ModelCall {
  return { callId: c.callId, name: c.name, input: c.input, actions: c.actions, ...(c.safetyChecks ? { safetyChecks: c.safetyChecks } : {}) };
}

export interface UserItem {
  role: 'user';
  text: string;
  image?: TranscriptImage;
  /** Set by the context manager when it removed this item's image. */
  imagePruned?: boolean;
  /** Set by the context manager on every item of the frozen, compacted start of the conversation. */
  compacted?: boolean;
  /**
   * Sent with this one request and never kept (the element list of the newest
   * screenshot, agent/grounding): the runner adds it after pruning, and providers put
   * no prompt-cache breakpoint on it, so the next request's prefix — without it — still
   * reads from the cache.
   */
  transient?: boolean;
}

export interface AssistantItem {
  role: 'assistant';
  text: string;
  thinking?: string;
  calls: ModelCall[];
  /**
   * Whatever the provider needs to replay this turn exactly (Anthropic content blocks
   * with thinking signatures, an OpenAI response id and output items). Opaque to the
   * runner; must be JSON-serialisable so it can be logged and resumed.
   */
  providerState?: unknown;
}

export interface ToolResultItem {
  role: 'tool_result';
  callId: string;
  /** The tool the call was for (some wire formats need it). */
  name: string;
  ok: boolean;
  text: string;
  /** The screenshot after the action, when there is one. */
  image?: TranscriptImage;
  imagePruned?: boolean;
  /** See UserItem.compacted: a routine result's text is dropped there. */
  compacted?: boolean;
  /**
   * Nothing in `text` matters once the step is past (a GUI action that ran, "the screen
   * did not change"): compaction drops it. Errors, shell output and answers are never routine.
   */
  routine?: boolean;
  /** Acknowledged OpenAI safety checks, echoed back on the next request. */
  acknowledgedSafetyChecks?: Array<{ id: string; code: string; message: string }>;
}

export type TranscriptItem = UserItem | AssistantItem | ToolResultItem;
