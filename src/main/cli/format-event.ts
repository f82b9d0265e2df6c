import { describeAction } from '../../shared/actions.js';
import type { RunEvent } from '../../shared/events.js';

/** One line a person reads in the terminal for an event, or undefined for events not worth a line. */
export function formatEvent(event: RunEvent): string | undefined {
  switch (event.type) {
    case 'run_started':
      return `${event.resumedFromSeq !== undefined ? 'resumed' : 'run'} ${event.runId}: ${event.task} (${event.provider} ${event.model}, policy ${event.policy})`;
    case 'observation':
      return `[${event.step}] screenshot ${event.observation.image.width}×${event.observation.image.height}`;
    case 'model_text':
      return event.text.trim() ? `[${event.step}] ${event.kind === 'thinking' ? 'thinking: ' : 'model: '}${event.text.trim()}` : undefined;
    case 'action_proposed':
      return `[${event.step}] proposes ${describeAction(event.action)}`;
    case 'action_invalid':
      return `[${event.step}] invalid action: ${event.error}`;
    case 'approval_requested':
      return undefined; // the prompt says it
    case 'approval_answered':
      return `  ${event.answer.decision} (${event.by.kind}${event.by.detail ? `: ${event.by.detail}` : ''})`;
    case 'action_denied':
      return `  denied by ${event.decision.rule}: ${event.decision.reason}`;
    case 'action_executed':
      return `[${event.step}] ${event.ok ? 'did' : 'FAILED'} ${describeAction(event.action)} (${event.by.kind}${event.by.detail ? `: ${event.by.detail}` : ''}, ${Math.round(event.durationMs)} ms)${event.error ? `: ${event.error}` : ''}`;
    case 'question_asked':
      return undefined; // the prompt says it
    case 'question_answered':
      return undefined;
    case 'usage':
      return event.stepUsage.costUsd > 0 ? `  cost $${event.stepUsage.costUsd.toFixed(4)} (run $${event.total.costUsd.toFixed(4)})` : undefined;
    case 'state':
      return event.state === 'paused' ? `paused: ${event.reason}` : undefined;
    case 'error':
      return event.retryInMs !== undefined ? `  ${event.message} in ${Math.round(event.retryInMs)} ms` : `error: ${event.message}`;
    case 'run_ended':
      return `run ${event.status} after ${event.steps} step${event.steps === 1 ? '' : 's'}${event.summary ? `: ${event.summary}` : ''} ($${event.total.costUsd.toFixed(4)})`;
  }
}
