import type { Action } from './actions.js';
import { assertNever } from './assert-never.js';
import { describeSandbox, type SandboxSummary } from './sandbox.js';

/**
 * Where a held command would run, as every approval surface says it (the app and serve
 * card's CommandSandbox, the terminal's prompt, ACP's permission request; issue 30 items
 * 3, 7 and 9). One answer per kind of command, by the action's `language`:
 *   - a shell command, a Python block and a shell block (the code harness's python3
 *     and bash sessions, started under the run's sandbox like a command): the run's sandbox in describeSandbox's
 *     sentence, or "no sandbox (full access)" for a run logged without one;
 *   - a JavaScript block: DeskPilot's own QuickJS — WASM inside DeskPilot with no file,
 *     network or process bindings, so the sandbox does not apply and it cannot type into a
 *     window; its only reach is `computer.*`, each call asked on its own.
 * `unguarded`: nothing limits what it can do (the warning colour, and a line saying it can
 * type into any window); `display`: it is given the X display (`--sandbox-display`).
 * Undefined for an action that runs no program.
 */
export interface RunsIn {
  text: string;
  unguarded: boolean;
  display: boolean;
}

export const QUICKJS_RUNS_IN = "DeskPilot's own QuickJS (in-process WASM: no files, network or programs, so no sandbox is needed; each computer call is asked on its own)";

export function runsIn(action: Action, sandbox: SandboxSummary | undefined): RunsIn | undefined {
  if (action.type !== 'shell') return undefined;
  const language = action.language;
  switch (language) {
    case 'javascript':
      return { text: QUICKJS_RUNS_IN, unguarded: false, display: false };
    case undefined:
    case 'python':
    case 'shell': {
      const unguarded = !sandbox || sandbox.mode === 'danger-full-access' || sandbox.enforcer === 'none';
      return { text: sandbox ? describeSandbox(sandbox) : 'no sandbox (full access)', unguarded, display: !unguarded && sandbox.display };
    }
    default:
      return assertNever(language, 'code language');
  }
}
