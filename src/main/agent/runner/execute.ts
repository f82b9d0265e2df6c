import { actionCategory, actionPoints, describeAction, inputDevice, type Action, type ActionOf, type Point } from '../../../shared/actions.js';
import { mcpToolName } from '../tools/mcp-tool-name.js';
import type { ApprovedBy } from '../../../shared/approvals.js';
import { assertNever } from '../../../shared/assert-never.js';
import { checkAction, type CheckedAction } from '../../../os-control/check-action.js';
import { rememberAction } from '../supervision/input-memory.js';
import { callTool } from '../tools/agent-tool.js';
import { formatShellResult, runShell } from '../tools/shell.js';
import { commandSandbox } from './command-sandbox.js';
import type { AssistantItem, ModelCall, ToolResultItem, TranscriptImage } from '../transcript.js';
import { isAbortError, throwIfAborted } from '../../../shared/abort.js';
import type { RunContext, RunEnding, SeenObservation } from './context.js';
import { actionToGlobal, globalToImage } from '../../../os-control/coords.js';
import { observeZoom } from './observe.js';
import { pointerTargetPoint, readActionTarget } from '../action-target.js';
import type { ActionTarget } from '../../../shared/events.js';
import type { ElementTreeResult } from '../../../shared/elements.js';
import { resolveElementIds } from '../grounding/resolve-id.js';
import { elementContext } from '../grounding/element-context.js';
import { elementFactsMatter } from '../supervision/element-facts.js';
import { EXECUTE_TOOL_NAME } from '../harness/code/execute-tool.js';
import { recordedBlock, runCodeCall, runRecordedBlock, type BlockHooks, type BlockPerformer } from '../harness/code/run-block.js';
import { blockLookups } from '../harness/code/lookups.js';
import { blockClipboard } from '../harness/code/block-clipboard.js';
import { checkInSpace, recordedSpace } from '../harness/code/recorded-space.js';
import { blockOcr } from '../harness/code/block-ocr.js';
import { maskTypedSecret, noteSecretField } from './secret-field.js';
import { ACT_TOOL_NAME } from '../harness/planner/wire.js';
import { planAct } from '../harness/planner/run-act.js';
import type { ResolvedTarget } from '../../../shared/resolved-target.js';

/** What one model turn's calls came to: one result per call id, in order, and maybe the end of the run. */
export interface TurnOutcome {
  results: ToolResultItem[];
  /** Something ran that may have changed the screen (worth settling before the next look). */
  acted: boolean;
  ending?: RunEnding;
}

/** Result of one action, for the call's tool result. */
interface ActionResult {
  ok: boolean;
  text: string;
  image?: TranscriptImage;
  ending?: RunEnding;
  /** The text says nothing the model needs once the step is past (ToolResultItem.routine). */
  routine?: boolean;
}

const NOT_RUN = 'not run: an earlier action of this turn failed, was rejected, or ended the run';

/**
 * Runs the calls of one model turn in order: each action validated against the
 * screenshot the model saw, proposed, passed through the gate, executed. Stops at the
 * first failure and still answers every call id (the wire protocols require it).
 */
export async function executeTurn(ctx: RunContext, assistant: AssistantItem, seen: SeenObservation): Promise<TurnOutcome> {
  const results: ToolResultItem[] = [];
  let stopped = false;
  let acted = false;
  let ending: RunEnding | undefined;
  for (const [callIndex, call] of assistant.calls.entries()) {
    if (stopped) {
      results.push({ role: 'tool_result', callId: call.callId, name: call.name, ok: false, text: NOT_RUN });
      continue;
    }
    throwIfAborted(ctx.control.signal);
    const outcome = await executeCall(ctx, call, callIndex, seen, assistant.text);
    acted ||= outcome.acted;
    results.push({
      role: 'tool_result',
      callId: call.callId,
      name: call.name,
      ok: outcome.ok,
      text: outcome.text,
      ...(outcome.image ? { image: outcome.image } : {}),
      ...(outcome.routine ? { routine: true } : {}),
      ...(outcome.acknowledgedSafetyChecks ? { acknowledgedSafetyChecks: outcome.acknowledgedSafetyChecks } : {}),
    });
    if (outcome.ending) ending = outcome.ending;
    if (!outcome.ok || outcome.ending) stopped = true;
  }
  return { results, acted, ...(ending ? { ending } : {}) };
}

async function executeCall(
  ctx: RunContext,
  call: ModelCall,
  callIndex: number,
  seen: SeenObservation,
  reasoning: string,
): Promise<ActionResult & { acted: boolean; acknowledgedSafetyChecks?: ModelCall['safetyChecks'] }> {
  if (call.name === EXECUTE_TOOL_NAME && offersExecute(ctx)) {
    // The code harness's block: gated whole, then each computer call in it as the action it is (harness/code/run-block.ts).
    return runCodeCall(ctx, ctx.code, call, blockHooks(ctx, call, seen, reasoning, (index) => `${ctx.step}.${callIndex}.${index}`));
  }
  // The planner-grounder harness's act: its target words resolved to points, then the actions they make take the path below.
  let targets: ReadonlyArray<ResolvedTarget | undefined> = [];
  if (ctx.planner && call.name === ACT_TOOL_NAME) {
    const planned = await planAct(ctx.planner, call.input, seen.record, ctx.control.signal);
    if (!planned.ok) {
      ctx.emit({ type: 'action_invalid', step: ctx.step, callId: call.callId, raw: rawText(call.input), error: planned.text });
      if (planned.outage) pauseForOutage(ctx, planned.outage);
      return { ok: false, text: planned.text, acted: false };
    }
    call = { ...call, actions: planned.actions.map((action) => ({ ok: true as const, action })) };
    targets = planned.targets;
  }
  const tool = ctx.planner && call.name === ACT_TOOL_NAME ? undefined : ctx.tools.find(call.name);
  if (tool?.asAction) {
    // A tool call that is an action: it takes the action path below (checked, gated, performed).
    const parsed = tool.input.safeParse(call.input);
    const issue = parsed.success ? undefined : parsed.error.issues[0];
    call = {
      ...call,
      actions: [parsed.success ? { ok: true, action: tool.asAction(parsed.data) } : { ok: false, error: `${tool.name} was not accepted: ${issue?.path.join('.') || 'input'}: ${issue?.message ?? 'invalid'}` }],
    };
  } else if (tool) {
    const answer = await callTool(tool, { runId: ctx.runId, step: ctx.step, signal: ctx.control.signal, latestObservationId: seen.record.id, call });
    return { ok: answer.ok, text: answer.text, acted: false, ...(answer.endRun ? { ending: answer.endRun } : {}) };
  }
  if (call.actions.length === 0) {
    const error = `unknown tool ${JSON.stringify(call.name)}: nothing was done`;
    ctx.emit({ type: 'action_invalid', step: ctx.step, callId: call.callId, raw: rawText(call.input), error });
    return { ok: false, text: error, acted: false };
  }
  const texts: string[] = [];
  let image: TranscriptImage | undefined;
  let acted = false;
  let routine = true;
  for (const [actionIndex, entry] of call.actions.entries()) {
    // An element id becomes the element it named in the list the model was sent (before the check: the point is checked too).
    const resolved = entry.ok ? resolveElementIds(entry.action, seen.grounding, call) : { ok: false as const, error: entry.error };
    const checked = resolved.ok ? checkAction(resolved.action, seen.record) : resolved;
    if (!checked.ok) {
      ctx.emit({ type: 'action_invalid', step: ctx.step, callId: call.callId, raw: rawText(entry.ok ? entry.action : call.input), error: checked.error });
      texts.push(`error: ${checked.error}`);
      return { ok: false, text: texts.join('\n'), acted };
    }
    const proposalId = `${ctx.step}.${callIndex}.${actionIndex}`;
    // A recorded code block (a replayed step) runs in its language's session as the model's block did, never as a shell command.
    const block = recordedBlock(checked.action);
    const result: ActionResult & { acted: boolean } = block
      ? await runRecordedBlock(ctx, ctx.code, call, block, blockHooks(ctx, call, seen, reasoning, (index) => (index === 0 ? proposalId : `${proposalId}.${index}`), call.blockSpace))
      : await proposeAndRun(ctx, call, proposalId, checked.action, seen, reasoning, undefined, targets[actionIndex]);
    acted ||= result.acted;
    routine &&= result.routine === true;
    texts.push(result.text);
    if (result.image) image = result.image;
    if (!result.ok || result.ending) {
      return { ok: result.ok, text: texts.join('\n'), acted, ...(image ? { image } : {}), ...(result.ending ? { ending: result.ending } : {}) };
    }
  }
  return {
    ok: true,
    text: texts.join('\n'),
    acted,
    ...(image ? { image } : {}),
    ...(routine ? { routine: true } : {}),
    // The gate only lets a call with safety checks through after a person acknowledged them.
    ...(call.safetyChecks?.length ? { acknowledgedSafetyChecks: call.safetyChecks } : {}),
  };
}

/** A grounding model that is down: said in the log, and the run pauses as for a planner outage (loop.ts modelTurn); the step's result tells the planner after the resume. */
function pauseForOutage(ctx: RunContext, reason: string): void {
  ctx.emit({ type: 'error', message: reason, fatal: false });
  ctx.control.pause(reason);
}

/** Execute is the model's to call only where the harness offered it (code, hybrid): a GUI run's model naming it runs nothing. */
function offersExecute(ctx: RunContext): boolean {
  return ctx.tools.specs.some((spec) => spec.name === EXECUTE_TOOL_NAME);
}

/**
 * What a block borrows of the runner (run-block.ts BlockHooks): this call's proposal path,
 * named by `idOf(index)`, and the screenshot the model saw — for a replayed block, that
 * screenshot at the recorded size (`recorded`: harness/code/recorded-space.ts).
 */
function blockHooks(ctx: RunContext, call: ModelCall, seen: SeenObservation, reasoning: string, idOf: (index: number) => string, recorded?: { width: number; height: number }): BlockHooks {
  const space = recordedSpace(seen.record, recorded);
  return {
    propose: (action, index, options) => proposeAndRun(ctx, call, idOf(index), action, seen, options.reasoning ?? reasoning, options.perform),
    check: (action) => checkInSpace(action, space, seen.record),
    screen: space.image,
    lookups: blockLookups(ctx.computer, space, blockOcr()),
    reasoning,
    textOnly: ctx.options.profile.vision === false,
    clipboard: blockClipboard(),
  };
}

async function proposeAndRun(
  ctx: RunContext,
  call: ModelCall,
  proposalId: string,
  proposed: CheckedAction,
  seen: SeenObservation,
  reasoning: string,
  /** What runs once the gate lets the action through, instead of the executor (a code block: harness/code/run-block.ts). */
  performWith?: BlockPerformer,
  /** The planner's words this action's point was resolved from (harness/planner): shown with the proposal. */
  resolved?: ResolvedTarget,
): Promise<ActionResult & { acted: boolean }> {
  // One read of the focused window's tree serves the typed text's check, the target, the
  // gate (treeForGate) and the field a secret goes into (noteSecretField), ~76–250 ms each;
  // before any action of this turn has run it is the step's own read, beside its screenshot.
  let treeRead: Promise<ElementTreeResult> | undefined;
  // Taken now, at the proposal: once the action runs, its turn has acted (touched below).
  const stepTree = stepTreeIfUntouched(seen);
  const treeNow = () => (treeRead ??= stepTree ?? ctx.computer.elementTree({ scope: 'focused' }));
  // One read of the active window serves the typed text's check and the gate's window rules.
  let windowRead: ReturnType<RunContext['computer']['activeWindow']> | undefined;
  const windowNow = () => (windowRead ??= ctx.computer.activeWindow());
  // Typed into a password field: masked from its proposal on (secret-field.ts).
  await maskTypedSecret(ctx, proposed, { focusedTree: treeNow, activeWindow: windowNow, freshTree: () => (treeRead = ctx.computer.elementTree({ scope: 'focused' })) });
  ctx.emit({
    type: 'action_proposed',
    step: ctx.step,
    proposalId,
    action: proposed,
    observationId: seen.record.id,
    reasoning,
    callId: call.callId,
    ...(resolved ? { resolved } : {}),
  });
  // What a pointer action lands on is read while the gate decides (action-target.ts).
  const targetPoint = ctx.options.readTargets === false ? undefined : pointerTargetPoint(proposed);
  const globalPoint = targetPoint ? pointerTargetPoint(actionToGlobal(proposed, seen.record)) : undefined;
  // Never rejects (a failed read is no target), so an action the gate refuses leaves nothing unhandled.
  const target = globalPoint ? readActionTarget(treeNow, globalPoint) : undefined;
  // A pause (the person, a takeover) holds the next action even within one turn.
  if (ctx.control.paused) await ctx.control.waitWhilePaused(ctx.control.signal);
  const category = actionCategory(proposed);
  if (category === 'finish' && proposed.type === 'finish') {
    return {
      ok: true,
      acted: false,
      text: 'finished',
      ending: { status: proposed.success ? 'done' : 'failed', summary: proposed.summary },
    };
  }
  if (category === 'ask_user' && proposed.type === 'ask_user') {
    return { ...(await askUser(ctx, proposalId, proposed.question)), acted: false };
  }

  // The risk rules look at where the keys would land (a terminal?), not at what the model
  // claims. Asking the OS costs ~150 ms (xprop), so only when a rule can use the answer.
  const focused = needsActiveWindow(ctx, proposed) ? await windowNow() : undefined;
  // Element facts cost a tree read in a pixels run: now when a rule can use them, else only if a person is asked.
  const readElements = async () => elementContext(proposed, await treeForGate(ctx, proposed, seen, treeNow), seen.record);
  const elementsNow = seen.grounding !== undefined || elementFactsMatter(proposed, ctx.options.config.policy.rules);
  const outcome = await ctx.gate.submit(
    {
      proposalId,
      action: proposed,
      observationId: seen.record.id,
      space: { image: seen.record.image },
      context: {
        step: ctx.step,
        reasoning,
        // What earlier actions left held, and the line typed so far: the rules judge the action with them.
        held: ctx.input.held,
        typedLine: ctx.input.line,
        ...(focused ? { activeWindow: { title: focused.title, app: focused.instance ? `${focused.app} ${focused.instance}` : focused.app } } : {}),
        ...(elementsNow ? await readElements() : {}),
        ...(call.safetyChecks?.length ? { safetyChecks: call.safetyChecks } : {}),
      },
      ...(elementsNow ? {} : { readElements }),
    },
    ctx.control.signal,
  );
  if (outcome.kind === 'reject') {
    const feedback = outcome.feedback?.trim();
    return {
      ok: false,
      acted: false,
      text: `The person rejected this action (${describeAction(proposed)}); it was not run.${feedback ? ` Their feedback: ${feedback}` : ''}`,
    };
  }
  if (outcome.kind === 'deny') {
    return { ok: false, acted: false, text: `Refused by policy (${outcome.decision.rule}): ${outcome.decision.reason}. The action was not run.` };
  }
  // From here on the step's tree may be stale: this action (a click, a key, a block) can move the focus.
  if (actionCategory(outcome.action) !== 'observe') touched.add(seen);
  // A person who took time to decide may have moved the focus meanwhile: the field is read again then.
  const fieldTree = outcome.by.kind === 'person' ? () => ctx.computer.elementTree({ scope: 'focused' }) : treeNow;
  // The gate hands out only checked actions: a person's edit passed the same checkAction as model output.
  // An edit that moved the point acts elsewhere: the target read for the proposal is not its target.
  if (performWith) return { ...(await performWith(outcome.action, outcome.by, proposalId)), acted: true };
  const samePoint = JSON.stringify(pointerTargetPoint(outcome.action)) === JSON.stringify(targetPoint);
  const landed = target && samePoint ? await target : undefined;
  return { ...(await perform(ctx, proposalId, outcome.action, outcome.by, seen, fieldTree, landed)), acted: actionCategory(outcome.action) !== 'observe' };
}

/** Observations some action of their turn has acted on since they were taken (their tree may no longer say where the focus is). */
const touched = new WeakSet<SeenObservation>();

/**
 * The step's tree, read beside its screenshot after the screen settled, while no action of
 * the turn has acted since: the focus it shows is the focus now (a click or key of the
 * turn, or a block, is what moves it; 44d4dba). A pixels step has none of its own (undefined).
 */
function stepTreeIfUntouched(seen: SeenObservation): Promise<ElementTreeResult> | undefined {
  const tree = seen.grounding?.tree;
  return tree && !touched.has(seen) ? Promise.resolve(tree) : undefined;
}

/**
 * The kinds the runner performs itself (a command, a tool call, a look, the model's own
 * questions and ending); every other kind is the computer's (os-control/actions.ts is its
 * executor), so a new input kind needs no case here.
 */
const RUNNER_PERFORMS = ['shell', 'screenshot', 'zoom', 'cursor_position', 'mcp_call', 'ask_user', 'finish'] as const;
type RunnerPerformed = ActionOf<(typeof RUNNER_PERFORMS)[number]>;

function performedByRunner<A extends Action>(action: A): action is A & RunnerPerformed {
  return (RUNNER_PERFORMS as readonly string[]).includes(action.type);
}

async function perform(ctx: RunContext, proposalId: string, action: CheckedAction, by: ApprovedBy, seen: SeenObservation, focusedTree: () => Promise<ElementTreeResult>, target?: ActionTarget): Promise<ActionResult> {
  const started = Date.now();
  const desktop = actionToGlobal(action, seen.record);
  let output: string | undefined;
  let image: TranscriptImage | undefined;
  let error: string | undefined;
  try {
    if (!performedByRunner(desktop)) {
      await noteSecretField(ctx, desktop, focusedTree);
      const result = await ctx.acting(() => ctx.computer.perform(desktop, ctx.control.signal), pointerAfter(desktop));
      output = result.output;
    } else switch (desktop.type) {
      case 'shell': {
        const timeoutMs = desktop.timeoutMs ?? 60_000;
        const { sandbox, refused } = commandSandbox(ctx.options, desktop);
        if (refused) {
          output = refused;
          error = refused;
          break;
        }
        const result = await runShell(desktop.command, { timeoutMs, signal: ctx.control.signal, ...(sandbox ? { sandbox } : {}), ...(ctx.commands ? { session: ctx.commands } : {}) });
        throwIfAborted(ctx.control.signal);
        output = formatShellResult(result, timeoutMs);
        if (result.exitCode !== 0) error = result.timedOut ? 'timed out' : `exit code ${result.exitCode}`;
        break;
      }
      case 'screenshot':
        output = 'A fresh screenshot follows.';
        break;
      case 'zoom':
        image = await observeZoom(ctx, desktop.region);
        output = `Zoomed view of (${fmt(action.type === 'zoom' ? action.region.x : 0)}, ${fmt(action.type === 'zoom' ? action.region.y : 0)}) at full resolution; keep giving coordinates in the full screenshot's pixels.`;
        break;
      case 'cursor_position': {
        const p = globalToImage(await ctx.computer.cursorPosition(), seen.record);
        output = p ? `The cursor is at (${fmt(p.x)}, ${fmt(p.y)}) in screenshot pixels.` : 'The cursor is outside the screenshot.';
        break;
      }
      case 'mcp_call': {
        const answer = await performToolAction(ctx, desktop);
        // The tool's own words go back either way: its result, or its error.
        if (answer.ok) output = answer.text;
        else error = answer.text;
        break;
      }
      case 'ask_user':
      case 'finish':
        throw new Error(`${desktop.type} is handled before the gate, not performed`);
      default:
        assertNever(desktop, 'action kind');
    }
  } catch (cause) {
    if (isAbortError(cause) || ctx.control.signal.aborted) {
      // os-control released every key and button when the action was cut short.
      ctx.input = rememberAction(ctx.input, desktop, false);
      // The audit log says the action was cut short (typing stopped midway, …).
      ctx.emit({ type: 'action_executed', step: ctx.step, proposalId, action: desktop, by, ok: false, error: 'stopped before it finished', durationMs: Date.now() - started, held: ctx.input.held });
      throw cause;
    }
    error = cause instanceof Error ? cause.message : String(cause);
  }
  // A failed input action released everything it and earlier actions held (os-control's contract).
  if (desktop.type !== 'shell') ctx.input = rememberAction(ctx.input, desktop, error === undefined, target);
  // Tool output goes to the model, the log and every client: scrubbed like the log (a
  // command that prints an environment key, a file with a password).
  if (output !== undefined) output = ctx.log.scrubText(output);
  if (error !== undefined) error = ctx.log.scrubText(error);
  const ok = error === undefined || desktop.type === 'shell';
  ctx.emit({
    type: 'action_executed',
    step: ctx.step,
    proposalId,
    action: desktop,
    by,
    ok: error === undefined,
    ...(error !== undefined ? { error } : {}),
    ...(output !== undefined ? { output } : {}),
    durationMs: Date.now() - started,
    held: ctx.input.held,
    ...(target ? { target } : {}),
  });
  // A shell command that exits non-zero still ran: the model reads its output and decides.
  const text = error !== undefined && desktop.type !== 'shell' ? `error: ${describeAction(action)} failed: ${error}` : `${describeAction(action)}: done${output ? `\n${output}` : ''}`;
  // A GUI action that ran says nothing its screenshot does not show; shell output, the
  // cursor position and errors stay in the conversation.
  const routine =
    error === undefined && desktop.type !== 'shell' && desktop.type !== 'cursor_position' && (output === undefined || desktop.type === 'screenshot' || desktop.type === 'zoom');
  return { ok, text, ...(image ? { image } : {}), ...(routine ? { routine: true } : {}) };
}

/** Runs a gated tool action through the run's tool that offers it (an MCP server's tool), with the arguments let through. */
async function performToolAction(ctx: RunContext, action: ActionOf<'mcp_call'>): Promise<{ ok: boolean; text: string }> {
  const name = mcpToolName(action.server, action.tool);
  const tool = name === undefined ? undefined : ctx.tools.find(name);
  const offered = tool?.asAction?.(action.arguments);
  if (!tool || offered?.type !== 'mcp_call' || offered.server !== action.server || offered.tool !== action.tool) {
    throw new Error(`no tool ${action.tool} of the MCP server ${action.server} is offered in this run`);
  }
  const call: ModelCall = { callId: `${action.server}.${action.tool}`, name: tool.name, input: action.arguments, actions: [] };
  return callTool(tool, { runId: ctx.runId, step: ctx.step, signal: ctx.control.signal, call });
}

async function askUser(ctx: RunContext, proposalId: string, question: string): Promise<ActionResult> {
  const questionId = `q${proposalId}`;
  ctx.emit({ type: 'question_asked', questionId, question });
  ctx.emit({ type: 'state', state: 'waiting_user', reason: question });
  const answer = await ctx.humanActs(() => ctx.questions.ask(questionId, ctx.control.signal));
  ctx.emit({ type: 'question_answered', questionId, answer: answer.text, by: answer.by });
  ctx.emit({ type: 'state', state: 'running', reason: '' });
  return { ok: true, text: `The person answered: ${answer.text}` };
}

/**
 * The tree the gate names elements from: the step's (read with the screenshot), or —
 * with grounding `pixels`, where no tree is read for the model — read once in the step,
 * for the first input action a rule judges by its element or a person is asked about,
 * so element rules, the password rule and the approval card still see elements. A read
 * that fails leaves the gate without elements: a rule naming an element then does not
 * match (user-rules.ts), as without a tree.
 */
export async function treeForGate(ctx: RunContext, action: Action, seen: SeenObservation, treeNow: () => Promise<ElementTreeResult>): Promise<SeenObservation['grounding']> {
  if (seen.grounding || ctx.grounding !== 'pixels' || actionCategory(action) !== 'input') return seen.grounding;
  try {
    const tree = await treeNow();
    seen.grounding = tree.kind === 'tree' ? { tree } : {};
  } catch (error) {
    ctx.emit({ type: 'error', message: `the gate could not read the accessibility tree: ${error instanceof Error ? error.message : String(error)}`, fatal: false });
    seen.grounding = {};
  }
  return seen.grounding;
}

/** Keyboard input (terminal rules) or any input when a user rule matches on the window. */
function needsActiveWindow(ctx: RunContext, action: Action): boolean {
  if (actionCategory(action) !== 'input') return false;
  if (action.type === 'type' || action.type === 'key' || action.type === 'hold_key' || action.type === 'key_down') return true;
  // Setting a value is typing without the keyboard: the same terminal and window rules apply.
  if (action.type === 'element' && action.op === 'set_value') return true;
  // In `ask` every input action is shown to a person, who is told which window it lands in.
  if (ctx.options.policy === 'ask') return true;
  return ctx.options.config.policy.rules.some((rule) => rule.windowPattern !== undefined);
}

/** Where an input action leaves the pointer (global coordinates); undefined for keyboard actions. */
function pointerAfter(action: Action): Point | undefined {
  // Only what goes through the pointer moves it (an element's focus, set_value and invoke act
  // through the accessibility bus; a zoom's corners are a region, not a place the pointer goes).
  if (inputDevice(action) !== 'pointer') return undefined;
  return actionPoints(action).at(-1);
}

function fmt(n: number): string {
  return String(Math.round(n));
}

/** What the model sent, as bounded text for the log (hostile input can be megabytes). */
function rawText(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 2_000 ? `${text.slice(0, 2_000)}… (${text.length} characters)` : text;
}
