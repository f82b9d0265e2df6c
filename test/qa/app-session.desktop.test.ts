/**
 * A case's app is stopped as a whole before the next case starts: every process its
 * launch command started, also a background one and one that shrugs off SIGTERM
 * (app-session.ts stop). A leftover single-instance app (mousepad) once took over the
 * next case's launch and vanished mid-case.
 */
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchApp } from '../../src/main/qa/app-session.js';
import { requirePrograms } from '../harness/requirements.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

let xvfb: Xvfb;
beforeAll(async () => {
  requirePrograms(['xterm', 'xdotool', 'xwininfo']);
  xvfb = await startXvfb({ width: 640, height: 480 });
}, 60_000);
afterAll(async () => {
  await xvfb?.stop();
});

/** The state letter of a process (R, S, Z …), or undefined once it is gone. */
function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

it('stop() ends the whole launch group: the window app, a background process, and one that ignores SIGTERM', async () => {
  const pidFile = `/tmp/deskpilot-app-session-${process.pid}`;
  const app = await launchApp(
    {
      // A background sleeper that ignores SIGTERM (it needs the SIGKILL that follows), a plain background sleeper, then the app.
      launch: `(trap '' TERM; exec sleep 300) & echo $! > ${pidFile}.a; sleep 300 & echo $! > ${pidFile}.b; exec xterm -title deskpilot-app-session`,
      window: 'deskpilot-app-session',
      regions: {},
      startTimeoutMs: 30_000,
      reset: 'restart',
    },
    { env: { ...process.env, ...xvfb.env } },
  );
  const stubborn = Number(readFileSync(`${pidFile}.a`, 'utf8'));
  const background = Number(readFileSync(`${pidFile}.b`, 'utf8'));
  expect(stateOf(stubborn)).toBeDefined();
  expect(stateOf(background)).toBeDefined();
  await app.stop();
  // Gone, or at most a zombie left for its new parent to reap: nothing runs any more.
  for (const pid of [app.pid, stubborn, background]) expect(['Z', 'X', undefined]).toContain(stateOf(pid));
  expect(app.alive()).toBe(false);
  for (const f of ['a', 'b']) rmSync(`${pidFile}.${f}`, { force: true });
}, 60_000);
