import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { escalatedPolicy, sandboxPolicy } from '../../src/main/sandbox/index.js';

// The one widening of a run's sandbox by an escalation a person approved (sandbox/escalated.ts):
// a shell command's (runner/command-sandbox.ts) and a code block's (harness/code/sessions.ts).
// Exactly the grant, as real paths; a grant that does not resolve runs nothing and says why.

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'deskpilot-escalated-')));
const workspace = path.join(base, 'ws');
const target = path.join(base, 'target');
const link = path.join(base, 'link');
fs.mkdirSync(workspace);
fs.mkdirSync(target);
fs.symlinkSync(target, link);
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const policy = sandboxPolicy({ mode: 'workspace-write', workspace });

describe('escalatedPolicy', () => {
  it('no sandbox: nothing to widen, whatever is asked', () => {
    expect(escalatedPolicy(undefined, undefined)).toEqual({});
    expect(escalatedPolicy(undefined, { network: true, write: [target] })).toEqual({});
  });

  it('an escalation that asks for nothing is the run’s own sandbox, unchanged', () => {
    for (const nothing of [undefined, {}, { write: [] }, { network: false }]) expect(escalatedPolicy(policy, nothing)).toEqual({ sandbox: policy });
  });

  it('the network, and the real paths asked for: exactly those, on top of the run’s sandbox', () => {
    expect(escalatedPolicy(policy, { network: true })).toEqual({ sandbox: { ...policy, network: true, granted: [] } });
    expect(escalatedPolicy(policy, { write: [link] })).toEqual({ sandbox: { ...policy, network: false, granted: [target] } });
    expect(escalatedPolicy(policy, { write: [target, link], network: true })).toEqual({ sandbox: { ...policy, network: true, granted: [target] } });
  });

  it('a grant that does not resolve runs nothing, and says why', () => {
    const missing = path.join(base, 'missing');
    expect(escalatedPolicy(policy, { write: [missing] })).toEqual({ refused: `not run: escalate.write: ${missing} does not exist (to create a file, name its folder)` });
    expect(escalatedPolicy(policy, { write: [target, 'relative/dir'] })).toEqual({ refused: 'not run: escalate.write: relative/dir is not an absolute path' });
    expect(escalatedPolicy(policy, { write: ['/'], network: true }).refused).toMatch(/^not run: escalate\.write \/ is the root/);
  });
});

describe('execute offers escalate only where a sandbox can refuse (harness/index.ts offeredTools)', () => {
  it('code and hybrid: a sandboxed run’s execute takes escalate and reason, an unsandboxed run’s does not; a JavaScript block cannot ask', async () => {
    const { offeredTools, runHarness } = await import('../../src/main/agent/harness/index.js');
    const { readExecuteInput } = await import('../../src/main/agent/harness/code/execute-tool.js');
    for (const name of ['code', 'hybrid'] as const) {
      const harness = runHarness({ provider: 'anthropic', model: 'm', harness: name });
      const properties = (sandboxed: boolean) => Object.keys((offeredTools(harness, { sandboxed })[0]!.parameters as { properties: object }).properties);
      expect(properties(true)).toEqual(['language', 'code', 'timeout_seconds', 'escalate', 'reason']);
      expect(properties(false)).toEqual(['language', 'code', 'timeout_seconds']);
    }
    expect(offeredTools(runHarness({ provider: 'anthropic', model: 'm', harness: 'claude-computer' }), { sandboxed: true })).toEqual([]);
    expect(readExecuteInput({ language: 'python', code: 'x', escalate: { network: true }, reason: 'r' })).toEqual({ ok: true, block: { language: 'python', code: 'x', escalate: { network: true }, reason: 'r' } });
    expect(readExecuteInput({ language: 'javascript', code: 'x', escalate: { network: true } })).toEqual({
      ok: false,
      error: 'execute was not accepted: escalate: a javascript block runs in QuickJS inside DeskPilot, with no files, network or programs to grant; use python or shell for that',
    });
    expect(readExecuteInput({ language: 'python', code: 'x', escalate: { write: '/etc' } })).toMatchObject({ ok: false });
  });
});
