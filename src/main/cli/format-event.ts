import type { RunEvent, RunEventOf } from '../../shared/events.js';
import { defaultHarness } from '../../shared/harnesses.js';
import { ProviderFamilySchema } from '../../shared/providers.js';
import { formatCost, inputTokensOf, usageText } from '../../shared/usage-text.js';
import { describeDisplay } from '../../os-control/displays.js';
import { describeInFull, shown, shownOneLine } from './terminal-text.js';
import { describeSandbox } from '../../shared/sandbox.js';

/**
 * One line a person reads in the terminal for an event, or undefined for events not
 * worth a line. Everything the model (or the task) wrote is made visible, never
 * interpreted (terminal-text.ts): a `\r` or an escape sequence cannot rewrite a line.
 */
export function formatEvent(event: RunEvent): string | undefined {
  switch (event.type) {
    case 'run_started':
      return `${event.resumedFromSeq !== undefined ? 'resumed' : 'run'} ${event.runId}: ${shownOneLine(event.task)} (${shownOneLine(event.provider)} ${shownOneLine(event.model)}${chosenHarness(event)}, policy ${event.policy}${event.display ? `, display ${describeDisplay(event.display)}` : ''})${event.sandbox ? `\n  ${shownOneLine(describeSandbox(event.sandbox))}` : ''}`;
    case 'observation':
      return `[${event.step}] screenshot ${event.observation.image.width}×${event.observation.image.height}`;
    case 'model_text':
      return event.text.trim() ? `[${event.step}] ${event.kind === 'thinking' ? 'thinking: ' : 'model: '}${shown(event.text.trim(), '    ')}` : undefined;
    case 'action_proposed':
      return `[${event.step}] proposes ${describeInFull(event.action)}`;
    case 'action_invalid':
      return `[${event.step}] invalid action: ${shown(event.error, '    ')}`;
    case 'approval_requested':
      return undefined; // the prompt says it
    case 'approval_answered':
      return `  ${event.answer.decision} (${event.by.kind}${event.by.detail ? `: ${shownOneLine(event.by.detail)}` : ''})`;
    case 'action_denied':
      return `  denied by ${shownOneLine(event.decision.rule)}: ${shown(event.decision.reason, '    ')}`;
    case 'action_executed':
      return `[${event.step}] ${event.ok ? 'did' : 'FAILED'} ${describeInFull(event.action)} (${event.by.kind}${event.by.detail ? `: ${shownOneLine(event.by.detail)}` : ''}, ${Math.round(event.durationMs)} ms)${event.error ? `: ${shown(event.error, '    ')}` : ''}`;
    case 'clipboard':
      return `[${event.step}] ${event.ok ? '' : 'FAILED '}clipboard ${event.op}${event.line !== null ? ` (line ${event.line})` : ''}: ${event.ok ? `${event.chars} characters ${shownOneLine(JSON.stringify(event.text.slice(0, 80)))}${event.chars > 80 ? '…' : ''}` : shown(event.error ?? 'failed', '    ')}`;
    case 'question_asked':
      return undefined; // the prompt says it
    case 'question_answered':
      return undefined;
    case 'usage':
      return `  tokens ${usageText(event.stepUsage)} (run ${formatCost(event.total.costUsd)})`;
    case 'state':
      return event.state === 'paused' ? `paused: ${shown(event.reason, '    ')}` : undefined;
    case 'error':
      return event.retryInMs !== undefined ? `  ${shown(event.message, '    ')} in ${Math.round(event.retryInMs)} ms` : `error: ${shown(event.message, '    ')}`;
    case 'run_ended':
      return `run ${event.status} after ${event.steps} step${event.steps === 1 ? '' : 's'}${event.summary ? `: ${shown(event.summary, '    ')}` : ''} (${inputTokensOf(event.total) + event.total.outputTokens > 0 ? usageText(event.total) : formatCost(event.total.costUsd)})`;
  }
}

/**
 * The harness in the run header when it is not the model family's own (`code`, or a
 * format chosen by hand): ", harness code". The default goes unsaid — the family and
 * model already name it (deskpilot harnesses).
 */
function chosenHarness(event: RunEventOf<'run_started'>): string {
  const family = ProviderFamilySchema.safeParse(event.provider);
  if (!event.harness || (family.success && defaultHarness({ provider: family.data, model: event.model }) === event.harness)) return '';
  return `, harness ${shownOneLine(event.harness)}`;
}
