import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { AgentProcess } from '../../../src/main/eval/run/agent-process.js';
import { decideStatus } from '../../../src/main/eval/run/status.js';
import { PROVIDER_SAFETY_RULE, SANDBOX_ESCALATION_RULE } from '../../../src/shared/rule-ids.js';
import { EVENT_SCHEMA_VERSION } from '../../../src/shared/events.js';

// Issue 32: "A task whose run asks the person anything (ask_user, an escalation, a provider
// safety check) ends as `needed a person`, never hangs." eval-cli.e2e shows ask_user through a
// real model run; here the other two, as `deskpilot run --json` prints them, from a real child
// process whose stdout carries those event lines (with a stray non-event line between).

function agentPrinting(events: object[]): AgentProcess {
  const lines = ['deskpilot: a library wrote this', ...events.map((e) => JSON.stringify(e))].join('\n');
  const child = spawn(process.execPath, ['-e', `process.stdout.write(${JSON.stringify(`${lines}\n`)})`], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new AgentProcess(child);
}

const at = (seq: number) => ({ v: EVENT_SCHEMA_VERSION, runId: 'r1', seq, at: 1_764_000_000_000 + seq });
const held = (rule: string, reason: string) =>
  ({ ...at(1), type: 'approval_requested', proposalId: '0.0.0', decision: { verdict: 'ask', rule, reason, humanOnly: true } });
const stopped = { ...at(2), type: 'run_ended', status: 'stopped', summary: 'stdin closed: nobody to answer', steps: 1, total: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.001 } };

describe("a run that waits for a person's approval", () => {
  it.each([
    [PROVIDER_SAFETY_RULE, "the provider's safety check: the page asks to enter a password"],
    [SANDBOX_ESCALATION_RULE, 'the command asks for network access outside the sandbox'],
  ])('%s: the outcome says a person was needed, and the task ends as "needed a person" whatever the checker would say', async (rule, reason) => {
    const outcome = await agentPrinting([held(rule, reason), stopped]).exited;
    expect(outcome.askedPerson).toBe(`an action waited for a person's approval (${reason})`);
    expect(outcome.exitCode).toBe(0);
    const decided = decideStatus({ agent: outcome, check: { score: 1 } });
    expect(decided).toMatchObject({ status: 'needed a person', failure: 'person' });
    expect(decided.reason).toBe(`an action waited for a person's approval (${reason}); an eval run has no one to ask, so it ended there`);
  });

  it('a run that asked nothing is judged by its checker', async () => {
    const outcome = await agentPrinting([{ ...stopped, status: 'done', summary: 'done' }]).exited;
    expect(outcome.askedPerson).toBeUndefined();
    expect(decideStatus({ agent: outcome, check: { score: 1 } }).status).toBe('passed');
  });
});

describe('the outcome is read to the end of the output, not to the exit', () => {
  // eval-cli.e2e in the Debian root (load ~18): the asks-the-person run printed
  // question_asked and run_ended and exited 130; the eval took the exit before those lines
  // and recorded "the run ended without a result (exit 130)". Here the lines come after the
  // exit for certain: the child exits at once, and a process it left holding its stdout
  // prints them only when the test writes to it, which the test does once the child is gone.
  // (Its stdin comes through fd 3: sh gives a background job /dev/null as stdin.)
  it('lines that arrive after the exit still decide the outcome: the question makes it "needed a person"', async () => {
    const asked = { ...at(1), type: 'question_asked', questionId: 'q1', question: 'Which greeting should I write?' };
    const lines = `${JSON.stringify(asked)}\n${JSON.stringify(stopped)}\n`;
    const child = spawn('sh', ['-c', 'exec 3<&0; (read -r _ <&3; printf "%s" "$1") & exit 130', 'sh', lines], { stdio: ['pipe', 'pipe', 'pipe'] });
    const agent = new AgentProcess(child);
    await once(child, 'exit');
    child.stdin.end('go\n');
    const outcome = await agent.exited;
    expect(outcome.exitCode).toBe(130);
    expect(outcome.askedPerson).toBe('the model asked: Which greeting should I write?');
    expect(outcome.status).toBe('stopped');
    expect(decideStatus({ agent: outcome }).status).toBe('needed a person');
  });
});
