import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defaultConfig } from '../../src/main/config/index.js';
import { CLAUDE_COMPUTER_ACTIONS, parseClaudeAction } from '../../src/main/agent/providers/parse/claude-computer.js';
import { toolNameProblem } from '../../src/main/agent/providers/builtin-tools.js';
import type { RunOptions } from '../../src/main/agent/run-api.js';
import { startRun } from '../../src/main/agent/runner.js';
import { ToolSetupError, type AgentTool } from '../../src/main/agent/tools/agent-tool.js';
import type { RunEvent } from '../../src/shared/events.js';
import { finish, tempHome, testRunOptions } from '../e2e/support.js';
import { sandboxPolicy } from '../../src/main/sandbox/index.js';
import { createFakeComputer } from '../harness/fake-computer.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';

// A caller's tools (QA's, an MCP server's) reach the model and come back through one
// AgentTool declaration: the JSON Schema the model receives is generated from the zod
// input, the handler gets parsed input, and a bad name stops the run before it starts.
// No display: a FakeComputer.

let fake: FakeModelServer;
const home = tempHome();
beforeEach(async () => {
  fake = await startFakeModel();
});
afterEach(async () => {
  await fake?.close();
});
afterAll(() => home.cleanup());

const WeatherInput = z
  .object({
    city: z.string().min(1).describe('The city, as the person wrote it.'),
    unit: z.enum(['C', 'F']).default('C'),
  })
  .strict();

function weatherTool(seen: unknown[]): AgentTool<z.output<typeof WeatherInput>> {
  return {
    name: 'weather_now',
    description: 'Read the current weather for a city.',
    input: WeatherInput,
    async handle(input, context) {
      seen.push({ input, step: context.step, callName: context.call.name, observed: context.latestObservationId !== undefined });
      return { ok: true, text: `12 degrees ${input.unit} in ${input.city}` };
    },
  };
}

async function start(extra: Partial<RunOptions>, provider: 'anthropic' | 'openai' = 'anthropic') {
  const events: RunEvent[] = [];
  const handle = await startRun(
    testRunOptions({
      task: 'use a caller tool',
      profile:
        provider === 'anthropic'
          ? { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl }
          : { provider: 'openai', model: 'gpt-5.4', baseUrl: fake.openaiBaseUrl },
      computer: createFakeComputer(),
      home: home.home,
      config: { ...defaultConfig(), takeover: 'ignore' },
      onEvent: (e) => events.push(e),
      ...extra,
    }),
  );
  return { handle, events };
}

describe('AgentTool: one declaration from the caller to the model and back', () => {
  for (const provider of ['anthropic', 'openai'] as const) {
    it(`${provider}: the model receives the JSON Schema generated from zod; the handler gets parsed input`, async () => {
      const seen: unknown[] = [];
      let answer = '';
      fake.script(
        { toolCalls: [{ name: 'weather_now', input: { city: 'Oslo' } }] },
        (req) => {
          answer = req.toolResults.at(-1)?.text ?? '';
          return { toolCalls: [finish(true, 'read it')] };
        },
      );
      const { handle } = await start({ tools: [weatherTool(seen)] }, provider);
      expect(await handle.done).toMatchObject({ status: 'done' });
      const tools = fake.requests[0]!.body.tools as Array<Record<string, unknown>>;
      const weather = tools.find((t) => t.name === 'weather_now')!;
      const schema = (provider === 'anthropic' ? weather.input_schema : weather.parameters) as Record<string, unknown>;
      expect(schema).toEqual({
        type: 'object',
        properties: {
          city: { type: 'string', minLength: 1, description: 'The city, as the person wrote it.' },
          unit: { type: 'string', enum: ['C', 'F'], default: 'C' },
        },
        required: ['city'],
        additionalProperties: false,
      });
      expect(weather.description).toBe('Read the current weather for a city.');
      // The built-ins are offered too, generated the same way.
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['shell', 'ask_user', 'finish', 'weather_now']));
      // The default was applied before the handler saw the input.
      expect(seen).toEqual([{ input: { city: 'Oslo', unit: 'C' }, step: 0, callName: 'weather_now', observed: true }]);
      // The tool observes: an unchanged screen is said in words instead of sent again (issue 19).
      expect(answer).toMatch(/^12 degrees C in Oslo(\nThe screen did not change\.)?$/);
    });
  }

  it('input that does not fit the schema is refused with the reason; the handler never runs', async () => {
    const seen: unknown[] = [];
    const answers: string[] = [];
    fake.script(
      { toolCalls: [{ name: 'weather_now', input: { city: 'Oslo', unit: 'K' } }] },
      (req) => {
        answers.push(req.toolResults.at(-1)?.text ?? '');
        return { toolCalls: [{ name: 'weather_now', input: { town: 'Oslo' } }] };
      },
      (req) => {
        answers.push(req.toolResults.at(-1)?.text ?? '');
        return { toolCalls: [finish(false, 'gave up')] };
      },
    );
    const { handle } = await start({ tools: [weatherTool(seen)] });
    expect(await handle.done).toMatchObject({ status: 'failed' });
    expect(seen).toEqual([]);
    expect(answers[0]).toMatch(/^weather_now was not accepted: unit: /);
    expect(answers[1]).toMatch(/^weather_now was not accepted: (city|input): /);
  });

  it('a tool the run does not offer is an unknown tool: nothing runs', async () => {
    let answer = '';
    fake.script(
      { toolCalls: [{ name: 'qa_verdict', input: { verdict: 'pass', reason: 'x' } }] },
      (req) => {
        answer = req.toolResults.at(-1)?.text ?? '';
        return { toolCalls: [finish(true, 'ok')] };
      },
    );
    const { handle, events } = await start({});
    expect(await handle.done).toMatchObject({ status: 'done' });
    expect(answer).toMatch(/unknown tool "qa_verdict"/);
    expect(events.find((e) => e.type === 'action_invalid')).toMatchObject({ error: expect.stringMatching(/unknown tool "qa_verdict"/) });
  });

  it('a handler may end the run, with labels', async () => {
    fake.script({ toolCalls: [{ name: 'weather_now', input: { city: 'Rome' } }] });
    const tool: AgentTool<z.output<typeof WeatherInput>> = {
      ...weatherTool([]),
      handle: async (input) => ({ ok: true, text: 'ok', endRun: { status: 'done', summary: `weather of ${input.city}`, labels: { city: input.city } } }),
    };
    const { handle, events } = await start({ tools: [tool] });
    expect(await handle.done).toMatchObject({ status: 'done', summary: 'weather of Rome' });
    expect(events.find((e) => e.type === 'run_ended')).toMatchObject({ labels: { city: 'Rome' } });
  });

  it('bad, taken and repeated names stop the run before its folder exists', async () => {
    const runs = path.join(home.home, 'runs');
    const before = existsSync(runs) ? readdirSync(runs).length : 0;
    const named = (name: string): AgentTool => ({ ...weatherTool([]), name }) as AgentTool;
    for (const tools of [[named('has space')], [named('x'.repeat(65))], [named('')], [named('finish')], [named('computer')], [named('left_click')], [named('computer_use')], [named('a'), named('a')]]) {
      await expect(start({ tools })).rejects.toThrow(ToolSetupError);
    }
    expect(existsSync(runs) ? readdirSync(runs).length : 0).toBe(before);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('the shell tool as the model receives it', () => {
  // A run's commands either run in a sandbox that can refuse (then the model may ask again
  // with `escalate`) or they do not (then there is nothing to escalate to, and the
  // declaration — sent with every request — says nothing of a sandbox).
  for (const [name, sandbox, escalates] of [
    ['an unsandboxed run', undefined, false],
    ['a danger-full-access run', sandboxPolicy({ mode: 'danger-full-access', workspace: '/tmp' }), false],
    ['a workspace-write run', sandboxPolicy({ mode: 'workspace-write', workspace: '/tmp' }), true],
    ['a read-only run', sandboxPolicy({ mode: 'read-only', workspace: '/tmp' }), true],
  ] as const) {
    it(`${name}: ${escalates ? 'offers escalate and says it is sandboxed' : 'offers no escalate and names no sandbox'}`, async () => {
      fake.script({ toolCalls: [finish(true, 'nothing to do')] });
      const { handle } = await start(sandbox ? { sandbox } : {});
      expect(await handle.done).toMatchObject({ status: 'done' });
      const shell = (fake.requests[0]!.body.tools as Array<{ name: string; description: string; input_schema: { properties: Record<string, unknown> } }>).find(
        (t) => t.name === 'shell',
      )!;
      expect(Object.keys(shell.input_schema.properties).sort()).toEqual(escalates ? ['command', 'escalate', 'reason', 'timeout_seconds'] : ['command', 'timeout_seconds']);
      expect(shell.description.includes('sandbox')).toBe(escalates);
    });
  }
});

describe('tool names', () => {
  it('accept what every provider accepts and refuse the rest', () => {
    expect(toolNameProblem('weather_now')).toBeUndefined();
    expect(toolNameProblem('mcp__fs__read-file')).toBeUndefined();
    expect(toolNameProblem('x'.repeat(64))).toBeUndefined();
    expect(toolNameProblem('x'.repeat(65))).toMatch(/1–64 characters/);
    expect(toolNameProblem('fs.read')).toMatch(/letters, digits/);
    expect(toolNameProblem('lire_é')).toMatch(/letters, digits/);
    expect(toolNameProblem('shell')).toMatch(/taken/);
    expect(toolNameProblem('ui_tars')).toMatch(/taken/);
  });

  it("every reserved Claude computer action is one the parser reads", () => {
    const ctx = { image: { width: 100, height: 100 }, cursor: { x: 1, y: 1 } };
    for (const action of CLAUDE_COMPUTER_ACTIONS) {
      const entry = parseClaudeAction(action, {}, ctx);
      expect(entry.ok ? '' : entry.error, action).not.toMatch(/unknown computer action/);
      expect(toolNameProblem(action), action).toMatch(/taken/);
    }
    const unknown = parseClaudeAction('teleport', {}, ctx);
    expect(unknown.ok ? '' : unknown.error).toMatch(/unknown computer action/);
  });
});

describe('click action names', () => {
  it("are read from the table's own entries only (an Object.prototype name is an unknown action)", async () => {
    const { parseQwenAction } = await import('../../src/main/agent/providers/parse/qwen-vl.js');
    const ctx = { image: { width: 100, height: 100 } };
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      const claude = parseClaudeAction(name, { coordinate: [5, 5] }, ctx);
      expect(claude.ok ? '' : claude.error, name).toMatch(/unknown computer action/);
      const qwen = parseQwenAction({ action: name, coordinate: [5, 5] }, 'absolute', ctx);
      expect(qwen.ok, name).toBe(false);
      expect(qwen.ok ? '' : qwen.error, name).not.toMatch(/click/);
    }
    expect(parseClaudeAction('double_click', { coordinate: [5, 5] }, ctx)).toMatchObject({ ok: true, action: { type: 'click', clicks: 2 } });
  });
});
