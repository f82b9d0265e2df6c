import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runShell } from '../../src/main/agent/tools/shell.js';
import { JsSession } from '../../src/main/agent/harness/code/js-session.js';
import { PythonSession, ShellSession, type BlockOptions, type CodeSession } from '../../src/main/agent/harness/code/session.js';
import { RunSandbox, sandboxPolicy } from '../../src/main/sandbox/index.js';
import { requirePrograms } from '../harness/requirements.js';

// Every place that cuts a command's or a block's output to a budget (tools/output-budget.ts):
// the note the model reads counts every character left out. Each path is the real one — bash
// unsandboxed, in a one-off bubblewrap and in a run's sandbox session; the bash and Python
// sessions in bubblewrap; the JavaScript session's QuickJS worker — and each floods 588,895
// characters at a 2,000 budget, so the output is cut many times while it streams in. Before
// the one budget, runShell's own paths and the worker's print each wrote a note on a partial
// cut and the last note counted only the last cut ("[... 4032 characters cut ...]" or so).

requirePrograms(['bwrap', 'python3']);

const workspace = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-cut-count-'));
const policy = sandboxPolicy({ mode: 'workspace-write', workspace });
const closing: Array<{ close(): Promise<unknown> }> = [];
afterAll(async () => {
  await Promise.all(closing.map((c) => c.close()));
  rmSync(workspace, { recursive: true, force: true });
});

const BUDGET = 2_000;
/** What `seq 1 100000` really prints, from the real seq: 588,895 characters. */
const whole = execFileSync('seq', ['1', '100000'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
/** The one right answer at BUDGET: the first and last 1,000 characters, and the count of all the rest. */
const expected = `${whole.slice(0, BUDGET / 2)}\n[... ${whole.length - BUDGET} characters cut ...]\n${whole.slice(-BUDGET / 2)}`;

/** The number in the note, to say a wrong count plainly when the whole text differs. */
const noted = (text: string) => Number(/\[\.\.\. (\d+) characters cut \.\.\.\]/.exec(text)?.[1]);

describe('the shell tool: the cut note counts every character cut', () => {
  it('unsandboxed (its own process group)', async () => {
    const result = await runShell('seq 1 100000', { maxOutputChars: BUDGET });
    expect(result).toMatchObject({ exitCode: 0, truncated: true });
    expect(noted(result.output)).toBe(586_895);
    expect(result.output).toBe(expected);
  }, 60_000);

  it('in a one-off bubblewrap (no run session covers its policy)', async () => {
    const result = await runShell('seq 1 100000', { maxOutputChars: BUDGET, sandbox: policy });
    expect(result).toMatchObject({ exitCode: 0, truncated: true });
    expect(noted(result.output)).toBe(586_895);
    expect(result.output).toBe(expected);
  }, 60_000);

  it("in the run's sandbox session (cut inside the sandbox first, by its supervisor)", async () => {
    const run = new RunSandbox(policy);
    closing.push(run);
    const result = await runShell('seq 1 100000', { maxOutputChars: BUDGET, sandbox: policy, session: run });
    expect(result).toMatchObject({ exitCode: 0, truncated: true });
    expect(result.output).toBe(expected);
  }, 60_000);
});

describe("the code harness's sessions: the cut note counts every character cut", () => {
  const options: BlockOptions = {
    signal: new AbortController().signal,
    timeoutMs: 120_000,
    maxOutputChars: BUDGET,
    onCall: async (call) => {
      throw new Error(`no computer call expected: ${call.method}`);
    },
  };
  const cases: Array<[string, () => CodeSession, string]> = [
    ['bash, in bubblewrap', () => new ShellSession({ cwd: workspace, sandbox: policy }), 'seq 1 100000'],
    ['Python, in bubblewrap', () => new PythonSession({ cwd: workspace, sandbox: policy }), 'for i in range(1, 100001):\n    print(i)'],
    ["JavaScript, in QuickJS's worker", () => new JsSession(), 'for (let i = 1; i <= 100000; i++) print(i)'],
  ];
  for (const [name, make, code] of cases) {
    it(name, async () => {
      const session = make();
      closing.push(session);
      const result = await session.run(code, options);
      expect(result).toMatchObject({ status: 'done', truncated: true });
      expect(noted(result.output)).toBe(586_895);
      expect(result.output).toBe(expected);
    }, 120_000);
  }
});
