// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Providers } from '../../src/renderer/bridge/context.js';
import { ApprovalQueue } from '../../src/renderer/components/ApprovalQueue.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import { QUICKJS_RUNS_IN } from '../../src/shared/runs-in.js';
import { describeSandbox, type SandboxSummary } from '../../src/shared/sandbox.js';
import { EventScript, TestClient } from './fixtures.js';

// Each command's approval card in the app and serve says where the command would run
// (issue 30 item 7), in the terminal prompt's words: the run's sandbox (run_started.sandbox)
// as describeSandbox says it; that it can type into any window when it gets the display
// (item 3); and an escalation's exact extra access and reason (item 6).

afterEach(cleanup);

const BOXED: SandboxSummary = { mode: 'workspace-write', enforcer: 'bubblewrap', workspace: '/home/me/DeskPilot', writable: [], network: false, display: false };
const WITH_DISPLAY: SandboxSummary = { ...BOXED, network: true, display: true };
const OPEN: SandboxSummary = { mode: 'danger-full-access', enforcer: 'none', workspace: '/home/me/DeskPilot', writable: [], network: true, display: false };

function card(action: Record<string, unknown>, sandbox: SandboxSummary | undefined) {
  const client = new TestClient();
  const store = createAppStore(client);
  const s = new EventScript();
  const started = s.add({ type: 'run_started', task: 'tidy', provider: 'anthropic', model: 'm', policy: 'ask', limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 }, ...(sandbox ? { sandbox } : {}) });
  act(() => {
    for (const e of [started, s.observation(0), s.proposed(0, action), s.asked(0)]) store.getState().handlePush({ kind: 'event', event: e });
  });
  render(
    <Providers client={client} store={store}>
      <ApprovalQueue />
    </Providers>,
  );
}

const text = (id: string) => screen.queryByTestId(id)?.textContent ?? null;

describe('a shell command’s approval card says where it runs', () => {
  it('in the run’s sandbox, in describeSandbox’s words; no display line, no escalation line', () => {
    card({ type: 'shell', command: 'ls -la' }, BOXED);
    expect(text('command-sandbox')).toBe(`Runs in: ${describeSandbox(BOXED)}`);
    expect(screen.getByTestId('command-sandbox').className).toContain('muted');
    expect(text('command-display')).toBeNull();
    expect(text('command-escalation')).toBeNull();
  });

  it('with --sandbox-display: a line of its own says it can type into any window', () => {
    card({ type: 'shell', command: 'xdotool type hi' }, WITH_DISPLAY);
    expect(text('command-sandbox')).toBe(`Runs in: ${describeSandbox(WITH_DISPLAY)}`);
    expect(text('command-display')).toBe('This command can type into any window: it is given the X display.');
  });

  it('with no sandbox (danger-full-access, or a run logged without one): the warning colour and the display line', () => {
    card({ type: 'shell', command: 'rm -rf build' }, OPEN);
    expect(text('command-sandbox')).toBe(`Runs in: ${describeSandbox(OPEN)}`);
    expect(screen.getByTestId('command-sandbox').className).toContain('notice');
    expect(text('command-display')).toBe('This command can type into any window: it runs without a sandbox.');
    cleanup();
    card({ type: 'shell', command: 'rm -rf build' }, undefined);
    expect(text('command-sandbox')).toBe('Runs in: no sandbox (full access)');
    expect(text('command-display')).toBe('This command can type into any window: it runs without a sandbox.');
  });

  it('an escalation says exactly the extra access and the model’s reason, control characters made visible', () => {
    card({ type: 'shell', command: 'make install', escalate: { write: ['/opt/tool'], network: true }, reason: 'install\u001b needs /opt' }, BOXED);
    expect(text('command-escalation')).toBe(
      "Escalation: this time it runs OUTSIDE the sandbox's limits with write access to /opt/tool and network access — the model’s reason: install␛ needs /opt.",
    );
    cleanup();
    // An escalation that asks for nothing is no escalation.
    card({ type: 'shell', command: 'make', escalate: { write: [] } }, BOXED);
    expect(text('command-escalation')).toBeNull();
  });

  it('a code block says where its language runs: Python in the run’s sandbox, JavaScript in DeskPilot’s QuickJS — no sandbox line, no display line (issue 30 item 9)', () => {
    card({ type: 'shell', command: '# python block\nprint(1)', language: 'python' }, BOXED);
    expect(text('command-sandbox')).toBe(`Runs in: ${describeSandbox(BOXED)}`);
    cleanup();
    for (const sandbox of [BOXED, OPEN, undefined]) {
      card({ type: 'shell', command: '// javascript block\nconsole.log(1)', language: 'javascript' }, sandbox);
      expect(text('command-sandbox')).toBe(`Runs in: ${QUICKJS_RUNS_IN}`);
      expect(screen.getByTestId('command-sandbox').className).toContain('muted');
      expect(text('command-display')).toBeNull();
      cleanup();
    }
  });

  it('is not on the card of an action that is not a command', () => {
    card({ type: 'click', x: 10, y: 10 }, WITH_DISPLAY);
    expect(screen.getByTestId('proposal-description')).toBeTruthy();
    expect(text('command-sandbox')).toBeNull();
    expect(text('command-display')).toBeNull();
  });
});
