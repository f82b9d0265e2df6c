import type { Config } from '../../shared/config.js';

/**
 * The config of a run on a private virtual desktop (`deskpilot run --virtual-display`,
 * `deskpilot serve --virtual-display`, a `qa --workers` worker): that desktop is the
 * run's only screen, so the person's `displayId` means nothing there; and nobody can
 * touch it, so input seen there is the agent's own and a takeover pause would wait for a
 * person who cannot exist (at load 15 a QA worker read its own typing as a key press and
 * paused until the case timed out).
 */
export function configOnVirtualDesktop(config: Config): Config {
  const { displayId: _personsScreen, ...onVirtual } = config;
  return { ...onVirtual, takeover: 'ignore' };
}

/** The run_started label that says a session ran on a virtual desktop (its X display): History and exports show it. */
export const VIRTUAL_DISPLAY_LABEL = 'virtualDisplay';
