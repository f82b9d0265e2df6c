import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { escapeHtml as esc, renderReportDocument, renderRunSectionFromDir } from '../sessions/export/html.js';
import type { AttemptResult, CaseResult, SuiteResult } from './results.js';
import { countCases } from './results.js';
import { CHECK_LABEL, describeCase } from './decide.js';
import { shardLabel } from './shard.js';

/**
 * The QA suite report: one self-contained, offline HTML file (the sessions export's
 * document and CSP) with a summary table, each case's verdict, checks and check
 * captures, and each attempt's full run section from its session log.
 */
const SUITE_CSS = `
.qa-summary { width:100%; border-collapse: collapse; margin: 12px 0 24px; background: var(--card); }
.qa-summary th, .qa-summary td { text-align:left; padding: 8px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
.qa-passed { color: var(--ok); } .qa-failed, .qa-error { color: var(--bad); } .qa-blocked, .qa-flaky, .qa-inconclusive { color: var(--warn); }
.qa-case { margin: 32px 0 8px; }
.dp-meta b { overflow-wrap: anywhere; }
.qa-check img { max-width: 100%; border: 1px solid var(--line); border-radius: 6px; image-rendering: pixelated; }
`;

/** A link from a case's row to a file next to the report (the merged report: each shard's report and session). */
export interface CaseLink {
  label: string;
  /** Absolute path of the target; the report links to it relative to its own location. */
  file: string;
  fragment?: string;
}

export interface SuiteReportOptions {
  /** Where the report is written (links are relative to it). */
  reportFile?: string;
  links?: (c: CaseResult) => CaseLink[];
}

export async function renderSuiteReport(suite: SuiteResult, options: SuiteReportOptions = {}): Promise<string> {
  const counts = countCases(suite);
  const parts: string[] = [`<style>${SUITE_CSS}</style>`];
  parts.push(`<h1>${esc(suite.title)}</h1>`);
  parts.push(
    `<div class="dp-meta"><div>Suite: <b>${esc(suite.suiteId)}</b></div>${suite.file ? `<div>Plan: <b>${esc(suite.file)}</b></div>` : ''}` +
      (suite.shard ? `<div>Shard: <b>${esc(shardLabel(suite.shard))}</b></div>` : '') +
      (suite.workers ? `<div>Workers: <b>${suite.workers}</b></div>` : '') +
      `<div>Started: <b>${esc(new Date(suite.startedAt).toISOString())}</b></div><div>Duration: <b>${(suite.durationMs / 1000).toFixed(1)} s</b></div>` +
      `<div>Result: <b><span class="qa-passed">${counts.passed} passed</span>, <span class="qa-failed">${counts.failed} failed</span>, ` +
      `<span class="qa-blocked">${counts.blocked} blocked</span>${counts.error ? `, <span class="qa-error">${counts.error} errors</span>` : ''}` +
      `${counts.flaky ? `, <span class="qa-flaky">${counts.flaky} flaky</span>` : ''}` +
      `${counts.healed ? `, <span class="qa-flaky">${counts.healed} healed</span>` : ''}` +
      `${counts.notRun ? `, <span class="qa-blocked">${counts.notRun} not run</span>` : ''}</b></div></div>`,
  );
  if (suite.setupError) parts.push(`<div class="dp-note">Setup error: ${esc(suite.setupError)}</div>`);
  for (const n of suite.notRun ?? []) parts.push(`<div class="dp-note">Not run: ${esc(n.name)} — ${esc(n.reason)}</div>`);
  const sharded = suite.cases.some((c) => c.shard);
  const linked = options.links && options.reportFile ? { links: options.links, from: path.dirname(path.resolve(options.reportFile)) } : undefined;
  parts.push(
    `<table class="qa-summary"><thead><tr><th>Case</th><th>Status</th>${sharded ? '<th>Shard</th>' : ''}<th>Attempts</th><th>Reason</th>${linked ? '<th>Links</th>' : ''}</tr></thead><tbody>`,
  );
  suite.cases.forEach((c, i) => {
    const links = linked ? linked.links(c).map((l) => `<a href="${esc(relativeHref(linked.from, l))}">${esc(l.label)}</a>`).join('<br>') : '';
    parts.push(
      `<tr><td><a href="#case-${i}">${esc(c.name)}</a></td><td class="qa-${c.status}"><b>${esc(c.status)}</b>${c.flaky ? ' <span class="qa-flaky">(flaky)</span>' : ''}${sourceBadge(c)}${inconclusiveBadge(c)}</td>` +
        `${sharded ? `<td>${c.shard ? esc(shardLabel(c.shard)) : ''}</td>` : ''}<td>${c.attempts.length}</td><td>${esc(c.message)}</td>${linked ? `<td>${links}</td>` : ''}</tr>`,
    );
  });
  parts.push('</tbody></table>');
  for (const [i, c] of suite.cases.entries()) parts.push(await caseHtml(c, i));
  return renderReportDocument({ title: `DeskPilot QA — ${suite.title}`, body: parts.join('\n') });
}

async function caseHtml(c: CaseResult, index: number): Promise<string> {
  const parts = [
    `<h2 class="qa-case" id="case-${index}">${esc(c.name)} — <span class="qa-${c.status}">${esc(c.status)}</span>${c.flaky ? ' <span class="qa-flaky">(flaky)</span>' : ''}${sourceBadge(c)}${inconclusiveBadge(c)}</h2>`,
    `<div class="dp-text">${esc(c.message)}</div>`,
  ];
  for (const a of c.attempts) parts.push(await attemptHtml(a, c.attempts.length > 1));
  return parts.join('\n');
}

async function attemptHtml(a: AttemptResult, several: boolean): Promise<string> {
  const parts: string[] = [];
  if (several) parts.push(`<h3>Attempt ${a.attempt}: <span class="qa-${a.status}">${esc(a.status)}</span></h3><div class="dp-text">${esc(a.message)}</div>`);
  if (a.verdict) parts.push(`<div class="dp-text">Model verdict: <b>${esc(a.verdict.verdict)}</b> — ${esc(a.verdict.reason)}</div>`);
  for (const check of a.checks) {
    const img = check.image ? await dataUri(check.image) : undefined;
    parts.push(
      `<div class="qa-check"><div class="${CHECK_CLASS[check.status]}">Check ${esc(CHECK_LABEL[check.status].toLowerCase())}: <code>${esc(check.source)}</code> — ${esc(check.detail)}</div>` +
        `${img ? `<img alt="captured region for ${esc(check.source)}" src="${img}">` : ''}</div>`,
    );
  }
  if (a.runDir) {
    try {
      parts.push(await renderRunSectionFromDir(a.runDir, { heading: `Run ${a.runId ?? ''}` }));
    } catch (error) {
      parts.push(`<div class="dp-note">The run log could not be read: ${esc(error instanceof Error ? error.message : String(error))}</div>`);
    }
  }
  return parts.join('\n');
}

const CHECK_CLASS = { pass: 'dp-ok', fail: 'dp-bad', inconclusive: 'qa-inconclusive' } as const;

/** Every case says where its actions came from (qa --replay): the model, the cache, or the cache healed by the model. */
function sourceBadge(c: CaseResult): string {
  const { source, sourceLabel } = describeCase(c);
  return ` <span class="qa-source qa-source-${source}">(${esc(sourceLabel)})</span>`;
}

function inconclusiveBadge(c: CaseResult): string {
  const { note } = describeCase(c);
  return note ? ` <span class="qa-inconclusive">(${esc(note)})</span>` : '';
}

async function dataUri(file: string): Promise<string | undefined> {
  try {
    return `data:image/png;base64,${(await readFile(file)).toString('base64')}`;
  } catch {
    return undefined;
  }
}

/**
 * A relative link that stays a path: every segment percent-encoded (a folder named
 * "javascript:x" or "a#b" cannot become a scheme or a fragment) and a leading "./" so
 * the first segment is never read as a scheme.
 */
function relativeHref(from: string, link: CaseLink): string {
  const rel = path.relative(from, link.file).split(path.sep).map(encodeURIComponent).join('/');
  return `${rel.startsWith('..') ? '' : './'}${rel}${link.fragment ? `#${encodeURIComponent(link.fragment)}` : ''}`;
}
