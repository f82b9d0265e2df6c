import type { Point } from '../../../shared/actions.js';
import type { PolicyMode } from '../../../shared/approvals.js';
import type { Config } from '../../../shared/config.js';
import type { RunEventInput } from '../../../shared/events.js';
import { createRunControl, type RunControl } from './run-control.js';
import { createSupervisedGate, type SupervisedGate } from './supervised-gate.js';
import { createTakeoverWatch, type TakeoverWatch } from './takeover-watch.js';
import type { InputActivitySource } from './x11-input-activity.js';

/**
 * The supervision of one run, wired once: the run control, the takeover watch and
 * the gate, connected so that
 *  - answering an approval with the mouse is not a takeover (aroundHold),
 *  - nothing but observing runs while the run is paused (beforeRun),
 *  - a stop ends every wait.
 * The runner then wraps each input action in `takeover.agentActing(...)` and each
 * wait for the person (ask_user) in `takeover.whileHumanActs(...)`.
 */

export interface RunSupervisionOptions {
  mode: PolicyMode;
  config: Pick<Config, 'policy' | 'takeover'> & Partial<Pick<Config, 'mcpServers'>>;
  emit: (event: RunEventInput) => void;
  /** The pointer in global desktop coordinates (computer.cursorPosition). */
  readPointer: () => Promise<Point>;
  /**
   * Also notice a person typing: 'x11' (default; off by itself where X11/xinput is
   * missing), a source, or false for the pointer check alone.
   */
  keyboard?: 'x11' | InputActivitySource | false;
  /** Stop the run when this aborts too (the CLI's Ctrl-C). */
  parentSignal?: AbortSignal;
}

export interface RunSupervision {
  gate: SupervisedGate;
  control: RunControl;
  takeover: TakeoverWatch;
}

export function createRunSupervision(options: RunSupervisionOptions): RunSupervision {
  const control = createRunControl({ emit: options.emit, ...(options.parentSignal ? { parentSignal: options.parentSignal } : {}) });
  const keyboard = options.keyboard ?? 'x11';
  const takeover = createTakeoverWatch({
    readPointer: options.readPointer,
    control,
    mode: options.config.takeover,
    ...(keyboard ? { activity: keyboard } : {}),
    // Blind takeover detection is a safety failure the person must see.
    onBlind: (message) => options.emit({ type: 'error', message, fatal: false }),
  });
  const gate = createSupervisedGate({
    mode: options.mode,
    rules: options.config.policy.rules,
    ...(options.config.policy.countdownSeconds ? { countdownSeconds: options.config.policy.countdownSeconds } : {}),
    emit: options.emit,
    aroundHold: (wait) => takeover.whileHumanActs(wait),
    beforeRun: (signal) => control.waitWhilePaused(signal),
    ...(options.config.mcpServers ? { mcpServers: options.config.mcpServers } : {}),
  });
  return { gate, control, takeover };
}
