import { abortError } from '../../../shared/abort.js';

/**
 * The ask_user questions of one run that wait for a person. The first answer wins;
 * later answers (another client, a stale id) are refused.
 */
export class PendingQuestions {
  private readonly waiting = new Map<string, (answer: { text: string; by: string }) => void>();

  /** Resolves with the person's answer; rejects with an AbortError when the run stops. */
  ask(questionId: string, signal: AbortSignal): Promise<{ text: string; by: string }> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(questionId);
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(questionId, (answer) => {
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      });
    });
  }

  /** false when no such question waits (answered already, or never asked). */
  answer(questionId: string, text: string, by: string): boolean {
    const resolve = this.waiting.get(questionId);
    if (!resolve) return false;
    this.waiting.delete(questionId);
    resolve({ text, by });
    return true;
  }

  get size(): number {
    return this.waiting.size;
  }
}
