import type { DoctorCheck } from './types.js';

/**
 * 7. Parallel QA (`deskpilot qa --workers`, docs/QA-AT-SCALE.md). Warn only: without
 * these the cases run one after another on the current display. Xvfb is each worker's
 * display, openbox places and focuses its windows, dbus-daemon gives it a private
 * session bus, xprop tells when the window manager is up.
 */
const PARTS = [
  { command: 'Xvfb', pkg: 'xvfb', why: 'the virtual displays' },
  { command: 'openbox', pkg: 'openbox', why: 'window placement and focus on them' },
  { command: 'dbus-daemon', pkg: 'dbus-x11', why: 'a private session bus per worker' },
  { command: 'xprop', pkg: 'x11-utils', why: 'waiting for the window manager' },
] as const;

export const virtualDisplaysCheck: DoctorCheck = {
  id: 'qa-workers',
  required: false,
  async run(p) {
    if (p.platform !== 'linux') return { id: 'qa-workers', status: 'skip', detail: 'qa --workers needs Linux with Xvfb; cases run one after another here' };
    const missing = [];
    for (const part of PARTS) if (!(await p.which(part.command))) missing.push(part);
    if (missing.length === 0) return { id: 'qa-workers', status: 'ok', detail: 'Xvfb, openbox and dbus-daemon: qa --workers can start virtual displays' };
    return {
      id: 'qa-workers',
      status: 'warn',
      detail: `qa --workers ${missing.some((m) => m.command === 'Xvfb') ? 'falls back to one worker on this display' : 'works less well'}: ${missing.map((m) => `${m.command} not found (${m.why})`).join(', ')}`,
      fix: `sudo apt-get install ${[...new Set(missing.map((m) => m.pkg))].join(' ')}`,
    };
  },
};
