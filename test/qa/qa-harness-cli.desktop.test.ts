import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { call, qaModel, runQaCli } from './qa-support.js';

// Issue 31: --harness on `deskpilot qa` (and the serving commands). The real CLI runs a
// one-case xcalc plan in the code harness: the fake model (Anthropic wire) is offered
// execute and no computer tool, types 2+3= with a Python block whose keyboard call passes
// the gate, and DeskPilot's own OCR check of the display decides. The harness is named in
// the header, the JUnit properties and results.json. A harness the provider cannot carry
// is refused before anything starts, by qa, mcp and acp alike (exit 2).

const PLAN = `# xcalc in the code harness

## App
- Launch: \`xcalc -geometry 260x340+100+100\`
- Window: Calculator
- Region display: 8, 2, 248, 22
- Start timeout: 15s

## Defaults
- Timeout: 90s
- Max steps: 6

## Case: Adds with code
Steps:
1. Type 2+3= into the calculator.
Expected:
- Expect display: 5
`;

let xvfb: Xvfb;
let fake: FakeModelServer;
let tmp: string;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  fake = await startFakeModel();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-qa-harness-'));
  writeFileSync(path.join(tmp, 'code.plan.md'), PLAN);
});
afterAll(async () => {
  await fake?.close();
  await xvfb?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const envFor = (home: string): NodeJS.ProcessEnv => ({ ...xvfb.env, DESKPILOT_HOME: path.join(tmp, home), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: '' });

describe('deskpilot qa --harness', () => {
  it('runs the case in the code harness: a Python block types into xcalc, the display check passes, the harness is named in the header, JUnit and results.json', async () => {
    const first = fake.requests.length;
    fake.setFallback(
      qaModel({
        'Adds with code': [
          () => ({ text: 'Typing the sum with code.', toolCalls: [{ name: 'execute', input: { language: 'python', code: 'computer.keyboard.write("2+3=")\nprint("sent")' } }] }),
          () => ({ text: 'The display shows 5.', toolCalls: [call.verdict('pass', 'The display shows 5.')] }),
        ],
      }),
    );
    const out = path.join(tmp, 'out');
    const result = await runQaCli(
      ['qa', path.join(tmp, 'code.plan.md'), '--out-dir', out, '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--harness', 'code'],
      envFor('home-run'),
      tmp,
    );
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toContain('anthropic claude-haiku-4-5, harness code');
    // The wire: execute offered, no computer tool; the block's output went back.
    const requests = fake.requests.slice(first);
    expect(requests[0]!.toolNames).toContain('execute');
    expect(requests[0]!.toolNames).toContain('qa_verdict');
    expect(requests[0]!.toolNames.some((n) => n.startsWith('computer'))).toBe(false);
    expect(requests[1]!.toolResults.at(-1)!.text).toContain('sent');
    // DeskPilot's own OCR of the display read what the block typed.
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as { harness?: string; cases: Array<{ status: string; attempts: Array<{ checks: Array<{ status: string; actual: string }> }> }> };
    expect(results.harness).toBe('code');
    expect(results.cases[0]!.status).toBe('passed');
    expect(results.cases[0]!.attempts[0]!.checks.find((c) => c.status === 'pass')?.actual).toBe('5');
    expect(readFileSync(path.join(out, 'junit.xml'), 'utf8')).toContain('<property name="harness" value="code"/>');
  }, 240_000);

  it('refuses an unknown harness and one the provider cannot carry before anything starts: qa, mcp and acp (exit 2)', async () => {
    const plan = path.join(tmp, 'code.plan.md');
    const unknown = await runQaCli(['qa', plan, '--provider', 'anthropic', '--harness', 'nope'], envFor('home-bad'), tmp);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Allowed choices are claude-computer, openai-computer, ui-tars, qwen-vl, tools, code, hybrid');
    const wire = await runQaCli(['qa', plan, '--provider', 'anthropic', '--harness', 'ui-tars'], envFor('home-bad'), tmp);
    expect(wire.code).toBe(2);
    expect(wire.stderr).toContain('harness "ui-tars" does not run on anthropic');
    expect(wire.stdout).not.toContain('QA:');
    const mcp = await runQaCli(['mcp', '--provider', 'anthropic', '--harness', 'qwen-vl'], envFor('home-bad'), tmp);
    expect(mcp.code).toBe(2);
    expect(mcp.stderr).toContain('deskpilot mcp: harness "qwen-vl" does not run on anthropic');
    const acp = await runQaCli(['acp', '--provider', 'openai-compatible', '--model', 'UI-TARS-1.5-7B', '--base-url', 'http://127.0.0.1:9/v1', '--harness', 'hybrid'], envFor('home-bad'), tmp);
    expect(acp.code).toBe(2);
    expect(acp.stderr).toContain('deskpilot acp: harness "hybrid" needs function calling, and UI-TARS-1.5-7B is a UI-TARS model');
    // Nothing was served: no session folder was made.
    expect(() => readFileSync(path.join(tmp, 'home-bad', 'sessions'))).toThrow();
  }, 240_000);
});
