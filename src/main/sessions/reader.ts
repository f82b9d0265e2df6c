import path from 'node:path';
import { readFileInRun } from './files.js';
import { EVENT_SCHEMA_VERSION, RunEventSchema, type RunEvent } from '../../shared/events.js';

export const EVENTS_FILE = 'events.jsonl';

/** The log cannot be read: garbage in the middle, or a schema newer than this build. */
export class RunLogReadError extends Error {
  constructor(
    message: string,
    readonly code: 'newer_schema' | 'corrupt' | 'missing',
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
 * Parses events.jsonl text. The last line may be torn (the process died while writing
 * it): it is ignored and reported. Anything else that does not parse is an error naming
 * the line, and a line from a newer schema is refused with a clear message.
 */
export function parseRunLog(text: string, source = EVENTS_FILE): RunLogContents {
  const events: RunEvent[] = [];
  const warnings: string[] = [];
  const lines = text.split('\n');
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.trim() === '') last -= 1;
  const totalBytes = Buffer.byteLength(text);
  let bytes = 0;
  let validBytes = 0;
  for (let i = 0; i <= last; i += 1) {
    const line = lines[i]!;
    const lineNo = i + 1;
    bytes += Buffer.byteLength(line) + 1;
    if (line.trim() === '') {
      validBytes = bytes;
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      if (i === last) {
        warnings.push(`${source} line ${lineNo}: torn last line (ignored): ${line.length > 60 ? `${line.slice(0, 60)}…` : line}`);
        break;
      }
      throw new RunLogReadError(`${source} line ${lineNo}: not a JSON event (the log is damaged in the middle)`, 'corrupt', lineNo);
    }
    const v = typeof json === 'object' && json !== null && 'v' in json ? (json as { v: unknown }).v : undefined;
    if (typeof v === 'number' && v > EVENT_SCHEMA_VERSION) {
      throw new RunLogReadError(`${source} line ${lineNo}: ${newerSchemaMessage(v)}`, 'newer_schema', lineNo);
    }
    const parsed = RunEventSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.') || '(event)'}: ${issue.message}` : 'invalid';
      throw new RunLogReadError(`${source} line ${lineNo}: not a valid v${EVENT_SCHEMA_VERSION} event (${where})`, 'corrupt', lineNo);
    }
    events.push(parsed.data);
    // A complete last line without its newline still counts (the writer always ends lines).
    validBytes = Math.min(bytes, totalBytes);
  }
  return { events, warnings, validBytes };
}

/** Reads a run folder's event log (see parseRunLog). */
export async function readRunLog(dir: string): Promise<RunLogContents> {
  const file = path.join(dir, EVENTS_FILE);
  let text: string;
  try {
    text = (await readFileInRun(dir, EVENTS_FILE)).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new RunLogReadError(`no run log at ${file}`, 'missing');
    throw err;
  }
  return parseRunLog(text, file);
}
