import fs, { promises as fsp } from 'node:fs';
import path from 'node:path';
import { EVENT_SCHEMA_VERSION, RunEventSchema, type RunEvent, type RunEventInput } from '../../shared/events.js';
import { homePaths } from '../paths.js';
import { mkdirPrivate, PRIVATE_FILE_MODE, repairPrivateHome, writePrivateFile } from '../private-files.js';
import { LOCK_FILE, SUMMARY_FILE, liveHolder, readFileInRun, resolveInRun, writeFileAtomicSync } from './files.js';
import { enforceHistoryCap } from './history-cap.js';
import { EVENTS_FILE, readRunLog } from './reader.js';
import { assertRunId, newRunId } from './run-id.js';
import { Scrubber, type ScrubberOptions } from './scrub.js';
import { SummaryBuilder } from './summary.js';
import type { RunLog } from './types.js';

export interface RunLogOptions extends ScrubberOptions {
  /** Clock for `at` (epoch ms); Date.now by default. */
  now?: () => number;
}

export interface CreateRunLogOptions extends RunLogOptions {
  home: string;
  runId?: string;
  /** config.historyCapMb: when set, the oldest finished runs are removed to stay under it. */
  historyCapMb?: number;
}

/** The file-backed RunLog; `warnings` holds what opening an existing log tolerated. */
export interface FileRunLog extends RunLog {
  readonly warnings: string[];
  /** Typed text to mask from now on (the runner may know more than the log can infer). */
  markSecret(text: string): void;
}

class FileRunLogImpl implements FileRunLog {
  private seq: number;
  private fd: number | undefined;
  private bytes: number;
  private readonly listeners = new Set<(event: RunEvent) => void>();
  /** The run's folders this log made or found (writeFile), so each is made once. */
  private readonly folders = new Set<string>();
  private closing: Promise<void> | undefined;

  constructor(
    readonly runId: string,
    readonly dir: string,
    fd: number,
    lastSeq: number,
    bytes: number,
    private readonly summary: SummaryBuilder,
    private readonly scrubber: Scrubber,
    private readonly now: () => number,
    readonly warnings: string[],
  ) {
    this.fd = fd;
    this.seq = lastSeq;
    this.bytes = bytes;
  }

  get lastSeq(): number {
    return this.seq;
  }

  append(input: RunEventInput): RunEvent {
    if (this.fd === undefined) throw new Error(`run log ${this.runId} is closed`);
    const parsed = RunEventSchema.safeParse({ ...input, v: EVENT_SCHEMA_VERSION, runId: this.runId, seq: this.seq + 1, at: this.now() });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`refusing to log an invalid ${input.type} event: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}`);
    }
    const event = this.scrubber.scrub(parsed.data);
    const line = Buffer.from(`${JSON.stringify(event)}\n`, 'utf8');
    // One synchronous write of the line and its newline together: lines land whole and
    // in order, even if several emitters append in the same tick, and a line can never
    // be complete on disk without its end. fsync happens per step in sync().
    writeFully(this.fd, line);
    this.bytes += line.length;
    this.seq = event.seq;
    this.summary.add(event);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken subscriber must not stop the log.
      }
    }
    return event;
  }

  async writeFile(name: string, data: Buffer): Promise<string> {
    const full = resolveInRun(this.dir, name);
    const folder = path.dirname(full);
    // A folder of the run is made once (a step writes two to four files into screens/).
    if (!this.folders.has(folder)) {
      await mkdirPrivate(folder);
      this.folders.add(folder);
    }
    try {
      writeFileAtomicSync(full, data);
    } catch (error) {
      // Someone removed the folder meanwhile: made again, as before the cache.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdirPrivate(folder);
      writeFileAtomicSync(full, data);
    }
    // Nothing keeps `data`: once the caller drops it, the screenshot lives only on disk.
    return path.relative(this.dir, full).split(path.sep).join('/');
  }

  async readFile(relativePath: string): Promise<Buffer> {
    return readFileInRun(this.dir, relativePath);
  }

  async sync(): Promise<void> {
    const fd = this.fd;
    if (fd === undefined) return;
    await new Promise<void>((resolve, reject) => fs.fsync(fd, (err) => (err ? reject(err) : resolve())));
    this.writeSummary();
  }

  subscribe(listener: (event: RunEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  markSecret(text: string): void {
    this.scrubber.markSecret(text);
  }

  scrubText(text: string): string {
    return this.scrubber.scrubString(text);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.sync();
      const fd = this.fd;
      this.fd = undefined;
      if (fd !== undefined) fs.closeSync(fd);
      this.listeners.clear();
      await fsp.rm(path.join(this.dir, LOCK_FILE), { force: true });
    })();
    return this.closing;
  }

  /**
   * On the calling thread, like the screenshots (files.ts writeFileAtomicSync): a few
   * hundred bytes, where the async write's five pool trips came after the fsync and held a
   * step whose model turn (a replay's, the bench's fake model) ended before the sync did.
   */
  private writeSummary(): void {
    writeFileAtomicSync(path.join(this.dir, SUMMARY_FILE), `${JSON.stringify(this.summary.result(this.bytes))}\n`);
  }
}

/** writeSync may write less than asked (a full disk, a signal): finish the line or throw, never leave it short silently. */
function writeFully(fd: number, data: Buffer): void {
  let at = 0;
  while (at < data.length) at += fs.writeSync(fd, data, at, data.length - at);
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Half-written files a killed process left behind (writeFileAtomic's temp files). */
async function removeOrphanTemps(dir: string): Promise<void> {
  const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
  for (const e of entries) {
    if (e.isFile() && /\.\d+\.tmp$/.test(e.name)) await fsp.rm(path.join(e.parentPath, e.name), { force: true });
  }
}

async function takeLock(dir: string): Promise<void> {
  const holder = await liveHolder(dir);
  if (holder !== undefined && holder !== process.pid) {
    throw new Error(`run ${path.basename(dir)} is open in another DeskPilot process (pid ${holder})`);
  }
  await writePrivateFile(path.join(dir, LOCK_FILE), String(process.pid));
}

/** Starts a new run folder `$DESKPILOT_HOME/sessions/<runId>/` with an empty events.jsonl. */
export async function createRunLog(options: CreateRunLogOptions): Promise<FileRunLog> {
  const runId = assertRunId(options.runId ?? newRunId());
  const sessions = homePaths(options.home).sessions;
  const dir = path.join(sessions, runId);
  await repairPrivateHome(options.home);
  await mkdirPrivate(dir);
  const file = path.join(dir, EVENTS_FILE);
  // 'ax': a run id that already has a log is a bug, never a silent merge. 600: the
  // log holds everything typed and seen.
  const fd = fs.openSync(file, 'ax', PRIVATE_FILE_MODE);
  fs.fchmodSync(fd, PRIVATE_FILE_MODE);
  await fsyncDir(dir);
  await fsyncDir(sessions);
  await takeLock(dir);
  const log = new FileRunLogImpl(runId, dir, fd, -1, 0, new SummaryBuilder(), new Scrubber(options), options.now ?? Date.now, []);
  if (options.historyCapMb !== undefined) await enforceHistoryCap(options.home, options.historyCapMb, { keep: [runId] });
  return log;
}

/**
 * Opens an existing run folder to append to it (resume): seq continues after the last
 * complete line; a torn last line is cut off first (and reported in `warnings`), so the
 * next line never lands glued to half of one.
 */
export async function openRunLog(dir: string, options: RunLogOptions = {}): Promise<FileRunLog> {
  // The home this run folder lives in (<home>/sessions/<runId>), made private once.
  await repairPrivateHome(path.dirname(path.dirname(path.resolve(dir))));
  const { events, warnings, validBytes } = await readRunLog(dir);
  const file = path.join(dir, EVENTS_FILE);
  const size = (await fsp.stat(file)).size;
  if (size > validBytes) await fsp.truncate(file, validBytes);
  await takeLock(dir);
  // A complete last event whose newline never reached the disk (the write was cut
  // between the two): end it, so the next line starts on a line of its own.
  let bytes = validBytes;
  if (validBytes > 0 && (await lastByte(file, validBytes)) !== 0x0a) {
    const fdEnd = fs.openSync(file, 'a');
    try {
      writeFully(fdEnd, Buffer.from('\n'));
      fs.fsyncSync(fdEnd);
    } finally {
      fs.closeSync(fdEnd);
    }
    bytes += 1;
    warnings.push(`${EVENTS_FILE}: the last event had no line end; it was ended (nothing lost)`);
  }
  await removeOrphanTemps(dir);
  const summary = new SummaryBuilder();
  for (const e of events) summary.add(e);
  const runId = events[0]?.runId ?? path.basename(dir);
  // Earlier lines are masked already; the scrubber starts fresh for what comes next.
  const scrubber = new Scrubber(options);
  const fd = fs.openSync(file, 'a');
  return new FileRunLogImpl(runId, dir, fd, events.at(-1)?.seq ?? -1, bytes, summary, scrubber, options.now ?? Date.now, warnings);
}

async function lastByte(file: string, size: number): Promise<number> {
  const handle = await fsp.open(file, 'r');
  try {
    const buf = Buffer.alloc(1);
    await handle.read(buf, 0, 1, size - 1);
    return buf[0]!;
  } finally {
    await handle.close();
  }
}

/** Opens a run by id under a home folder. */
export async function openRunLogById(home: string, runId: string, options: RunLogOptions = {}): Promise<FileRunLog> {
  return openRunLog(path.join(homePaths(home).sessions, assertRunId(runId)), options);
}
