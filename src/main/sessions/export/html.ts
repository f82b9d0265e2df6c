import { describeAction } from '../../../shared/actions.js';
import { approverLabel, policyLabel, ruleLabel } from '../../../shared/labels.js';
import type { RunEvent } from '../../../shared/events.js';
import { usageText } from '../../../shared/usage-text.js';
import { mediaTypeOf, readFileInRun } from '../files.js';
import { readRunLog } from '../reader.js';
import { actionsOnImage, cursorInImage, formatDuration, formatUsd, isoTime, saidInStep, type ReadRunImage } from './common.js';
import { overlaySvg } from './overlay.js';
import { buildRunView, type ActionView, type RunView, type StepView } from './timeline.js';
import { describeSandbox } from '../../../shared/sandbox.js';
import { stepsText } from '../../../shared/step-count.js';

/**
 * The self-contained HTML report: one file, inline CSS, screenshots as data URIs, a
 * Content-Security-Policy that forbids every network request, light and dark. The QA
 * suite report composes several runs with `renderRunSection` + `renderReportDocument`.
 */

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
const esc = escapeHtml;

/** No network at all: images only from data: URIs, styles only inline. */
export const REPORT_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

export const REPORT_CSS = `
:root { color-scheme: light dark; --bg:#f7f7f8; --fg:#1c1d21; --muted:#62646b; --card:#ffffff; --line:#dcdde1;
  --ok:#16794c; --bad:#b3261e; --warn:#8a5a00; --accent:#7a2be2; --code:#f0f0f3; }
@media (prefers-color-scheme: dark) { :root { --bg:#141518; --fg:#e8e8ea; --muted:#a0a2a9; --card:#1d1f23; --line:#33353b;
  --ok:#5cd190; --bad:#ff8a80; --warn:#f0c060; --accent:#c49bff; --code:#26282d; } }
* { box-sizing: border-box; }
body { margin:0; padding:24px; background:var(--bg); color:var(--fg); font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; }
main { max-width: 1100px; margin: 0 auto; }
h1 { font-size: 1.5rem; margin: 0 0 4px; } h2 { font-size: 1.25rem; margin: 0 0 8px; } h3 { font-size: 1.05rem; margin: 0 0 8px; }
.dp-run { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 20px; margin: 0 0 24px; }
.dp-meta { display:grid; grid-template-columns: repeat(auto-fill, minmax(190px, 1fr)); gap: 6px 16px; margin: 12px 0 16px; color: var(--muted); }
.dp-meta b { color: var(--fg); font-weight: 600; }
.dp-badge { display:inline-block; padding: 1px 10px; border-radius: 999px; font-weight:600; font-size: .85rem; border:1px solid currentColor; }
.dp-status-done, .dp-status-passed { color: var(--ok); } .dp-status-failed, .dp-status-error, .dp-status-blocked { color: var(--bad); }
.dp-status-stopped, .dp-status-limit, .dp-status-paused, .dp-status-interrupted, .dp-status-running, .dp-status-open { color: var(--warn); }
.dp-step { border-top: 1px solid var(--line); padding: 16px 0 4px; }
.dp-figure { position: relative; margin: 0 0 12px; max-width: 100%; line-height: 0; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
.dp-figure img { display:block; width:100%; height:auto; }
.dp-figure svg { position:absolute; inset:0; width:100%; height:100%; pointer-events:none; }
.dp-text { white-space: pre-wrap; margin: 6px 0; }
.dp-thinking { color: var(--muted); }
.dp-action { margin: 8px 0; padding: 8px 12px; border-left: 3px solid var(--accent); background: var(--code); border-radius: 0 8px 8px 0; }
.dp-action code, .dp-out { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: .9rem; }
.dp-out { white-space: pre-wrap; margin: 4px 0 0; max-height: 16em; overflow: auto; }
.dp-ok { color: var(--ok); } .dp-bad { color: var(--bad); } .dp-muted { color: var(--muted); }
.dp-note { color: var(--warn); margin: 4px 0; }
.dp-final { margin-top: 12px; padding: 12px; border-radius: 8px; background: var(--code); }
details > summary { cursor: pointer; color: var(--muted); }
`;

/** A whole report page around already rendered sections. */
export function renderReportDocument(options: { title: string; body: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(options.title)}</title>
<style>${REPORT_CSS}</style></head>
<body><main>
${options.body}
</main></body></html>
`;
}

async function dataUri(dir: string, relativePath: string, readImage?: ReadRunImage): Promise<string> {
  const data = await (readImage ? readImage(relativePath) : readFileInRun(dir, relativePath));
  return `data:${mediaTypeOf(relativePath)};base64,${data.toString('base64')}`;
}

function approvalHtml(a: ActionView): string {
  const parts: string[] = [];
  if (a.requested) {
    const d = a.requested.decision;
    parts.push(`<div class="dp-muted">Held by ${esc(ruleLabel(d.rule))}: ${esc(d.reason)}${d.humanOnly ? ' (only a person may answer)' : ''}</div>`);
  }
  if (a.answered) {
    const ans = a.answered.answer;
    const by = approverLabel(a.answered.by);
    const what =
      ans.decision === 'reject'
        ? `rejected${ans.feedback ? `: “${esc(ans.feedback)}”` : ''}`
        : ans.decision === 'edit'
          ? `edited to <code>${esc(describeAction(ans.action))}</code>`
          : ans.decision === 'approve_similar'
            ? 'approved (and similar actions for this run)'
            : 'approved';
    parts.push(`<div>${ans.decision === 'reject' ? '<span class="dp-bad">✗</span>' : '<span class="dp-ok">✓</span>'} ${what} by ${esc(by)}</div>`);
  }
  if (a.denied) parts.push(`<div class="dp-bad">Denied by ${esc(ruleLabel(a.denied.decision.rule))}: ${esc(a.denied.decision.reason)}</div>`);
  return parts.join('');
}

function executedHtml(a: ActionView): string {
  const x = a.executed;
  if (!x) return '';
  const by = approverLabel(x.by);
  return (
    `<div class="${x.ok ? 'dp-ok' : 'dp-bad'}">${x.ok ? 'Executed' : 'Failed'} in ${esc(formatDuration(x.durationMs))}, let through by ${esc(by)}${x.error ? `: ${esc(x.error)}` : ''}</div>` +
    (x.output ? `<pre class="dp-out">${esc(x.output)}</pre>` : '')
  );
}

function noteHtml(e: RunEvent): string {
  switch (e.type) {
    case 'error':
      return `<div class="dp-note">${e.fatal ? 'Fatal error' : 'Error'}: ${esc(e.message)}${e.retryInMs !== undefined ? ` (retrying in ${esc(formatDuration(e.retryInMs))})` : ''}</div>`;
    case 'state':
      // Routine transitions (running, waiting …) are not news in a finished report; a pause and its reason are.
      return e.state === 'paused' ? `<div class="dp-note">Paused${e.reason ? ` — ${esc(e.reason)}` : ''}</div>` : '';
    case 'question_asked':
      return `<div class="dp-note">The model asked: “${esc(e.question)}”</div>`;
    case 'question_answered':
      return `<div class="dp-note">Answered by ${esc(e.by)}: “${esc(e.answer)}”</div>`;
    case 'approval_requested':
    case 'approval_answered':
    case 'action_denied':
    case 'action_executed':
      return `<div class="dp-note">${esc(e.type.replace('_', ' '))} (${esc(e.proposalId)})</div>`;
    default:
      return '';
  }
}

async function stepHtml(dir: string, step: StepView, readImage?: ReadRunImage): Promise<string> {
  const out: string[] = [`<section class="dp-step" id="step-${step.step}"><h3>Step ${step.step + 1}</h3>`];
  if (step.observation) {
    const obs = step.observation;
    const size = obs.observation.image;
    const svg = overlaySvg(actionsOnImage(step), size, { cursor: cursorInImage(obs.observation) });
    out.push(
      `<figure class="dp-figure" style="aspect-ratio:${size.width}/${size.height}"><img class="dp-shot" alt="Screenshot the model saw at step ${step.step + 1}" width="${size.width}" height="${size.height}" src="${await dataUri(dir, obs.image, readImage)}">${svg}</figure>`,
    );
  }
  for (const t of step.texts) {
    if (t.kind === 'thinking') out.push(`<details class="dp-thinking"><summary>Thinking</summary><div class="dp-text">${esc(t.text)}</div></details>`);
    else if (t.text.trim()) out.push(`<div class="dp-text">${esc(t.text)}</div>`);
  }
  for (const a of step.actions) {
    out.push(
      `<div class="dp-action"><div><code>${esc(describeAction(a.proposed.action))}</code></div>` +
        (a.proposed.reasoning && !saidInStep(step, a.proposed.reasoning) ? `<div class="dp-muted">${esc(a.proposed.reasoning)}</div>` : '') +
        approvalHtml(a) +
        executedHtml(a) +
        '</div>',
    );
  }
  for (const inv of step.invalid) out.push(`<div class="dp-action"><div class="dp-bad">Invalid action: ${esc(inv.error)}</div><pre class="dp-out">${esc(inv.raw)}</pre></div>`);
  for (const n of step.notes) out.push(noteHtml(n));
  if (step.usage) {
    const u = step.usage.stepUsage;
    out.push(`<div class="dp-muted">Tokens: ${esc(usageText(u))} (run total ${esc(formatUsd(step.usage.total.costUsd))})</div>`);
  }
  out.push('</section>');
  return out.join('\n');
}

/** One run as an HTML <section> (the QA suite report puts several in one document). */
export async function renderRunSection(dir: string, view: RunView, options: { heading?: string; readImage?: ReadRunImage } = {}): Promise<string> {
  const s = view.summary;
  const started = view.started;
  // The outcome (sessions/outcome.ts): a QA case shows its verdict after DeskPilot's checks.
  const shown = s.verdict ?? s.status;
  const meta: Array<[string, string]> = [
    [s.verdict ? 'Verdict' : 'Status', `<span class="dp-badge dp-status-${esc(shown)}">${esc(shown)}</span>`],
    ['Run', esc(view.runId)],
    ['Model', `${esc(s.provider)} · ${esc(s.model)}`],
    ['Policy', esc(started ? policyLabel(started.policy) : '')],
    // The sandbox the commands ran in (issue 30); a run logged before it, or started without one, had none.
    ['Sandbox', esc(started?.sandbox ? describeSandbox(started.sandbox) : 'none recorded (commands ran unsandboxed)')],
    ['Started', s.startedAt ? esc(isoTime(s.startedAt)) : ''],
    ['Duration', s.endedAt && s.startedAt ? esc(formatDuration(s.endedAt - s.startedAt)) : '—'],
    ['Steps', String(s.steps)],
    ['Cost', esc(formatUsd(s.costUsd))],
  ];
  if (s.usage) meta.push(['Tokens', esc(usageText(s.usage))]);
  for (const [k, v] of Object.entries(s.labels)) meta.push([esc(k), esc(v)]);
  const parts = [
    `<section class="dp-run" id="run-${esc(view.runId)}">`,
    `<h2>${esc(options.heading ?? s.task ?? view.runId)}</h2>`,
    options.heading ? `<div class="dp-text">${esc(s.task)}</div>` : '',
    `<div class="dp-meta">${meta.map(([k, v]) => `<div>${k}: <b>${v}</b></div>`).join('')}</div>`,
    ...view.preamble.map(noteHtml),
    ...view.resumes.map((r) => `<div class="dp-note">Resumed at ${esc(isoTime(r.at))}${r.resumedFromSeq !== undefined ? ` after event ${r.resumedFromSeq}` : ''}</div>`),
  ];
  for (const step of view.steps) parts.push(await stepHtml(dir, step, options.readImage));
  if (view.ended) {
    parts.push(`<div class="dp-final"><b>${s.verdict ? 'Verdict' : 'Final status'}: <span class="dp-status-${esc(shown)}">${esc(shown)}</span></b> after ${stepsText(s.steps)}, ${esc(formatUsd(view.ended.total.costUsd))}${s.summary ? `<div class="dp-text">${esc(s.summary)}</div>` : ''}</div>`);
  } else {
    parts.push('<div class="dp-final"><b>The run has not ended</b> (still running, paused, or interrupted).</div>');
  }
  parts.push('</section>');
  return parts.filter(Boolean).join('\n');
}

/**
 * One run folder as an HTML <section>, read from its log: what a suite report calls
 * per case (`renderReportDocument({ title, body: sections.join('') })`).
 */
export async function renderRunSectionFromDir(dir: string, options: { heading?: string } = {}): Promise<string> {
  const { events } = await readRunLog(dir);
  return renderRunSection(dir, buildRunView(events), options);
}

/** A whole report for one run. */
export async function renderHtmlReportFor(dir: string, view: RunView, options: { readImage?: ReadRunImage } = {}): Promise<string> {
  const body = `<h1>DeskPilot run report</h1>\n${await renderRunSection(dir, view, options)}`;
  return renderReportDocument({ title: `DeskPilot — ${view.summary.task || view.runId}`, body });
}

/** A whole report for one run folder. */
export async function renderHtmlReport(dir: string): Promise<string> {
  const { events } = await readRunLog(dir);
  return renderHtmlReportFor(dir, buildRunView(events));
}
