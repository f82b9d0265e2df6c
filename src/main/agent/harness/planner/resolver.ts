import type { Config } from '../../../../shared/config.js';
import type { Computer } from '../../../../os-control/types.js';
import { resolveTarget, type ReadWords } from '../../resolve/chain.js';
import { configuredGrounder } from '../../resolve/configured-grounder.js';
import type { Grounder } from '../../resolve/grounder.js';
import type { PlannerResolver } from './run-act.js';

/**
 * The planner-grounder run's resolve chain: the accessibility tree and OCR words of the
 * run's display, then config `grounderProfile`'s model (`--grounder-profile` sets it for a
 * run) and its zoomed second look. The grounder is made when the run starts, so a profile
 * name that does not exist is the start's ConfigError, not a surprise at the first click;
 * OCR is the surface's (the CLI installs tesseract.js, the desktop app ships none: then the
 * chain says so and goes on without it).
 */
export function plannerResolver(config: Config, computer: Computer, displayId: string, readWords: ReadWords | undefined): PlannerResolver {
  const grounder: Grounder | undefined = configuredGrounder(config);
  return {
    resolve: (description, signal) =>
      resolveTarget(description, { computer, displayId, ...(grounder ? { grounder } : {}), ...(readWords ? { readWords } : {}) }, signal),
  };
}
