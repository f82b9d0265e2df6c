/**
 * The record of a virtual desktop's processes, and stopping the ones a DeskPilot left
 * behind when it died without stopping them (SIGKILL, a crash, the OOM killer).
 *
 * Each desktop gets a private folder (mkdtemp: mode 0700, a random name under the temp
 * folder): its X cookie (desktop-auth.ts) and `processes.json` — who started it (the
 * owner) and its Xvfb, dbus-daemon and openbox. Every process is named by its pid AND
 * its start time (/proc/<pid>/stat field 22, clock ticks since boot): pids are reused
 * (pid_max is 32768 here), and a reused pid has a later start time, so a record can
 * never get an unrelated process killed.
 *
 * Lifetime: the folder is made before the first process starts and removed after the
 * last one has stopped (stop()). A DeskPilot that dies leaves it; the next virtual
 * desktop started by any DeskPilot of this user reaps it: judge() decides, by its
 * numbered checks, and only an orphaned desktop's recorded processes are stopped —
 * never those of a desktop whose owner still runs.
 */
import { lstatSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { sleep } from '../shared/abort.js';

/** Folder names: `deskpilot-desktop-XXXXXX` under the temp folder. */
export const DESKTOP_DIR_PREFIX = 'deskpilot-desktop-';
const RECORD_FILE = 'processes.json';

const ProcessEntrySchema = z.strictObject({
  name: z.string().min(1).max(64),
  pid: z.number().int().min(2),
  /** /proc/<pid>/stat field 22, as its digits. */
  start: z.string().regex(/^\d{1,20}$/),
});
export type ProcessEntry = z.infer<typeof ProcessEntrySchema>;

const DesktopRecordSchema = z.strictObject({
  version: z.literal(1),
  owner: ProcessEntrySchema,
  processes: z.array(ProcessEntrySchema).max(16),
});
export type DesktopRecordData = z.infer<typeof DesktopRecordSchema>;

/**
 * A process's start time (clock ticks after boot), or undefined when it is gone or a
 * zombie (it has ended; only its parent's wait is missing, and it cannot be stopped).
 * The command name in field 2 may hold spaces and ')': fields are counted after the last ')'.
 */
export function processStartTime(pid: number, procRoot = '/proc'): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`${procRoot}/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  return startTimeFromStat(stat);
}

/** Field 22 of a /proc/<pid>/stat line; undefined for a zombie or a line that is not one. */
export function startTimeFromStat(stat: string): string | undefined {
  const close = stat.lastIndexOf(')');
  if (close < 0) return undefined;
  // After ") " come fields 3 (state), 4, …: field 22 is the 20th.
  const fields = stat.slice(close + 2).trim().split(/\s+/);
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  const start = fields[19] ?? '';
  return /^\d+$/.test(start) ? start : undefined;
}

/** True while `entry` names a live process: that pid, started at that moment. */
export function stillRunning(entry: Pick<ProcessEntry, 'pid' | 'start'>, startOf: (pid: number) => string | undefined = processStartTime): boolean {
  return startOf(entry.pid) === entry.start;
}

function writeRecord(dir: string, data: DesktopRecordData): void {
  // Written whole, then renamed: a reader never sees half a record.
  const file = join(dir, RECORD_FILE);
  writeFileSync(`${file}.new`, JSON.stringify(data), { mode: 0o600 });
  renameSync(`${file}.new`, file);
}

/** One desktop's folder and record, owned by this process. */
export class DesktopRecord {
  private data: DesktopRecordData;

  private constructor(
    readonly dir: string,
    owner: ProcessEntry,
  ) {
    this.data = { version: 1, owner, processes: [] };
    writeRecord(dir, this.data);
  }

  /**
   * A new private folder (0700) with a record naming this process as the owner. `prefix`
   * names what the folder holds: an eval task's HOME is kept the same way (eval/run/task-home.ts).
   */
  static create(parent = tmpdir(), prefix = DESKTOP_DIR_PREFIX): DesktopRecord {
    const start = processStartTime(process.pid);
    // Stryker disable next-line ConditionalExpression,BlockStatement,StringLiteral: a running process always reads its own /proc/<pid>/stat on Linux, the only platform with virtual desktops
    if (!start) throw new Error(`cannot read this process's start time (/proc/${process.pid}/stat)`);
    return new DesktopRecord(mkdtempSync(join(parent, prefix)), { name: 'deskpilot', pid: process.pid, start });
  }

  /** Records a process of the desktop, right after it was spawned. */
  add(name: string, pid: number | undefined): void {
    // Stryker disable next-line ConditionalExpression: equivalent — /proc/undefined/stat does not exist either
    if (pid === undefined) return;
    const start = processStartTime(pid);
    // Gone already: its start-up failed, and nothing is left to stop.
    if (!start) return;
    this.data = { ...this.data, processes: [...this.data.processes, { name, pid, start }] };
    writeRecord(this.dir, this.data);
  }

  get processes(): readonly ProcessEntry[] {
    return this.data.processes;
  }

  /** Removes the folder: call once every recorded process has stopped. */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** What judge() decided about one desktop folder, naming the check that decided it. */
export type Judgement =
  | { verdict: 'leave'; check: 'not-a-private-folder' | 'unreadable-record' | 'owner-running' }
  | { verdict: 'reap'; check: 'owner-gone'; stop: ProcessEntry[] };

export interface FolderFacts {
  /** lstat of the folder: a real folder (not a link), ours, closed to everyone else. */
  isDirectory: boolean;
  uid: number;
  mode: number;
  /** The record's text, or undefined when it cannot be read. */
  record: string | undefined;
}

/**
 * Whether a desktop folder is an orphan to reap. Checks, in order:
 *  1. a private folder of this user (a real folder, owner uid, no group/other access) —
 *     anything else in the temp folder may be planted by another user: left alone;
 *  2. a record that parses — an unreadable one names nothing we may stop: left alone;
 *  3. the owner still runs (same pid, same start time): its desktop, left alone;
 *  4. the owner is gone: reap — stop the recorded processes that still run (by start
 *     time: a reused pid is someone else's), then remove the folder.
 */
export function judge(facts: FolderFacts, uid: number, startOf: (pid: number) => string | undefined = processStartTime): Judgement {
  if (!facts.isDirectory || facts.uid !== uid || (facts.mode & 0o077) !== 0) return { verdict: 'leave', check: 'not-a-private-folder' };
  let record: DesktopRecordData;
  try {
    // Stryker disable next-line StringLiteral: equivalent — any text that is not JSON fails the same way
    record = DesktopRecordSchema.parse(JSON.parse(facts.record ?? ''));
  } catch {
    return { verdict: 'leave', check: 'unreadable-record' };
  }
  if (stillRunning(record.owner, startOf)) return { verdict: 'leave', check: 'owner-running' };
  return { verdict: 'reap', check: 'owner-gone', stop: record.processes.filter((p) => stillRunning(p, startOf)) };
}

export interface Reaped {
  dir: string;
  /** The processes that were still running and were stopped. */
  stopped: ProcessEntry[];
}

/** How long an orphan gets to stop on SIGTERM (Xvfb removes its lock and socket then) before SIGKILL. */
const GRACE_MS = 2_000;

function signal(entry: ProcessEntry, name: NodeJS.Signals): void {
  // Checked again right before each signal: the start time makes a reused pid safe.
  if (!stillRunning(entry)) return;
  try {
    process.kill(entry.pid, name);
  } catch {
    // ended meanwhile
  }
}

/** Stops `entries`: SIGTERM, up to `graceMs` to end, then SIGKILL for any still running. */
export async function stopProcesses(entries: readonly ProcessEntry[], graceMs = GRACE_MS): Promise<void> {
  for (const e of entries) signal(e, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (entries.some((e) => stillRunning(e)) && Date.now() < deadline) await sleep(25);
  for (const e of entries) signal(e, 'SIGKILL');
}

/** The facts judge() needs about `dir`, read without following a link. */
function folderFacts(dir: string): FolderFacts | undefined {
  try {
    const stat = lstatSync(dir);
    let record: string | undefined;
    try {
      const file = join(dir, RECORD_FILE);
      const fileStat = lstatSync(file);
      record = fileStat.isFile() && fileStat.uid === stat.uid ? readFileSync(file, 'utf8') : undefined;
    } catch {
      record = undefined;
    }
    return { isDirectory: stat.isDirectory(), uid: stat.uid, mode: stat.mode, record };
  } catch {
    return undefined; // removed meanwhile (another DeskPilot reaped it)
  }
}

/** Other folders kept by the same record (an eval task's HOME): their prefix, and what to stop before one is removed. */
export interface OrphanKind {
  prefix: string;
  /** Run for an orphan once its recorded processes are stopped, before its folder is removed. */
  beforeRemove?(dir: string): Promise<unknown>;
}

/**
 * Finds the desktops of DeskPilots of this user that died without stopping them and
 * stops what is left of them. Safe to run from several DeskPilots at once.
 */
// Stryker disable next-line OptionalChaining,UnaryOperator: process.getuid exists on Linux, the only platform with virtual desktops (-1 owns nothing elsewhere)
export async function reapOrphanedDesktops(parent = tmpdir(), uid = process.getuid?.() ?? -1, graceMs = GRACE_MS, kind: OrphanKind = { prefix: DESKTOP_DIR_PREFIX }): Promise<Reaped[]> {
  let names: string[];
  try {
    names = readdirSync(parent).filter((n) => n.startsWith(kind.prefix));
  } catch {
    return [];
  }
  const reaped: Reaped[] = [];
  for (const name of names) {
    const dir = join(parent, name);
    const facts = folderFacts(dir);
    if (!facts) continue;
    const judgement = judge(facts, uid);
    if (judgement.verdict === 'leave') continue;
    await stopProcesses(judgement.stop, graceMs);
    await kind.beforeRemove?.(dir);
    rmSync(dir, { recursive: true, force: true });
    reaped.push({ dir, stopped: judgement.stop });
  }
  return reaped;
}
