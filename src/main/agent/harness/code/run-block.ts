import type { Action, ActionOf } from '../../../../shared/actions.js';
import type { ApprovedBy } from '../../../../shared/approvals.js';
import { throwIfAborted } from '../../../../shared/abort.js';
import type { CheckedAction } from '../../../../os-control/check-action.js';
import { CLIPBOARD_LOG_CHARS, type RunEventInput } from '../../../../shared/events.js';
import type { RunLog } from '../../../sessions/types.js';
import type { InputMemory } from '../../supervision/input-memory.js';
import type { ModelCall } from '../../transcript.js';
import { refusalNote } from '../../../sandbox/index.js';
import { blockCommand, codeOfCommand } from '../../../../shared/code-block.js';
import { planCall, type ClipboardOp } from './computer-api.js';
import type { BlockLookups } from './lookups.js';
import type { BlockClipboard } from './block-clipboard.js';
import { readExecuteInput, type CodeLanguage } from './execute-tool.js';
import type { CodeSessions } from './sessions.js';
import type { BlockResult, ComputerCallReply, ComputerCallRequest } from './session.js';

/**
 * One `execute` call of the `code` harness, supervised like everything else:
 *   1. read      — the block's language and code (a bad input is told to the model, nothing runs)
 *   2. gate      — the whole block is proposed as the command it is (a `shell` action whose
 *                  text is the code under a header naming the session): the same risk rules
 *                  (a command is risky: under ask and risky it waits, shown whole), user
 *                  rules on command text, the approval queue, a person's edit
 *   3. run       — in the run's persistent session of that language, in the run's sandbox;
 *                  a block with `escalate` (a person approved it: the gate holds every
 *                  escalation for one) in a fresh interpreter with exactly that grant
 *   4. each computer call — the action it is (computer-api.ts), through the runner's own
 *                  proposeAndRun: checkAction, the gate and queue, the takeover watch, the
 *                  executor, the audit log. A refusal is raised in the code with its reason
 *   5. answer    — output, value and traceback, cut to the budget with the cut said; a
 *                  failure with a sign of the sandbox's refusal says so, and how to ask again
 * A stop (Stop, Ctrl-C, the kill hotkey, the run's time limit) ends the block and the
 * interpreter with everything it started, and stops the run as any stop does.
 */

/**
 * What a block needs of its run — where events go, the step, the stop, the log's
 * scrubber, the keys held — and no more: the runner's RunContext has all of it, and this
 * folder does not import the runner (which imports this one).
 */
export interface BlockRun {
  emit(event: RunEventInput): unknown;
  readonly step: number;
  readonly control: { readonly signal: AbortSignal };
  readonly log: Pick<RunLog, 'scrubText'>;
  readonly input: Pick<InputMemory, 'held'>;
}

/** What the runner lends a block: its own proposal path, the check against the screenshot the model saw. */
export interface BlockHooks {
  /** The runner's proposeAndRun for this call: `perform` replaces the executor (the block itself); `index` numbers the proposal within the call. */
  propose(action: CheckedAction, index: number, options: { reasoning?: string; perform?: BlockPerformer }): Promise<{ ok: boolean; text: string; acted: boolean }>;
  /** checkAction against the screenshot the model saw. */
  check(action: unknown): { ok: true; action: CheckedAction } | { ok: false; error: string };
  /** The size of that screenshot (the coordinate space of every call). */
  screen: { width: number; height: number };
  /** Click-by-text's point and the lookups, in that screenshot's pixels (lookups.ts). */
  lookups: BlockLookups;
  /** The model's text of the turn (the reasoning shown with the block). */
  reasoning: string;
  /** computer.clipboard's reads and writes (block-clipboard.ts). */
  clipboard: BlockClipboard;
  /** The model reads no images (profile `vision: false`): `computer.display.view()` returns the screen as text (lookups.screenText). */
  textOnly: boolean;
}

export type BlockPerformer = (action: CheckedAction, by: ApprovedBy, proposalId: string) => Promise<{ ok: boolean; text: string }>;

export interface BlockOutcome {
  ok: boolean;
  text: string;
  acted: boolean;
}

/** Output kept for the model per block (~4k tokens); the shell tool keeps 16,000 characters too. */
export const BLOCK_OUTPUT_CHARS = 16_000;
const DEFAULT_BLOCK_MS = 60_000;
/** Said after an escalated block's answer: where it ran, and that the grant is gone. */
export const ESCALATED_NOTE = '(This block ran in a fresh interpreter with the access a person granted, now ended: it did not see earlier variables, and the next block runs in the session without that access.)';


export async function runCodeCall(ctx: BlockRun, sessions: CodeSessions, call: ModelCall, hooks: BlockHooks): Promise<BlockOutcome> {
  return runBlockInput(ctx, sessions, call, call.input, hooks);
}

/** A code block as an action carries it: a `shell` action with its language. */
export type RecordedBlock = ActionOf<'shell'> & { language: CodeLanguage };

/** The action as a recorded block, or undefined for any other action (a plain shell command too). */
export function recordedBlock(action: Action): RecordedBlock | undefined {
  return action.type === 'shell' && action.language !== undefined ? { ...action, language: action.language } : undefined;
}

/**
 * A block that was recorded (a replayed step's `shell` action carrying its `language`,
 * as the run that made it logged it): run again in its language's session, exactly as
 * the model's execute call was — gated whole, its computer calls each gated, in the
 * run's sandbox. Never as a shell command: its text is Python or JavaScript.
 */
export async function runRecordedBlock(ctx: BlockRun, sessions: CodeSessions, call: ModelCall, action: RecordedBlock, hooks: BlockHooks): Promise<BlockOutcome> {
  return runBlockInput(ctx, sessions, call, recordedInput(action), hooks);
}

/** The execute input a recorded block action stands for (read by readExecuteInput like a model's: a hand-edited trajectory gets no further than a model). */
export function recordedInput(action: RecordedBlock): unknown {
  return {
    language: action.language,
    code: codeOfCommand(action.language, action.command),
    // Whole seconds, as execute takes them (a block's time is proposed as seconds × 1000).
    ...(action.timeoutMs !== undefined ? { timeout_seconds: Math.ceil(action.timeoutMs / 1000) } : {}),
    ...(action.escalate ? { escalate: action.escalate } : {}),
    ...(action.reason !== undefined ? { reason: action.reason } : {}),
  };
}

async function runBlockInput(ctx: BlockRun, sessions: CodeSessions, call: ModelCall, raw: unknown, hooks: BlockHooks): Promise<BlockOutcome> {
  // 1. read
  const input = readExecuteInput(raw);
  if (!input.ok) {
    ctx.emit({ type: 'action_invalid', step: ctx.step, callId: call.callId, raw: JSON.stringify(raw ?? null).slice(0, 2_000), error: input.error });
    return { ok: false, text: input.error, acted: false };
  }
  const { language, code, escalate, reason } = input.block;
  const timeoutMs = (input.block.timeout_seconds ?? DEFAULT_BLOCK_MS / 1000) * 1000;
  // The block is the shell action it is: its language says where it runs (the card's "runs in"), its escalation is held for a person.
  const checked = hooks.check({ type: 'shell', command: blockCommand(language, code), timeoutMs, language, ...(escalate ? { escalate } : {}), ...(reason ? { reason } : {}) });
  if (!checked.ok) {
    ctx.emit({ type: 'action_invalid', step: ctx.step, callId: call.callId, raw: code.slice(0, 2_000), error: checked.error });
    return { ok: false, text: `error: ${checked.error}`, acted: false };
  }
  let acted = false;
  let index = 0;
  // The block's proposal, once it runs (its calls come only then): each clipboard event names it.
  let blockProposal = '';
  // 4. each computer call of the block
  const onCall = async (request: ComputerCallRequest): Promise<ComputerCallReply> => {
    const plan = planCall(request);
    if (plan.kind === 'invalid') return { ok: false, error: plan.error };
    if (plan.kind === 'size') {
      // A model without vision is sent no screenshot: view() is the screen as text instead (issue 31 item 5).
      if (plan.view && hooks.textOnly) return { ok: true, value: await hooks.lookups.screenText(ctx.control.signal) };
      return { ok: true, value: { width: hooks.screen.width, height: hooks.screen.height } };
    }
    if (plan.kind === 'lookup') return { ok: true, value: await hooks.lookups.look(plan.lookup, ctx.control.signal) };
    if (plan.kind === 'clipboard') return clipboardCall(ctx, hooks, plan.op, request.line, blockProposal);
    let actions = plan.kind === 'actions' ? plan.actions : [];
    if (plan.kind === 'click_text') {
      // The point found, then the click it is: gated, asked and described as any click there.
      const found = await hooks.lookups.pointOf(plan.text, ctx.control.signal);
      if (!found.ok) return { ok: false, error: found.error };
      actions = [{ type: 'click', ...found.point, button: plan.button, clicks: plan.clicks }];
    }
    const where = request.line !== null ? `line ${request.line} of the ${language} block: ${lineOf(code, request.line)}` : `the ${language} block`;
    for (const raw of actions) {
      const action = hooks.check(raw);
      if (!action.ok) {
        ctx.emit({ type: 'action_invalid', step: ctx.step, callId: call.callId, raw: JSON.stringify(raw).slice(0, 2_000), error: action.error });
        return { ok: false, error: `computer.${request.method}: ${action.error}; nothing was done` };
      }
      index += 1;
      const result = await hooks.propose(action.action, index, { reasoning: where });
      acted ||= result.acted;
      if (!result.ok) return { ok: false, error: result.text };
    }
    return { ok: true };
  };
  // 2. gate, then 3. run as the block's executor
  const perform: BlockPerformer = async (approved, by, proposalId) => {
    const started = Date.now();
    blockProposal = proposalId;
    const runCode = approved.type === 'shell' ? codeOfCommand(language, approved.command) : code;
    // The escalation the person saw and approved: the approved action's own.
    const where = sessions.forBlock(language, approved.type === 'shell' ? approved.escalate : undefined);
    if ('refused' in where) {
      ctx.emit({ type: 'action_executed', step: ctx.step, proposalId, action: approved, by, ok: false, error: where.refused, output: where.refused, durationMs: Date.now() - started, held: ctx.input.held });
      return { ok: false, text: where.refused };
    }
    let result: BlockResult;
    try {
      result = await where.session.run(runCode, { signal: ctx.control.signal, timeoutMs, maxOutputChars: BLOCK_OUTPUT_CHARS, onCall });
    } finally {
      // An escalated block's interpreter holds its grant: ended with the block, whatever happened.
      if (where.once) await where.session.close();
    }
    acted = true;
    if (result.status === 'stopped') {
      ctx.emit({ type: 'action_executed', step: ctx.step, proposalId, action: approved, by, ok: false, error: 'stopped before it finished', durationMs: Date.now() - started, held: ctx.input.held });
      throwIfAborted(ctx.control.signal);
    }
    // 5. answer: scrubbed like every tool output (a key the code printed, a typed secret).
    const said = blockText(language, result, timeoutMs);
    const text = ctx.log.scrubText(where.once ? `${said}\n${ESCALATED_NOTE}` : said);
    const ok = result.status === 'done';
    ctx.emit({
      type: 'action_executed',
      step: ctx.step,
      proposalId,
      action: approved,
      by,
      ok,
      ...(ok ? {} : { error: result.status === 'error' ? 'the block raised an error' : statusLine(language, result, timeoutMs) }),
      output: text,
      durationMs: Date.now() - started,
      held: ctx.input.held,
    });
    return { ok, text };
  };
  const outcome = await hooks.propose(checked.action, 0, { reasoning: hooks.reasoning, perform });
  return { ok: outcome.ok, text: outcome.text, acted: acted || outcome.acted };
}

/**
 * One computer.clipboard call: done, then logged as a `clipboard` event of its own — the
 * text read or copied scrubbed as the block's output is (a copied key is masked in the
 * log as in the answer), cut to CLIPBOARD_LOG_CHARS; a failure (no xclip, not X11) is
 * logged and raised in the code with its reason.
 */
async function clipboardCall(ctx: BlockRun, hooks: BlockHooks, op: ClipboardOp, line: number | null, proposalId: string): Promise<ComputerCallReply> {
  const logged = (text: string, ok: boolean, error?: string) =>
    ctx.emit({ type: 'clipboard', step: ctx.step, proposalId, op: op.op, line, text: ctx.log.scrubText(text.slice(0, CLIPBOARD_LOG_CHARS)), chars: text.length, ok, ...(error !== undefined ? { error: ctx.log.scrubText(error) } : {}) });
  const asked = op.op === 'copy' ? op.text : '';
  let value: string | null;
  try {
    value = await hooks.clipboard(op);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    logged(asked, false, reason);
    return { ok: false, error: reason };
  }
  logged(value ?? asked, true);
  return { ok: true, value };
}

function lineOf(code: string, line: number): string {
  const text = code.split('\n')[line - 1]?.trim() ?? '';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function statusLine(language: CodeLanguage, result: BlockResult, timeoutMs: number): string {
  switch (result.status) {
    case 'done':
      return `${language} block: done`;
    case 'error':
      return `${language} block: raised an error`;
    case 'timed_out':
      return `${language} block: ran past ${Math.round(timeoutMs / 1000)} s and was ended with every process it started; the next block starts a fresh session (variables are gone)`;
    case 'crashed':
      return `${language} block: ${result.error ?? 'the interpreter ended'}; the next block starts a fresh session (variables are gone)`;
    case 'stopped':
      return `${language} block: stopped`;
  }
}

/** What the model reads of a block: status, then output, the last expression's value and the traceback. */
export function blockText(language: CodeLanguage, result: BlockResult, timeoutMs: number): string {
  const parts = [statusLine(language, result, timeoutMs)];
  if (result.restarted) parts.push(`The ${language} session was started afresh (an earlier one was ended): earlier variables and imports are gone.`);
  parts.push(result.output ? `output:\n${result.output}` : 'output: (none)');
  if (result.truncated) parts.push(`(the output was cut to ${BLOCK_OUTPUT_CHARS} characters: its middle is left out, as marked)`);
  if (result.value !== undefined) parts.push(`value: ${result.value}`);
  if (result.status === 'error' && result.error) parts.push(`error:\n${result.error}`);
  if (result.refusal) parts.push(refusalNote(result.refusal.sign, result.refusal.sandbox, 'execute'));
  return parts.join('\n');
}
