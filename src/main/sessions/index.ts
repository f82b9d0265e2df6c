/** Sessions: the run log on disk, its reader, history and exports (see types.ts for the RunLog contract). */
export type { RunLog } from './types.js';
export { createRunLog, openRunLog, openRunLogById, type FileRunLog, type CreateRunLogOptions, type RunLogOptions } from './run-log.js';
export { readRunLog, parseRunLog, RunLogReadError, EVENTS_FILE, type RunLogContents } from './reader.js';
export { listSessions, openSession, deleteSession, sessionSummary, runDir, parseQuery, type ListedSession, type ListOptions } from './history.js';
export { enforceHistoryCap, folderBytes, type CapResult } from './history-cap.js';
export { summarize, toSessionSummary, SummaryBuilder, type StoredSummary } from './summary.js';
export { Scrubber, REDACTED, MASKED_SECRET, credentialValuesFromEnv } from './scrub.js';
export { newRunId, assertRunId } from './run-id.js';
export { resolveInRun, mediaTypeOf, liveHolder } from './files.js';
export { exportRun, EXPORT_FORMATS, type ExportFormat } from './export/index.js';
