import type { RunEvent, RunEventInput } from '../../../shared/events.js';
import type { FileRunLog } from '../../sessions/run-log.js';
import { createProvider } from '../providers/index.js';
import type { RunOptions } from '../run-api.js';
import { createSupervisedGate } from '../supervision/supervised-gate.js';
import { validateAction } from '../validate-action.js';
import type { RunDeps } from '../runner.js';
import { createRunControl } from '../supervision/run-control.js';
import { createTakeoverWatch } from '../supervision/takeover-watch.js';

/** How long one model request may take before the provider's retry logic takes over. */
const MODEL_TIMEOUT_MS = 120_000;

/**
 * The real pieces of a run: the provider for the profile (key and base URL resolved
 * by the caller or from the environment), the supervised gate with the config's
 * rules, and the run's stop/pause control.
 */
export function createDefaultDeps(options: RunOptions, emit: (event: RunEventInput) => RunEvent, log: FileRunLog): RunDeps {
  const provider = createProvider(options.profile, {
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(options.profile.baseUrl ? { baseUrl: options.profile.baseUrl } : {}),
    timeoutMs: options.providerOptions?.timeoutMs ?? MODEL_TIMEOUT_MS,
    ...(options.providerOptions?.retry ? { retry: options.providerOptions.retry } : {}),
  });
  // Proposals refer to the screenshot the model saw; edits are checked against the same one.
  const records = new Map<string, RunEventOfObservation>();
  log.subscribe((event) => {
    if (event.type !== 'observation') return;
    records.set(event.observation.id, event.observation);
    if (records.size > 8) records.delete(records.keys().next().value as string);
  });
  const control = createRunControl({ emit });
  // A person moving the mouse during the run pauses it (config.takeover), and says why.
  const takeover = createTakeoverWatch({
    readPointer: () => options.computer.cursorPosition(),
    control,
    mode: options.config.takeover,
  });
  const gate = createSupervisedGate({
    mode: options.policy,
    rules: options.config.policy.rules,
    ...(options.config.policy.countdownSeconds ? { countdownSeconds: options.config.policy.countdownSeconds } : {}),
    emit,
    // Clicking Approve with the mouse is not a takeover.
    aroundHold: (wait) => takeover.whileHumanActs(wait),
    validateEdit: (action, request) => validateAction(action, request.observationId ? records.get(request.observationId) : undefined),
  });
  return {
    provider,
    gate,
    control,
    answerApproval: (proposalId, answer, by) => gate.answerApproval(proposalId, answer, by),
    answerApprovalWithReason: (proposalId, answer, by) => gate.answer(proposalId, answer, by),
    acting: (work, expectedEnd) => takeover.agentActing(work, expectedEnd),
    humanActs: (work) => takeover.whileHumanActs(work),
    start: () => takeover.start(),
    dispose: () => takeover.stop(),
  };
}

type RunEventOfObservation = Extract<RunEvent, { type: 'observation' }>['observation'];
