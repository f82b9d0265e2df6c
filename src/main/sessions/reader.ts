import path from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import { openFileInRun } from './files.js';
import { EVENT_SCHEMA_VERSION, RunEventSchema, type RunEvent } from '../../shared/events.js';

export const EVENTS_FILE = 'events.jsonl';

/** The log cannot be read: garbage in the middle, a schema newer than this build, none, or more than MAX_RUN_LOG_BYTES. */
export class RunLogReadError extends Error {
  constructor(
    message: string,
    readonly code: 'newer_schema' | 'corrupt' | 'missing' | 'too_large',
    readonly line?: number,
  ) {
    super(message);
    this.name = 'RunLogReadError';
  }
}

export interface RunLogContents {
  events: RunEvent[];
  /** Things that were tolerated, e.g. "line 42: torn last line (ignored): …". */
  warnings: string[];
  /** Bytes of the log that hold complete lines (a torn tail is past this). */
  validBytes: number;
}

function newerSchemaMessage(v: number): string {
  return `written by a newer DeskPilot (schema v${v}); this one reads v${EVENT_SCHEMA_VERSION}`;
}

/**
 * The most an event log may hold to be read: 128 MiB. A long run's log is a few MiB
 * (events are small; screenshots are files of their own), and everything read is kept
 * in memory as events, so a log far past this is damage or an attack, not a run. Above
 * it the log is refused with a RunLogReadError ('too_large') that says so — never V8's
 * "Invalid string length" from reading 600 MB into one string. docs/SECURITY.md, class 10.
 */
export const MAX_RUN_LOG_BYTES = 128 * 1024 * 1024;

/** Bytes read at a time: the log is never one string, each line is decoded on its own. */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Reads events.jsonl line by line. The last line may be torn (the process died while
 * writing it): it is ignored and reported. Anything else that does not parse is an error
 * naming the line, and a line from a newer schema is refused with a clear message.
 */
class RunLogParser {
  private readonly events: RunEvent[] = [];
  private readonly warnings: string[] = [];
  private lineNo = 0;
  /** Bytes of the lines seen so far, and of those that end in a complete event (or blank lines before one). */
  private bytes = 0;
  private validBytes = 0;
  /** A line that did not parse as JSON: an error unless it turns out to be the last non-blank line. */
  private torn: { lineNo: number; line: string } | undefined;
  /** The start of a line that has not ended yet, in pieces (copies: the caller reuses its buffer). */
  private pending: Buffer[] = [];

  constructor(private readonly source: string) {}

  /** Feeds the next bytes of the log. */
  push(chunk: Buffer): void {
    let from = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, from)) {
      const piece = chunk.subarray(from, nl);
      this.line(this.pending.length ? Buffer.concat([...this.pending, piece]) : piece, true);
      this.pending = [];
      from = nl + 1;
    }
    // Stryker disable next-line EqualityOperator: equivalent — an empty piece kept as pending adds no byte to the next line, and alone at the end it is a blank line, skipped.
    if (from < chunk.length) this.pending.push(Buffer.from(chunk.subarray(from)));
  }

  /** The log has ended: the last line without its newline, then the result. */
  end(): RunLogContents {
    // Stryker disable next-line ConditionalExpression: equivalent — with nothing pending the last line is empty, a blank line, skipped.
    if (this.pending.length) this.line(Buffer.concat(this.pending), false);
    // Stryker disable next-line ArrayDeclaration: equivalent — a parser is ended once (parseRunLog, readRunLog); nothing reads pending after.
    this.pending = [];
    if (this.torn) {
      const { lineNo, line } = this.torn;
      this.warnings.push(`${this.source} line ${lineNo}: torn last line (ignored): ${line.length > 60 ? `${line.slice(0, 60)}…` : line}`);
    }
    return { events: this.events, warnings: this.warnings, validBytes: this.validBytes };
  }

  private line(raw: Buffer, ended: boolean): void {
    this.lineNo += 1;
    const before = this.bytes;
    this.bytes += raw.length + (ended ? 1 : 0);
    const line = raw.toString('utf8');
    if (line.trim() === '') return;
    if (this.torn) {
      throw new RunLogReadError(`${this.source} line ${this.torn.lineNo}: not a JSON event (the log is damaged in the middle)`, 'corrupt', this.torn.lineNo);
    }
    // Blank lines before this one belong to the valid part once a line follows them.
    this.validBytes = before;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.torn = { lineNo: this.lineNo, line };
      return;
    }
    const v = typeof json === 'object' && json !== null && 'v' in json ? (json as { v: unknown }).v : undefined;
    if (typeof v === 'number' && v > EVENT_SCHEMA_VERSION) {
      throw new RunLogReadError(`${this.source} line ${this.lineNo}: ${newerSchemaMessage(v)}`, 'newer_schema', this.lineNo);
    }
    const parsed = RunEventSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.') || '(event)'}: ${issue.message}` : 'invalid';
      throw new RunLogReadError(`${this.source} line ${this.lineNo}: not a valid v${EVENT_SCHEMA_VERSION} event (${where})`, 'corrupt', this.lineNo);
    }
    this.events.push(parsed.data);
    // A complete last line without its newline still counts (the writer always ends lines).
    this.validBytes = this.bytes;
  }
}

function tooLarge(file: string, bytes: number): RunLogReadError {
  const mib = (n: number) => (n / 1024 / 1024).toFixed(0);
  return new RunLogReadError(`${file} is ${mib(bytes)} MiB; a run log may be at most ${mib(MAX_RUN_LOG_BYTES)} MiB (damaged, or not a DeskPilot log): not read`, 'too_large');
}

/** Parses events.jsonl text (see RunLogParser). */
export function parseRunLog(text: string, source = EVENTS_FILE): RunLogContents {
  const parser = new RunLogParser(source);
  // Stryker disable next-line StringLiteral: equivalent — Buffer.from reads '' as its default encoding, utf8.
  parser.push(Buffer.from(text, 'utf8'));
  return parser.end();
}

/** Reads a run folder's event log in pieces (see RunLogParser); a log over MAX_RUN_LOG_BYTES is refused unread. */
export async function readRunLog(dir: string): Promise<RunLogContents> {
  const file = path.join(dir, EVENTS_FILE);
  let handle: FileHandle;
  try {
    handle = await openFileInRun(dir, EVENTS_FILE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new RunLogReadError(`no run log at ${file}`, 'missing');
    throw err;
  }
  try {
    const size = (await handle.stat()).size;
    if (size > MAX_RUN_LOG_BYTES) throw tooLarge(file, size);
    const parser = new RunLogParser(file);
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      // A log still being written may grow past the limit while it is read.
      if (total > MAX_RUN_LOG_BYTES) throw tooLarge(file, total);
      parser.push(buffer.subarray(0, bytesRead));
    }
    return parser.end();
  } finally {
    await handle.close();
  }
}
