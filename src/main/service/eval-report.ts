import fsp from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { CommandOutput } from '../../shared/bridge.js';
import { readEvalLabels } from '../../shared/eval-labels.js';
import { sessionSummary } from '../sessions/history.js';
import { BridgeError } from './types.js';

/** The names `deskpilot eval` gives the files of its out-dir (eval/run/results-file.ts): the report and the results it was drawn from. */
const REPORT_NAME = 'report.html';
const RESULTS_NAME = 'results.json';

/**
 * A report sent back whole to a browser of `deskpilot serve` is held in memory: 32 MB
 * is far above a real one (the 32-task built-in suite's report is ~60 KB; its sessions'
 * screenshots live in separate files it links) and keeps a stray huge file out.
 */
const MAX_REPORT_BYTES = 32 * 1024 * 1024;

/** Only what ties a run to an eval: the results' session ids (the eval's own schema lives in eval/, a layer above this one). */
const ResultsSessionsSchema = z.object({ results: z.array(z.object({ sessionId: z.string().optional() }).passthrough()) }).passthrough();

/**
 * The report.html of the eval a run belongs to, found from the run's own labels and
 * never from a path a client sends. A label is only a claim: the path must be an
 * absolute report.html whose results.json beside it lists this run, so a run labelled
 * by hand (`--label evalReport=/any/file`) opens nothing.
 */
export async function evalReportOf(home: string, runId: string): Promise<string> {
  let labels: Record<string, string>;
  try {
    labels = (await sessionSummary(home, runId)).labels;
  } catch (error) {
    throw new BridgeError('not_found', `no run ${runId}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const report = readEvalLabels(labels).evalReport;
  if (!report) throw new BridgeError('not_found', `run ${runId} is not part of an eval (it has no evalReport label)`);
  if (!path.isAbsolute(report) || path.basename(report) !== REPORT_NAME) throw new BridgeError('invalid', `run ${runId} names ${JSON.stringify(report)} as its eval's report: not an absolute path to ${REPORT_NAME}`);
  const resultsFile = path.join(path.dirname(report), RESULTS_NAME);
  let listed: boolean;
  try {
    const parsed = ResultsSessionsSchema.safeParse(JSON.parse(await fsp.readFile(resultsFile, 'utf8')));
    listed = parsed.success && parsed.data.results.some((r) => r.sessionId === runId);
  } catch (error) {
    throw new BridgeError('not_found', `the eval's results (${resultsFile}) cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!listed) throw new BridgeError('invalid', `${resultsFile} does not list run ${runId}: the report it names is not this run's eval`);
  try {
    await fsp.access(report);
  } catch {
    throw new BridgeError('not_found', `the eval's report ${report} is gone (deleted or moved since the eval ran)`);
  }
  return report;
}

/**
 * `eval.report`: the desktop app opens the report with the system's handler for HTML
 * (its links to each run's session report work there, as files side by side); a browser
 * of `deskpilot serve` gets the page itself to show.
 */
export async function openEvalReport(home: string, runId: string, openPath: ((file: string) => Promise<void>) | undefined): Promise<CommandOutput<'eval.report'>> {
  const report = await evalReportOf(home, runId);
  if (openPath) {
    await openPath(report);
    return { kind: 'opened', path: report };
  }
  const stat = await fsp.stat(report);
  if (stat.size > MAX_REPORT_BYTES) throw new BridgeError('unavailable', `the eval's report ${report} is ${Math.round(stat.size / 1024 / 1024)} MB, over the ${MAX_REPORT_BYTES / 1024 / 1024} MB a browser is sent: open it on this machine`);
  return { kind: 'page', path: report, html: await fsp.readFile(report, 'utf8') };
}
