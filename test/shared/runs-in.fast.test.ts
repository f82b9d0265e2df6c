import { describe, expect, it } from 'vitest';
import { permissionRequest } from '../../src/main/acp/permission.js';
import { approvalQuestion } from '../../src/main/cli/approval-prompt.js';
import { ActionSchema, type Action } from '../../src/shared/actions.js';
import { QUICKJS_RUNS_IN, runsIn } from '../../src/shared/runs-in.js';
import { describeSandbox, type SandboxSummary } from '../../src/shared/sandbox.js';

// Where a held command runs, by its language (issue 30 item 9): a Python block runs in
// the run's sandbox like a command; a JavaScript block runs in DeskPilot's own QuickJS,
// where no sandbox applies and nothing can type into a window — the card must not say
// "sandbox" for it, nor "no sandbox: it can type into any window". One describer
// (shared/runs-in.ts) for the card, the terminal and ACP.

const BOXED: SandboxSummary = { mode: 'workspace-write', enforcer: 'bubblewrap', workspace: '/home/me/DeskPilot', writable: [], network: false, display: false };
const WITH_DISPLAY: SandboxSummary = { ...BOXED, display: true };
const OPEN: SandboxSummary = { ...BOXED, mode: 'danger-full-access', enforcer: 'none', network: true };
const NO_ENFORCER: SandboxSummary = { ...BOXED, enforcer: 'none' };

const shell = (extra: Record<string, unknown> = {}): Action => ActionSchema.parse({ type: 'shell', command: 'print(1)', ...extra });

describe('runsIn: where a command or code block runs', () => {
  it('a command and a Python block: the run’s sandbox, guarded only when an enforcer runs it', () => {
    for (const action of [shell(), shell({ language: 'python' })]) {
      expect(runsIn(action, BOXED)).toEqual({ text: describeSandbox(BOXED), unguarded: false, display: false });
      expect(runsIn(action, WITH_DISPLAY)).toEqual({ text: describeSandbox(WITH_DISPLAY), unguarded: false, display: true });
      expect(runsIn(action, OPEN)).toEqual({ text: describeSandbox(OPEN), unguarded: true, display: false });
      expect(runsIn(action, NO_ENFORCER)).toEqual({ text: describeSandbox(NO_ENFORCER), unguarded: true, display: false });
      expect(runsIn(action, undefined)).toEqual({ text: 'no sandbox (full access)', unguarded: true, display: false });
    }
  });

  it('a JavaScript block: DeskPilot’s QuickJS whatever the run’s sandbox — never unguarded, never the display', () => {
    for (const sandbox of [BOXED, WITH_DISPLAY, OPEN, undefined]) {
      expect(runsIn(shell({ language: 'javascript' }), sandbox)).toEqual({ text: QUICKJS_RUNS_IN, unguarded: false, display: false });
    }
    expect(QUICKJS_RUNS_IN).toBe("DeskPilot's own QuickJS (in-process WASM: no files, network or programs, so no sandbox is needed; each computer call is asked on its own)");
  });

  it('nothing for an action that runs no program', () => {
    expect(runsIn(ActionSchema.parse({ type: 'click', x: 1, y: 2 }), BOXED)).toBeUndefined();
  });

  it('danger-full-access is unguarded whatever enforcer a log names', () => {
    const logged: SandboxSummary = { ...BOXED, mode: 'danger-full-access' };
    expect(runsIn(shell(), logged)).toEqual({ text: describeSandbox(logged), unguarded: true, display: false });
  });

  it('the language is the action’s own: an unknown one is refused at the edge, and past it by name', () => {
    expect(ActionSchema.safeParse({ type: 'shell', command: 'x', language: 'ruby' }).success).toBe(false);
    const forged = { type: 'shell', command: 'x', language: 'ruby' } as unknown as Action;
    expect(() => runsIn(forged, BOXED)).toThrow('unhandled code language: "ruby"');
  });

  it('the terminal’s prompt says the same', () => {
    expect(approvalQuestion({ action: shell({ language: 'javascript' }), reason: 'r', sandbox: BOXED })).toContain(`\n  runs in: ${QUICKJS_RUNS_IN}\n`);
    expect(approvalQuestion({ action: shell({ language: 'python' }), reason: 'r', sandbox: BOXED })).toContain(`\n  runs in: ${describeSandbox(BOXED)}\n`);
    expect(approvalQuestion({ action: shell(), reason: 'r' })).toContain('\n  runs in: no sandbox (full access)\n');
    expect(approvalQuestion({ action: ActionSchema.parse({ type: 'click', x: 1, y: 2 }), reason: 'r', sandbox: BOXED })).not.toContain('runs in');
  });

  it('ACP’s permission request says the same', () => {
    const texts = (action: Action, sandbox: SandboxSummary | undefined) =>
      (permissionRequest('p1', { verdict: 'ask', rule: 'risk:shell', reason: 'r', humanOnly: false }, action, sandbox).toolCall.content ?? []).map((c) =>
        c.type === 'content' && c.content.type === 'text' ? c.content.text : '',
      );
    expect(texts(shell({ language: 'javascript' }), BOXED).at(-1)).toBe(`runs in: ${QUICKJS_RUNS_IN}`);
    expect(texts(shell({ language: 'python' }), BOXED).at(-1)).toBe(`runs in: ${describeSandbox(BOXED)}`);
    expect(texts(shell(), undefined).at(-1)).toBe('runs in: no sandbox (full access)');
  });
});
