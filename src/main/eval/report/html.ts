import path from 'node:path';
import { escapeHtml as esc, renderReportDocument } from '../../sessions/export/html.js';
import type { EvalResult, EvalResultsFile, EvalSummary } from './schema.js';
import { formatCost } from '../../../shared/usage-text.js';

/**
 * report.html: one self-contained file (no network: the sessions export's CSP and styles)
 * with the summary per profile × harness, a success-vs-cost chart (inline SVG: each group a
 * point at its median cost per task run and its success rate, with the Wilson 95% interval as
 * a bar), the per-task grid (a task per row, a group per column, a square per run linking its
 * session report) and the skipped tasks with their reasons.
 */
export function renderEvalReport(file: EvalResultsFile, options: { reportFile?: string; resultsFile?: string } = {}): string {
  const parts: string[] = [`<style>${CSS}</style>`];
  parts.push(`<h1>DeskPilot eval — ${esc(file.suite)}</h1>`);
  parts.push(
    `<p class="dp-muted">DeskPilot ${esc(file.deskpilotVersion)} · started ${esc(file.startedAt)}${file.finishedAt ? ` · finished ${esc(file.finishedAt)}` : ''} · ${file.results.length} task runs. ` +
      'Each run used <b>--policy auto</b> on its own private desktop; the task\'s checker alone decides success, the agent\'s own claim is shown beside it.</p>',
  );
  parts.push(summaryTable(file.summary));
  parts.push(costChart(file.summary));
  parts.push(taskGrid(file, options));
  parts.push(skippedList(file.results));
  return renderReportDocument({ title: `DeskPilot eval — ${file.suite}`, body: parts.join('\n') });
}

const CSS = `
.ev-table { border-collapse: collapse; width: 100%; margin: 8px 0 24px; font-size: .9rem; }
.ev-table th, .ev-table td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
.ev-cell { display: inline-block; min-width: 1.6em; text-align: center; border-radius: 4px; margin: 1px; padding: 0 3px; font-weight: 600; text-decoration: none; }
.ev-passed { background: var(--ok); color: var(--bg); } .ev-failed { background: var(--bad); color: var(--bg); }
.ev-error, .ev-needed-a-person { border: 2px solid var(--bad); color: var(--bad); } .ev-skipped, .ev-interrupted { border: 1px dashed var(--muted); color: var(--muted); }
.ev-chart { max-width: 640px; width: 100%; height: auto; }
.ev-chart text { fill: var(--fg); font: 12px system-ui, sans-serif; }
.ev-chart .axis { stroke: var(--muted); } .ev-chart .bar { stroke: var(--accent); stroke-width: 2; } .ev-chart .dot { fill: var(--accent); }
`;

const pct = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(1)}%`);
const groupName = (s: { profile: string; harness: string }) => `${s.profile} × ${s.harness}`;

function summaryTable(summary: EvalSummary[]): string {
  const rows = summary.map((s) => {
    const interval = s.interval ? ` <span class="dp-muted">[${pct(s.interval.low)}–${pct(s.interval.high)}]</span>` : '';
    const curve = (values: Record<string, number>) => Object.entries(values).map(([k, v]) => `${esc(k)}: ${pct(v)}`).join(', ') || '—';
    const failures = Object.entries(s.failures).map(([kind, n]) => `${esc(kind)} ${n}`).join(', ') || '—';
    return (
      `<tr><td><b>${esc(groupName(s))}</b><br><span class="dp-muted">${esc(s.models.join(', '))}</span></td><td>${pct(s.successRate)}${interval}<br><span class="dp-muted">${s.passed} of ${s.passed + s.failed + s.neededPerson}</span></td>` +
      `<td>${curve(s.passAtK)}</td><td>${curve(s.passHatK)}</td><td>${s.median.steps} steps · ${s.median.modelCalls} calls<br>${s.median.inputTokens} in / ${s.median.outputTokens} out tokens<br>${formatCost(s.median.cost)} · ${s.median.seconds.toFixed(1)} s</td>` +
      `<td>${formatCost(s.totalCost)}</td><td>${s.tasks} runs: ${s.skipped} skipped, ${s.errors} errors, ${s.interrupted} interrupted, ${s.neededPerson} needed a person<br>${failures}</td></tr>`
    );
  });
  return `<h2>Summary</h2><table class="ev-table"><thead><tr><th>profile × harness</th><th>success (Wilson 95%)</th><th>pass@k</th><th>pass^k</th><th>median per task run</th><th>total cost</th><th>runs and failures by kind</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Success rate (y) against median cost per task run (x), one point per group, its interval as a bar. */
function costChart(summary: EvalSummary[]): string {
  const points = summary.filter((s) => s.successRate !== null);
  if (points.length === 0) return '<h2>Success vs cost</h2><p class="dp-muted">No task run was judged.</p>';
  const W = 640;
  const H = 320;
  const left = 56;
  const bottom = 40;
  const top = 16;
  const right = 24;
  const maxCost = Math.max(...points.map((s) => s.median.cost), 0) || 1;
  const x = (cost: number) => left + (cost / maxCost) * (W - left - right);
  const y = (rate: number) => top + (1 - rate) * (H - top - bottom);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => `<line class="axis" x1="${left - 4}" x2="${left}" y1="${y(t)}" y2="${y(t)}"/><text x="${left - 8}" y="${y(t) + 4}" text-anchor="end">${t * 100}%</text>`).join('');
  const dots = points
    .map((s) => {
      const cx = x(s.median.cost).toFixed(1);
      const bar = s.interval ? `<line class="bar" x1="${cx}" x2="${cx}" y1="${y(s.interval.high).toFixed(1)}" y2="${y(s.interval.low).toFixed(1)}"/>` : '';
      return `${bar}<circle class="dot" cx="${cx}" cy="${y(s.successRate!).toFixed(1)}" r="5"><title>${esc(groupName(s))}: ${pct(s.successRate)}, ${formatCost(s.median.cost)} per task run</title></circle><text x="${(Number(cx) + 8).toFixed(1)}" y="${(y(s.successRate!) - 8).toFixed(1)}">${esc(groupName(s))}</text>`;
    })
    .join('');
  return (
    `<h2>Success vs cost</h2><svg class="ev-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="success rate against median cost per task run">` +
    `<line class="axis" x1="${left}" x2="${left}" y1="${top}" y2="${H - bottom}"/><line class="axis" x1="${left}" x2="${W - right}" y1="${H - bottom}" y2="${H - bottom}"/>${ticks}` +
    `<text x="${left}" y="${H - 12}">${formatCost(0)}</text><text x="${W - right}" y="${H - 12}" text-anchor="end">${formatCost(maxCost)} median cost per task run</text>${dots}</svg>`
  );
}

const LETTER: Record<EvalResult['status'], string> = { passed: '✓', failed: '✗', skipped: 'S', error: 'E', interrupted: 'I', 'needed a person': '?' };

function taskGrid(file: EvalResultsFile, options: { reportFile?: string; resultsFile?: string }): string {
  const groups = file.summary.map((s) => ({ key: JSON.stringify([s.profile, s.harness]), name: groupName(s) }));
  const ids = [...new Set(file.results.map((r) => r.id))];
  const cell = (r: EvalResult) => {
    const title = `run ${r.run}: ${r.status} (score ${r.score}; the agent claimed ${r.claim}) — ${r.reason}`;
    const text = `<span class="ev-cell ev-${r.status.replace(/ /g, '-')}" title="${esc(title)}">${LETTER[r.status]}</span>`;
    const href = sessionHref(r, options);
    return href ? `<a href="${esc(href)}">${text}</a>` : text;
  };
  const rows = ids.map((id) => {
    const mine = file.results.filter((r) => r.id === id);
    const cells = groups.map((g) => `<td>${mine.filter((r) => JSON.stringify([r.profile, r.harness]) === g.key).sort((a, b) => a.run - b.run).map(cell).join('')}</td>`);
    return `<tr><td>${esc(id)}</td>${cells.join('')}</tr>`;
  });
  return `<h2>Tasks</h2><p class="dp-muted">✓ passed · ✗ failed · E error · ? needed a person · S skipped · I interrupted. A square links to its run's session report.</p><table class="ev-table"><thead><tr><th>task</th>${groups.map((g) => `<th>${esc(g.name)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** A result's sessionReport is relative to results.json; the link is made relative to the report. */
function sessionHref(r: EvalResult, options: { reportFile?: string; resultsFile?: string }): string | undefined {
  if (!r.sessionReport) return undefined;
  if (!options.reportFile || !options.resultsFile) return r.sessionReport;
  const target = path.resolve(path.dirname(options.resultsFile), r.sessionReport);
  return path.relative(path.dirname(options.reportFile), target).split(path.sep).map(encodeURIComponent).join('/');
}

function skippedList(results: EvalResult[]): string {
  const skipped = new Map<string, string>();
  for (const r of results) if (r.status === 'skipped' && !skipped.has(r.id)) skipped.set(r.id, r.reason);
  if (skipped.size === 0) return '';
  return `<h2>Skipped tasks (${skipped.size})</h2><table class="ev-table"><tbody>${[...skipped].map(([id, why]) => `<tr><td>${esc(id)}</td><td>${esc(why)}</td></tr>`).join('')}</tbody></table>`;
}
