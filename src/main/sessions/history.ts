import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { SessionSummary } from '../../shared/bridge.js';
import { homePaths } from '../paths.js';
import { SUMMARY_FILE, liveHolder, writeFileAtomic } from './files.js';
import { EVENTS_FILE, RunLogReadError, readRunLog, type RunLogContents } from './reader.js';
import { assertRunId } from './run-id.js';
import { OUTCOME_RULES_VERSION } from './outcome.js';
import { StoredSummarySchema, summarize, toSessionSummary, type StoredSummary } from './summary.js';
import { own } from '../../shared/own.js';

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export function runDir(home: string, runId: string): string {
  return path.join(homePaths(home).sessions, assertRunId(runId));
}

/**
 * A run's stored summary: summary.json when it matches events.jsonl (same byte size),
 * otherwise rebuilt from the events and written back. Listing 1,000 runs therefore
 * reads 1,000 small files, not 1,000 logs.
 */
export async function loadStoredSummary(dir: string): Promise<StoredSummary> {
  const logBytes = (await fsp.stat(path.join(dir, EVENTS_FILE))).size;
  try {
    const stored = StoredSummarySchema.parse(JSON.parse(await fsp.readFile(path.join(dir, SUMMARY_FILE), 'utf8')));
    if (stored.logBytes === logBytes && stored.outcomeRules === OUTCOME_RULES_VERSION) return stored;
  } catch {
    // Missing or damaged: rebuilt below.
  }
  const { events, validBytes } = await readRunLog(dir);
  const rebuilt = summarize(events, validBytes);
  if (!rebuilt.runId) rebuilt.runId = path.basename(dir);
  // Keyed to the file's size as it is now, so a torn tail does not force a rebuild every time.
  const toStore = { ...rebuilt, logBytes };
  await writeFileAtomic(path.join(dir, SUMMARY_FILE), `${JSON.stringify(toStore)}\n`).catch(() => undefined);
  return toStore;
}

export interface ListOptions {
  /** Free text and filters: `status:done`, `date:2026-11-30` (prefix, UTC), `since:`/`until:` dates, `label:key=value`, `app:name`. */
  query?: string;
  status?: string;
  /** Runs whose logs cannot be read are skipped and reported here. */
  onWarning?: (message: string) => void;
}

export interface ListedSession extends SessionSummary {
  /** The final summary text (run_ended), for display and search. */
  summaryText: string;
}

interface ParsedQuery {
  words: string[];
  status: string[];
  date: string[];
  since?: string;
  until?: string;
  labels: Array<{ key: string; value?: string }>;
  apps: string[];
}

export function parseQuery(query: string): ParsedQuery {
  const q: ParsedQuery = { words: [], status: [], date: [], labels: [], apps: [] };
  for (const token of query.trim().split(/\s+/).filter(Boolean)) {
    const m = /^(status|date|since|until|label|app):(.+)$/i.exec(token);
    if (!m) {
      q.words.push(token.toLowerCase());
      continue;
    }
    const key = m[1]!.toLowerCase();
    const value = m[2]!;
    if (key === 'status') q.status.push(value.toLowerCase());
    else if (key === 'date') q.date.push(value);
    else if (key === 'since') q.since = value;
    else if (key === 'until') q.until = value;
    else if (key === 'app') q.apps.push(value.toLowerCase());
    else {
      const eq = value.indexOf('=');
      q.labels.push(eq === -1 ? { key: value } : { key: value.slice(0, eq), value: value.slice(eq + 1) });
    }
  }
  return q;
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function matchesQuery(s: ListedSession, q: ParsedQuery): boolean {
  // --status failed finds failed QA cases; --status blocked / passed filter on the verdict.
  if (q.status.length && !q.status.includes(s.status) && !(s.verdict && q.status.includes(s.verdict))) return false;
  const day = isoDate(s.startedAt);
  if (q.date.length && !q.date.some((d) => day.startsWith(d))) return false;
  if (q.since && day < q.since) return false;
  if (q.until && day > q.until) return false;
  for (const l of q.labels) {
    const v = own(s.labels, l.key);
    if (v === undefined || (l.value !== undefined && v !== l.value)) return false;
  }
  const labelText = Object.entries(s.labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  for (const app of q.apps) {
    const appLabel = s.labels.app?.toLowerCase();
    if (appLabel !== undefined ? !appLabel.includes(app) : !`${s.task} ${labelText}`.toLowerCase().includes(app)) return false;
  }
  const hay = `${s.runId} ${s.task} ${s.summaryText} ${s.status} ${s.verdict ?? ''} ${s.provider} ${s.model} ${labelText} ${day}`.toLowerCase();
  return q.words.every((w) => hay.includes(w));
}

/** Runs under `home`, newest first, filtered by `query` / `status`. */
export async function listSessions(home: string, options: ListOptions = {}): Promise<ListedSession[]> {
  const sessions = homePaths(home).sessions;
  let names: string[];
  try {
    names = (await fsp.readdir(sessions, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  // Run ids sort by time; newest first.
  names.sort().reverse();
  const q = parseQuery(options.query ?? '');
  if (options.status) q.status.push(options.status.toLowerCase());
  // Reads run in parallel (bounded), results keep the newest-first order.
  const results = await mapLimit(names, 32, async (name): Promise<ListedSession | undefined> => {
    const dir = path.join(sessions, name);
    let stored: StoredSummary;
    try {
      stored = await loadStoredSummary(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') options.onWarning?.(`${name}: ${(err as Error).message}`);
      return undefined;
    }
    const live = stored.status === 'open' ? (await liveHolder(dir)) !== undefined : false;
    const s: ListedSession = { ...toSessionSummary(stored, live), summaryText: stored.summary };
    return matchesQuery(s, q) ? s : undefined;
  });
  const out = results.filter((s): s is ListedSession => s !== undefined);
  return out;
}

/** One run's events (and what reading tolerated), by id. */
export async function openSession(home: string, runId: string): Promise<RunLogContents> {
  return readRunLog(runDir(home, runId));
}

/** Deletes a run's folder; refuses while a live process holds the run. */
export async function deleteSession(home: string, runId: string): Promise<void> {
  const dir = runDir(home, runId);
  try {
    await fsp.access(path.join(dir, EVENTS_FILE));
  } catch {
    throw new RunLogReadError(`no run ${runId} under ${homePaths(home).sessions}`, 'missing');
  }
  const holder = await liveHolder(dir);
  if (holder !== undefined) throw new Error(`run ${runId} is still open (pid ${holder}); stop it first`);
  await fsp.rm(dir, { recursive: true, force: true });
}

/** A run's summary by id (for `sessions show`). */
export async function sessionSummary(home: string, runId: string): Promise<ListedSession> {
  const dir = runDir(home, runId);
  const stored = await loadStoredSummary(dir);
  const live = stored.status === 'open' ? (await liveHolder(dir)) !== undefined : false;
  return { ...toSessionSummary(stored, live), summaryText: stored.summary };
}
