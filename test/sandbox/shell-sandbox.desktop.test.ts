import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatShellResult, runShell } from '../../src/main/agent/tools/shell.js';
import { sandboxPolicy } from '../../src/main/sandbox/index.js';
import type { Computer } from '../../src/os-control/types.js';
import type { RunEvent } from '../../src/shared/events.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { requirePrograms } from '../harness/requirements.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { defaultConfig } from '../../src/main/config/index.js';
import { finish, tempHome, testRunOptions, until } from '../e2e/support.js';

// The shell tool as shipped, in the real bubblewrap sandbox: what the model reads after
// a refused command, a timeout that must end the sandboxed tree, a machine with no
// sandbox (never run unsandboxed instead), and a run whose model escalates under
// --policy auto with an allow rule for every shell command — the person is still asked.

requirePrograms(['bwrap', 'pgrep']);

const base = fs.mkdtempSync('/var/tmp/deskpilot-shell-sandbox-');
const workspace = path.join(base, 'ws');
const outside = path.join(base, 'outside');
fs.mkdirSync(workspace);
fs.mkdirSync(outside);
const policy = sandboxPolicy({ mode: 'workspace-write', workspace });

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const running = (pattern: string) => {
  try {
    execFileSync('pgrep', ['-f', pattern]);
    return true;
  } catch {
    return false;
  }
};

describe('runShell in the sandbox', () => {
  it('runs in the workspace and writes there; a write outside comes back marked as a possible sandbox refusal', async () => {
    const ok = await runShell('pwd; echo hi > made-here', { sandbox: policy });
    expect(ok.exitCode).toBe(0);
    expect(ok.output.trim()).toBe(workspace);
    expect(fs.readFileSync(path.join(workspace, 'made-here'), 'utf8')).toBe('hi\n');
    const refused = await runShell(`echo hi > ${outside}/nope`, { sandbox: policy });
    expect(refused.exitCode).not.toBe(0);
    expect(fs.existsSync(path.join(outside, 'nope'))).toBe(false);
    const text = formatShellResult(refused);
    expect(text).toContain(`[the sandbox may have refused this: read-only file system at ${outside}/nope. Sandbox workspace-write: writable ${workspace}`);
    expect(text).toContain('escalate: {write: [absolute paths], network: true}');
    // A failure the sandbox has nothing to do with gets no such note.
    expect(formatShellResult(await runShell('exit 3', { sandbox: policy }))).toBe('exit code 3\n(no output)');
  });

  it('a timeout ends the whole sandboxed tree, the --new-session child included', async () => {
    const marker = `dp-sb-sleep-${process.pid}-${Date.now()}`;
    const result = await runShell(`setsid bash -c 'exec -a ${marker} sleep 60' & exec -a ${marker}-parent sleep 60`, { sandbox: policy, timeoutMs: 500 });
    expect(result.timedOut).toBe(true);
    await until(() => !running(marker) || undefined, 10_000, 'the sandboxed processes to end');
    expect(running(marker)).toBe(false);
  });

  it('with no sandbox on the machine a sandboxed command is not run at all, and says why', async () => {
    const result = await runShell(`echo ran > ${workspace}/should-not-exist`, { sandbox: policy, env: { PATH: '/nonexistent', HOME: base } });
    expect(result.exitCode).toBeNull();
    expect(result.output).toBe('not run: the sandbox cannot run here: bubblewrap (bwrap) is not installed: apt-get install bubblewrap (or dnf/pacman install bubblewrap)');
    expect(fs.existsSync(path.join(workspace, 'should-not-exist'))).toBe(false);
  });
});

describe('a run: the refusal reaches the model, its escalation waits for a person under --policy auto and an allow rule', () => {
  let xvfb: Xvfb;
  let fake: FakeModelServer;
  let computer: Computer;
  const home = tempHome();

  beforeAll(async () => {
    xvfb = await startXvfb({ width: 800, height: 600 });
    process.env.DISPLAY = xvfb.display;
    fake = await startFakeModel();
    const { createComputer } = await import('../../src/os-control/index.js');
    computer = await createComputer();
  }, 60_000);

  afterAll(async () => {
    await fake?.close();
    await xvfb?.stop();
    home.cleanup();
  });

  it('runs the plain command by the rule, marks its refusal, holds the escalation for a person, then writes', async () => {
    const target = path.join(outside, 'escalated.txt');
    const toolResults: string[] = [];
    fake.script(
      { toolCalls: [{ name: 'shell', input: { command: `echo one > ${target}` } }] },
      (req) => {
        toolResults.push(req.toolResults.at(-1)?.text ?? '');
        return { toolCalls: [{ name: 'shell', input: { command: `echo two > ${target}`, escalate: { write: [outside] }, reason: 'the task writes there' } }] };
      },
      (req) => {
        toolResults.push(req.toolResults.at(-1)?.text ?? '');
        return { toolCalls: [finish(true, 'written')] };
      },
    );
    const { startRun } = await import('../../src/main/agent/runner.js');
    const events: RunEvent[] = [];
    const handle = await startRun(
      testRunOptions({
        task: 'write a file',
        profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl },
        policy: 'auto',
        config: { ...defaultConfig(), policy: { mode: 'auto', rules: [{ effect: 'allow', actions: ['shell'] }] } },
        limits: { maxSteps: 10, maxWallMs: 60_000, maxCostUsd: 5 },
        computer,
        home: home.home,
        sandbox: policy,
        onEvent: (e) => events.push(e),
      }),
    );
    const asked = await until(() => events.find((e) => e.type === 'approval_requested'), 30_000, 'the escalation to be held');
    // The first command ran unattended (allow rule) and its refusal reached the model.
    expect(toolResults[0]).toContain('[the sandbox may have refused this: read-only file system at');
    expect(fs.existsSync(target)).toBe(false);
    expect(asked).toMatchObject({ decision: { verdict: 'ask', rule: 'sandbox-escalation', humanOnly: true } });
    expect(events.filter((e) => e.type === 'action_executed')).toHaveLength(1);
    handle.answerApproval(asked.type === 'approval_requested' ? asked.proposalId : '', { decision: 'approve' }, 'tester');
    expect(await handle.done).toMatchObject({ status: 'done' });
    // The run's sandbox session (its bubblewrap binds the workspace) ended with the run.
    expect(running(`bind ${workspace} ${workspace}`)).toBe(false);
    expect(fs.readFileSync(target, 'utf8')).toBe('two\n');
    expect(toolResults[1]).toContain('exit code 0');
    expect(toolResults[1]).not.toContain('the sandbox may have refused');
    expect(events.find((e) => e.type === 'run_started')).toMatchObject({ sandbox: { mode: 'workspace-write', enforcer: 'bubblewrap', workspace, network: false, display: false } });
    // The exports state it too, in the words of the run header.
    const said = `sandbox: workspace-write by bubblewrap — writes only in ${workspace} and a private temp dir; no network; no display; workspace ${workspace}`;
    const { renderHtmlReport } = await import('../../src/main/sessions/export/html.js');
    const { renderMarkdown } = await import('../../src/main/sessions/export/markdown.js');
    const { buildRunView } = await import('../../src/main/sessions/export/timeline.js');
    expect(await renderHtmlReport(handle.dir)).toContain(`<div>Sandbox: <b>${said}</b></div>`);
    const md = renderMarkdown(buildRunView(events), { imageBase: 'x' });
    // Markdown escapes its punctuation with backslashes.
    const line = md.split('\n').find((l) => l.startsWith('| Sandbox |'));
    expect(line?.replace(/\\(.)/g, '$1'), md).toBe(`| Sandbox | ${said} |`);
  });
});
