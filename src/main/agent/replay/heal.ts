import type { TurnRequest } from '../providers/types.js';
import type { TranscriptImage, TranscriptItem, UserItem } from '../transcript.js';

/**
 * What a healing replay shows its model. Two kinds of request:
 *   - a step heal: one step no longer matches; the model does that step on the screen as
 *     it is, in one turn, and the replay goes on with the next recorded step;
 *   - the judgement: once the model has acted (any heal), the end of the replay is the
 *     model's to judge exactly as in a model run — no verdict is sent in its name. The
 *     model is shown the task (a QA case's expectations are in it) and keeps the turn,
 *     its own actions and their results included, until it ends the run itself
 *     (qa_verdict, or finish).
 * Both carry the same observation as a model turn: the screenshot, and the element list
 * the runner added for this request (a transient item) — the model may name an element
 * id only from a list it was sent.
 */

/** How the judged end is given: QA's verdict tool (the checks then decide), or `finish`. */
export type JudgeWith = 'verdict' | 'finish';

/** The observation items of this request that a heal request keeps: the element list of the newest screenshot. */
function observationExtras(request: TurnRequest): TranscriptItem[] {
  const last = request.transcript.at(-1);
  return last?.role === 'user' && last.transient ? [last] : [];
}

/** The request's items that the runner keeps (everything but its trailing transient element list). */
function keptLength(request: TurnRequest): number {
  return request.transcript.length - observationExtras(request).length;
}

/** A one-turn heal of one step (or of the screen before it): the prompt, the screenshot, the element list. */
export function stepHealRequest(request: TurnRequest, prompt: string, image: TranscriptImage): TurnRequest {
  return { ...request, transcript: [{ role: 'user', text: prompt, image }, ...observationExtras(request)] };
}

export function judgePrompt(task: string, summary: string, why: string, judgeWith: JudgeWith): string {
  return [
    `Task: ${task}`,
    '',
    `A recorded run of this task was replayed (${summary}), and ${why}. Nothing is taken for granted from the recording: judge the result as in any run, on the screen as it is now.`,
    judgeWith === 'verdict'
      ? 'Check every expectation of the test on the screen (act only where the task is not finished yet), then give your verdict with qa_verdict.'
      : 'Check on the screen whether the task is done as described, and do what is missing. Then call finish: success true only when the task is done.',
  ].join('\n');
}

/**
 * The model's conversation from the judgement on: its opening (the prompt and the
 * screenshot it was asked on) and where in the runner's transcript the model's own
 * turns start, so each later request carries them and their results.
 */
export class Judgement {
  private readonly opening: UserItem;
  private readonly from: number;

  constructor(request: TurnRequest, prompt: string, image: TranscriptImage) {
    this.opening = { role: 'user', text: prompt, image };
    this.from = keptLength(request);
  }

  /** This turn's request for the model: the opening, then everything since it (with this request's element list). */
  request(request: TurnRequest): TurnRequest {
    return { ...request, transcript: [this.opening, ...request.transcript.slice(this.from)] };
  }
}
