import type { RunEvent, RunEventInput } from '../../shared/events.js';

/**
 * One run's folder: `events.jsonl` (append-only, one event per line, fsynced at each
 * step) and the screenshots as files the events name by relative path.
 */
export interface RunLog {
  readonly runId: string;
  readonly dir: string;
  /** Events so far (the log's own copy is on disk; this is for the runner and the UI). */
  readonly lastSeq: number;
  /** Assigns v, runId, seq and at; writes the line; notifies subscribers. */
  append(event: RunEventInput): RunEvent;
  /** Writes a file into the run folder; returns its path relative to the folder. */
  writeFile(name: string, data: Buffer): Promise<string>;
  readFile(relativePath: string): Promise<Buffer>;
  /** fsync the event log (called at the end of each step). */
  sync(): Promise<void>;
  subscribe(listener: (event: RunEvent) => void): () => void;
  /** A text scrubbed like the log's events (keys, typed secrets): for what leaves the run besides events (tool output to the model, streamed deltas). */
  scrubText(text: string): string;
  /** Typed text to mask from now on (the runner may know more than the log can infer). */
  markSecret(text: string): void;
  close(): Promise<void>;
}
