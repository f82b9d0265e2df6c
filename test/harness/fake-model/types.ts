/**
 * The protocol-neutral script language of the fake model server. A test scripts
 * turns; each turn sees the parsed request and returns a reply (text, thinking,
 * tool calls) or a fault. The server renders the reply into whichever wire format
 * the request came in (Anthropic Messages, OpenAI Responses, Chat Completions).
 */

export type FakeProtocol = 'anthropic' | 'responses' | 'chat';

export interface FakeToolCall {
  /** Call id; generated when absent (toolu_… / call_…). */
  id?: string;
  /**
   * Tool name. On the Responses protocol the name "computer" is rendered as a
   * `computer_call` item whose fields come from `input` ({actions:[…]} for the GA
   * tool, {action:{…}} for computer_use_preview); every other name is a function_call.
   */
  name: string;
  input: unknown;
  /** Anthropic only: the toolset family of a toolset member call (e.g. "computer" for computer_toolset_20260801). */
  toolsetName?: string;
  /** Send these raw characters as the arguments instead of JSON.stringify(input) (malformed JSON tests). */
  rawArguments?: string;
  /** Responses protocol only: pending_safety_checks on a computer_call. */
  safetyChecks?: Array<{ id: string; code: string; message: string }>;
}

export interface FakeUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

export interface FakeReply {
  text?: string;
  thinking?: string;
  /** Anthropic thinking signature (defaults to a fixed fake string when thinking is set). */
  signature?: string;
  toolCalls?: FakeToolCall[];
  /** Overrides the stop reason derived from the reply (wire value, e.g. "max_tokens", "refusal"). */
  stopReason?: string;
  usage?: FakeUsage;
  /** When streaming, split text/thinking/tool JSON into deltas of at most this many characters (default 7). */
  chunkSize?: number;
}

export type FakeFault =
  /** An HTTP error status with optional headers (retry-after …) and body. */
  | { fault: 'status'; status: number; headers?: Record<string, string>; body?: unknown }
  /** Never answer; the connection stays open until the client gives up. */
  | { fault: 'hang' }
  /** Destroy the socket without an answer. */
  | { fault: 'reset' }
  /** 200 with a body that is not valid JSON (or a broken SSE stream). */
  | { fault: 'malformed' }
  /**
   * Streaming only: the stream starts, then the server sends an error event, as the
   * real APIs do when they overload mid-response (Anthropic `event: error` with
   * overloaded_error; OpenAI `response.failed`; Chat Completions an `error` chunk).
   */
  | { fault: 'stream_error' }
  /** Streaming only: headers and the first events are sent, then the stream goes silent (until close or client abort). */
  | { fault: 'stall' };

export type FakeResult = FakeReply | FakeFault;

export interface FakeImage {
  mediaType: string;
  width: number;
  height: number;
  bytes: number;
}

export interface FakeToolResult {
  callId: string;
  /** Concatenated text content of the result. */
  text: string;
  isError: boolean;
  images: FakeImage[];
  /** Responses protocol: acknowledged_safety_checks sent with a computer_call_output. */
  acknowledgedSafetyChecks?: Array<{ id: string; code?: string; message?: string }>;
}

export interface FakeRequest {
  /** 0-based index among all requests this server received. */
  index: number;
  protocol: FakeProtocol;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: Record<string, unknown>;
  stream: boolean;
  /** Date.now() when the request arrived: for asserting retry gaps. */
  receivedAt: number;
  /** Every image in the request, in order, decoded with sharp. */
  images: FakeImage[];
  /** Every tool result in the request, in order. */
  toolResults: FakeToolResult[];
  /** Text of the last user message (tool results excluded). */
  lastUserText: string;
  /** Names of the tools offered (function name, or the tool type for built-in tools). */
  toolNames: string[];
}

export type FakeTurn = FakeResult | ((req: FakeRequest) => FakeResult | Promise<FakeResult>);
