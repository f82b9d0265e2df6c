import type { RunEvent, RunEventOf, Usage } from '../../../shared/events.js';
import type { RunLog } from '../../sessions/types.js';
import { ZERO_USAGE } from '../pricing.js';
import { callRecord, type AssistantItem, type ModelCall, type ToolResultItem, type TranscriptItem } from '../transcript.js';
import { imageOnDisk } from './observe.js';

/** What a run's log says about where it stopped, enough to continue it. */
export interface ResumePoint {
  task: string;
  started: RunEventOf<'run_started'>;
  transcript: TranscriptItem[];
  /** Model turns completed: the step of the next turn. */
  step: number;
  total: Usage;
  /** Calls of the last turn that never got a result (the process died while running them). */
  unanswered: number;
  /** Time the run was active before this resume (each segment from its start to its last event); pauses between segments do not count. */
  activeMs: number;
}

/** Sum over the log's segments (each begins with run_started) of the time from its start to its last event. */
export function activeTimeMs(events: readonly RunEvent[]): number {
  let total = 0;
  let segmentStart: number | undefined;
  let last: number | undefined;
  for (const event of events) {
    if (event.type === 'run_started') {
      if (segmentStart !== undefined && last !== undefined) total += last - segmentStart;
      segmentStart = event.at;
    }
    last = event.at;
  }
  if (segmentStart !== undefined && last !== undefined) total += last - segmentStart;
  return total;
}

const INTERRUPTED =
  'interrupted: DeskPilot stopped while this action was pending, and the run was resumed later. It may or may not have run; check the new screenshot.';

/**
 * Rebuilds the provider-neutral transcript from a run's events: the task with the
 * first screenshot, each assistant turn (model_text.assistant, with the provider's
 * replay state), and the tool results each following screenshot answered
 * (observation.toolResults). Calls left without a result are answered as
 * interrupted, so every call id has its answer.
 */
export function rebuildTranscript(events: readonly RunEvent[], log: RunLog): ResumePoint {
  const started = events.find((e): e is RunEventOf<'run_started'> => e.type === 'run_started');
  if (!started) throw new Error('this run log has no run_started event; it cannot be resumed');
  const ended = [...events].reverse().find((e) => e.type === 'run_ended' || e.type === 'run_started');
  if (ended?.type === 'run_ended' && ended.status === 'done') {
    throw new Error('this run already finished successfully; start a new run instead');
  }

  const transcript: TranscriptItem[] = [];
  let step = 0;
  let total: Usage = { ...ZERO_USAGE };
  let openCalls: ModelCall[] = [];

  const answer = (results: readonly ToolResultItem[]) => {
    transcript.push(...results);
    openCalls = [];
  };

  for (const event of events) {
    switch (event.type) {
      case 'observation': {
        const image = imageOnDisk(log, event.observation, event.modelImage ?? event.image);
        if (!transcript.length) {
          transcript.push({ role: 'user', text: started.task, image });
        } else if (event.toolResults && openCalls.length) {
          const byId = new Map(event.toolResults.map((r) => [r.callId, r]));
          const results: ToolResultItem[] = openCalls.map((call) => {
            const logged = byId.get(call.callId);
            return {
              role: 'tool_result',
              callId: call.callId,
              name: call.name,
              ok: logged?.ok ?? false,
              text: logged?.text ?? INTERRUPTED,
              ...(logged?.acknowledgedSafetyChecks ? { acknowledgedSafetyChecks: logged.acknowledgedSafetyChecks } : {}),
            };
          });
          const last = results[results.length - 1];
          if (last) last.image = image;
          answer(results);
        }
        // An unreadable reply was answered with a correction: the same user message as
        // the live run sent (runner/unreadable.ts tellModel), so the turns alternate.
        if (event.correction !== undefined && transcript.at(-1)?.role !== 'user') {
          const answered = transcript.at(-1)?.role === 'tool_result';
          transcript.push({ role: 'user', text: event.correction, ...(answered ? {} : { image }) });
        }
        break;
      }
      case 'model_text': {
        if (!event.assistant) break;
        if (openCalls.length) answer(interruptedResults(openCalls));
        const assistant: AssistantItem = {
          role: 'assistant',
          text: event.text,
          calls: event.assistant.calls.map(callRecord),
          ...(event.assistant.thinking ? { thinking: event.assistant.thinking } : {}),
          ...(event.assistant.providerState !== undefined ? { providerState: event.assistant.providerState } : {}),
        };
        transcript.push(assistant);
        openCalls = assistant.calls;
        step = event.step + 1;
        break;
      }
      case 'usage':
        total = event.total;
        break;
      default:
        break;
    }
  }
  const unanswered = openCalls.length;
  if (openCalls.length) answer(interruptedResults(openCalls));
  return { task: started.task, started, transcript, step, total, unanswered, activeMs: activeTimeMs(events) };
}

function interruptedResults(calls: readonly ModelCall[]): ToolResultItem[] {
  return calls.map((call) => ({ role: 'tool_result', callId: call.callId, name: call.name, ok: false, text: INTERRUPTED }));
}

/**
 * The fresh screenshot of a resumed run replaces the image at the end of the
 * transcript (the last tool result, or the task), so the model looks at the screen as
 * it is now without breaking the turn structure the wire protocols require.
 */
export function attachFreshImage(transcript: TranscriptItem[], image: ToolResultItem['image']): void {
  const last = transcript[transcript.length - 1];
  if (!last || last.role === 'assistant' || !image) return;
  last.image = image;
  delete last.imagePruned;
  if (last.role === 'tool_result') last.text = `${last.text}\n(The run was resumed; this is the screen now.)`;
}
