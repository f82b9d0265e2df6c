import type { RunEvent, RunEventInput } from '../../../shared/events.js';
import type { FileRunLog } from '../../sessions/run-log.js';
import { createProvider } from '../providers/index.js';
import type { Provider } from '../providers/types.js';
import type { Driver } from '../driver.js';
import type { RunOptions } from '../run-api.js';
import { createRunSupervision } from '../supervision/run-supervision.js';
import type { RunDeps } from './context.js';

/**
 * The real pieces of a run: the provider for the profile (key and base URL resolved
 * by the caller or from the environment), the supervised gate with the config's
 * rules, and the run's stop/pause control.
 */
export function createDefaultDeps(options: RunOptions, emit: (event: RunEventInput) => RunEvent, _log: FileRunLog): RunDeps {
  return createSupervisedDeps(options, emit, createRunProvider(options));
}

/** The provider a run's profile names, with its key, base URL, timeouts and retries (a replay's healer is one too). */
export function createRunProvider(options: RunOptions): Provider {
  return createProvider(options.profile, {
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(options.profile.baseUrl ? { baseUrl: options.profile.baseUrl } : {}),
    // The request timeout (retries included): the caller's, else the config's, else the provider default.
    ...requestTimeout(options),
    ...(options.providerOptions?.retry ? { retry: options.providerOptions.retry } : {}),
  });
}

/**
 * The same supervision around another driver: `deskpilot mcp` (an MCP client is the
 * "model" of its session) and a replay get exactly the gate, control and takeover watch of a run.
 */
export function createSupervisedDeps(options: RunOptions, emit: (event: RunEventInput) => RunEvent, provider: Driver): RunDeps {
  // One wiring of control, takeover watch and gate: answering with the mouse is not a
  // takeover, nothing but observing runs while paused (also mid-turn), and a person
  // moving the mouse or typing pauses the run (config.takeover).
  const { gate, control, takeover } = createRunSupervision({
    mode: options.policy,
    config: options.config,
    emit,
    readPointer: () => options.computer.cursorPosition(),
  });
  return {
    provider,
    gate,
    control,
    answerApproval: (proposalId, answer, by) => gate.answerApproval(proposalId, answer, by),
    answerApprovalWithReason: (proposalId, answer, by) => gate.answer(proposalId, answer, by),
    cancelCountdown: (proposalId) => gate.cancelCountdown(proposalId),
    acting: (work, expectedEnd) => takeover.agentActing(work, expectedEnd),
    humanActs: (work) => takeover.whileHumanActs(work),
    start: () => takeover.start(),
    dispose: () => takeover.stop(),
  };
}

function requestTimeout(options: RunOptions): { requestTimeoutMs?: number; timeoutMs?: number } {
  const fromConfig = options.config.requestTimeoutSeconds !== undefined ? options.config.requestTimeoutSeconds * 1000 : undefined;
  const requestTimeoutMs = options.providerOptions?.requestTimeoutMs ?? fromConfig;
  return {
    ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
    ...(options.providerOptions?.timeoutMs !== undefined ? { timeoutMs: options.providerOptions.timeoutMs } : {}),
  };
}

