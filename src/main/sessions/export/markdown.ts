import path from 'node:path';
import { describeAction } from '../../../shared/actions.js';
import { approverLabel, policyLabel, ruleLabel } from '../../../shared/labels.js';
import { usageText } from '../../../shared/usage-text.js';
import { formatDuration, formatUsd, isoTime, saidInStep } from './common.js';
import { mdCode, mdFence, mdInline, mdQuote, mdUrl } from './markdown-escape.js';
import type { RunView } from './timeline.js';
import { describeSandbox } from '../../../shared/sandbox.js';

/**
 * A run as Markdown. Screenshots are linked under `imageBase`: the folder next to the
 * file they were copied to (exportRun), so the file and its folder can be attached.
 */
export function renderMarkdown(view: RunView, options: { imageBase: string }): string {
  const s = view.summary;
  const link = (rel: string) => mdUrl(path.posix.join(options.imageBase.split(path.sep).join('/'), rel));
  const inline = mdInline;
  const quote = mdQuote;
  const lines: string[] = [
    `# ${inline(s.task || view.runId)}`,
    '',
    `| | |`,
    `|---|---|`,
    `| Run | ${mdCode(view.runId)} |`,
    s.verdict ? `| Verdict | **${inline(s.verdict)}** |` : `| Status | **${inline(s.status)}** |`,
    `| Model | ${inline(s.provider)} · ${inline(s.model)} |`,
    `| Policy | ${view.started ? inline(policyLabel(view.started.policy)) : ''} |`,
    `| Sandbox | ${inline(view.started?.sandbox ? describeSandbox(view.started.sandbox) : 'none recorded (commands ran unsandboxed)')} |`,
    `| Started | ${s.startedAt ? isoTime(s.startedAt) : ''} |`,
    `| Duration | ${s.endedAt && s.startedAt ? formatDuration(s.endedAt - s.startedAt) : '—'} |`,
    `| Steps | ${s.steps} |`,
    `| Cost | ${formatUsd(s.costUsd)} |`,
  ];
  if (s.usage) lines.push(`| Tokens | ${usageText(s.usage)} |`);
  for (const [k, v] of Object.entries(s.labels)) lines.push(`| ${inline(k)} | ${inline(v)} |`);
  lines.push('');
  for (const r of view.resumes) lines.push(`_Resumed at ${isoTime(r.at)}._`, '');
  for (const step of view.steps) {
    lines.push(`## Step ${step.step + 1}`, '');
    if (step.observation) lines.push(`![Screenshot at step ${step.step + 1}](${link(step.observation.image)})`, '');
    for (const t of step.texts) {
      if (!t.text.trim()) continue;
      lines.push(t.kind === 'thinking' ? `<details><summary>Thinking</summary>\n\n${quote(t.text)}\n\n</details>` : quote(t.text), '');
    }
    for (const a of step.actions) {
      lines.push(`- **Action:** ${mdCode(describeAction(a.proposed.action))}`);
      if (a.proposed.reasoning && !saidInStep(step, a.proposed.reasoning)) lines.push(`  - Reasoning: ${inline(a.proposed.reasoning)}`);
      if (a.requested) lines.push(`  - Held by ${inline(ruleLabel(a.requested.decision.rule))}: ${inline(a.requested.decision.reason)}`);
      if (a.answered) {
        const ans = a.answered.answer;
        const by = approverLabel(a.answered.by);
        const what = ans.decision === 'reject' ? `rejected${ans.feedback ? `: “${inline(ans.feedback)}”` : ''}` : ans.decision === 'edit' ? `edited to ${mdCode(describeAction(ans.action))}` : ans.decision === 'approve_similar' ? 'approved (and similar actions for this run)' : 'approved';
        lines.push(`  - ${what} by ${inline(by)}`);
      }
      if (a.denied) lines.push(`  - Denied by ${inline(ruleLabel(a.denied.decision.rule))}: ${inline(a.denied.decision.reason)}`);
      if (a.executed) {
        const x = a.executed;
        lines.push(`  - ${x.ok ? 'Executed' : 'Failed'} in ${formatDuration(x.durationMs)} (let through by ${inline(approverLabel(x.by))})${x.error ? `: ${inline(x.error)}` : ''}`);
        if (x.output) lines.push('', ...mdFence(x.output, 'text', '  '));
      }
    }
    for (const inv of step.invalid) lines.push(`- **Invalid action:** ${inline(inv.error)}`);
    for (const n of step.notes) {
      if (n.type === 'error') lines.push(`- _Error:_ ${inline(n.message)}`);
      else if (n.type === 'state' && n.state === 'paused') lines.push(`- _Paused_${n.reason ? ` — ${inline(n.reason)}` : ''}`);
      else if (n.type === 'question_asked') lines.push(`- _Question:_ ${inline(n.question)}`);
      else if (n.type === 'question_answered') lines.push(`- _Answer (${inline(n.by)}):_ ${inline(n.answer)}`);
    }
    if (step.usage) {
      const u = step.usage.stepUsage;
      lines.push(`- Tokens: ${usageText(u)}`);
    }
    lines.push('');
  }
  if (view.ended) {
    lines.push(`## Result: ${inline(s.verdict ?? s.status)}`, '');
    if (s.summary) lines.push(quote(s.summary), '');
  } else {
    lines.push('## The run has not ended', '');
  }
  return lines.join('\n');
}
