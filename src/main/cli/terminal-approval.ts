import type { Action } from '../../shared/actions.js';
import type { ApprovalAnswer } from '../../shared/approvals.js';
import type { RunEventOf } from '../../shared/events.js';
import { codeBlockOf, withCode } from '../../shared/code-block.js';
import type { RunHandle } from '../agent/run-api.js';
import { approvalHelp, approvalQuestion, blockText, choiceReminder, choicesFor, editedAction, editQuestion, readChoice, type ProposalView } from './approval-prompt.js';
import { editBlock } from './block-edit.js';
import { LINE_LIMITS, type LinePrompter } from './line-prompter.js';
import { shown } from './terminal-text.js';

/**
 * What a run waits on, asked at the terminal: a held action (y/n/e/s/q/?) until it has an
 * answer the run takes, the person stops the run, or stdin ends; the model's question; a
 * retry after a provider outage. terminal-run.ts feeds it the events; this file is the
 * dialogue only.
 */

export interface TerminalApprovalIo {
  prompter: LinePrompter;
  stderr: NodeJS.WritableStream;
  /** stdin ended while this waited: the run stops, never carries on as if the person said no. */
  stopForInput(handle: RunHandle): void;
}

const tooLong = (io: TerminalApprovalIo) => io.stderr.write(`That answer is longer than ${LINE_LIMITS.maxLineBytes} bytes; it was not used.\n`);

export async function askApproval(io: TerminalApprovalIo, handle: RunHandle, requested: RunEventOf<'approval_requested'>, proposed: RunEventOf<'action_proposed'> | undefined, seen: Pick<ProposalView, 'image' | 'sandbox'>): Promise<void> {
  const { prompter, stderr } = io;
  if (!proposed) {
    // Every request follows its proposal; without one there is nothing a person could judge.
    stderr.write(`deskpilot: an approval for an unknown proposal ${requested.proposalId}; stopping\n`);
    handle.stop('an approval arrived for a proposal the terminal never saw');
    return;
  }
  const view: ProposalView = {
    step: proposed.step,
    action: proposed.action,
    reason: requested.decision.reason,
    ...(requested.window ? { window: requested.window } : {}),
    ...(requested.element ? { element: requested.element } : {}),
    ...(seen.image ? { image: seen.image } : {}),
    ...(seen.sandbox ? { sandbox: seen.sandbox } : {}),
    ...(proposed.resolved ? { resolved: proposed.resolved } : {}),
  };
  for (;;) {
    const line = await prompter.ask(approvalQuestion(view));
    if (line === null) return io.stopForInput(handle);
    if (line.cut) {
      tooLong(io);
      continue;
    }
    const offered = choicesFor(view.action);
    const choice = readChoice(line.text, offered);
    let answer: ApprovalAnswer | undefined;
    switch (choice) {
      case undefined:
        stderr.write(`${choiceReminder(offered)}\n`);
        continue;
      case 'help':
        stderr.write(approvalHelp(view));
        continue;
      case 'stop':
        handle.stop('stopped at the approval prompt');
        return;
      case 'yes':
        answer = { decision: 'approve' };
        break;
      case 'similar':
        answer = { decision: 'approve_similar' };
        break;
      case 'no': {
        const feedback = await prompter.ask('Why not? Feedback for the model (Enter for none): ');
        if (feedback === null) return io.stopForInput(handle);
        answer = { decision: 'reject', ...(feedback.text && !feedback.cut ? { feedback: feedback.text } : {}) };
        break;
      }
      case 'edit': {
        const edited = await askEdit(io, view);
        if (edited === null) return io.stopForInput(handle);
        if (!edited) continue;
        answer = { decision: 'edit', action: edited };
        break;
      }
    }
    const result = handle.answerApprovalWithReason
      ? handle.answerApprovalWithReason(requested.proposalId, answer, 'cli')
      : { accepted: handle.answerApproval(requested.proposalId, answer, 'cli') };
    if (result.accepted) return;
    stderr.write(`Not accepted: ${shown(result.reason ?? 'the run moved on')}\n`);
    // Answered elsewhere or the run moved on: nothing is waiting any more.
    if (!result.reason?.startsWith('edit refused')) return;
  }
}

/** The edited action, undefined to ask again (nothing to edit, a typo), null when stdin ended. */
async function askEdit(io: TerminalApprovalIo, view: ProposalView): Promise<Action | undefined | null> {
  const { prompter, stderr } = io;
  const block = codeBlockOf(view.action);
  if (block && view.action.type === 'shell') {
    const edited = await editBlock(block, { prompter, stderr, env: process.env });
    if ('ended' in edited) return null;
    if ('unchanged' in edited) {
      stderr.write(`${shown(edited.unchanged)}\n`);
      return undefined;
    }
    // What runs is what the person sees here: the edited block, numbered like the question.
    const action = withCode(view.action, { language: block.language, code: edited.code });
    stderr.write(`The block as edited (this is what runs):${blockText(action)}\n`);
    return action;
  }
  const question = editQuestion(view.action, view.image);
  if (!question) {
    stderr.write('This action has nothing to edit.\n');
    return undefined;
  }
  const line = await prompter.ask(question);
  if (line === null) return null;
  if (line.cut) {
    tooLong(io);
    return undefined;
  }
  const edited = editedAction(view.action, line.text);
  if ('error' in edited) {
    stderr.write(`${edited.error}\n`);
    return undefined;
  }
  return edited.action;
}

/** The model's ask_user question; no answer (stdin ended) stops the run. */
export async function askQuestion(io: TerminalApprovalIo, handle: RunHandle, asked: RunEventOf<'question_asked'>): Promise<void> {
  const answer = await io.prompter.ask(`\nThe model asks: ${shown(asked.question, '  ')}\n> `);
  if (answer === null) io.stopForInput(handle);
  else handle.answerQuestion(asked.questionId, answer.text, 'cli');
}

/**
 * The run paused on a provider outage: true when the person pressed Enter to try again.
 * With no terminal to ask (stdin not a TTY) it says how to resume later and answers false.
 */
export async function offerRetry(io: TerminalApprovalIo, handle: RunHandle, reason: string, tty: boolean): Promise<boolean> {
  if (!tty) {
    io.stderr.write(`deskpilot: the run is paused (${shown(reason)}).\nContinue it later with: deskpilot sessions resume ${handle.runId}\n`);
    return false;
  }
  return (await io.prompter.ask(`The run is paused: ${shown(reason)}\nPress Enter to try again, or Ctrl-C to stop. `)) !== null;
}
