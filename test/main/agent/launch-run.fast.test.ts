import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launchRun, launcherFor, SURFACES, type RunRequest } from '../../../src/main/agent/index.js';
import type { ModelTurn, Provider } from '../../../src/main/agent/providers/types.js';
import type { RunEvent } from '../../../src/shared/events.js';
import { finish, tempHome, testRunOptions } from '../../e2e/support.js';
import { createFakeComputer } from '../../harness/fake-computer.js';
import { startFakeModel, type FakeModelServer } from '../../harness/fake-model/index.js';

// The front door (issue 29 item 1): every surface starts a run with launchRun, which
// names the surface in the run's log and runs the same start (gate, scrubber, describer,
// sandbox) for all of them. Real runs against the fake model server; a FakeComputer.

let fake: FakeModelServer;
const home = tempHome();
beforeEach(async () => {
  fake = await startFakeModel();
});
afterEach(async () => {
  await fake?.close();
});
afterAll(() => home.cleanup());

function request(extra: Partial<RunRequest> & Pick<RunRequest, 'surface'>): RunRequest {
  return {
    ...testRunOptions({
      task: 'say done',
      profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl },
      computer: createFakeComputer(),
      home: home.home,
    }),
    ...extra,
  };
}

/** The run's own log, as written to disk: what History and exports read. */
function logged(runDir: string): RunEvent[] {
  return readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RunEvent);
}

describe('launchRun, the front door', () => {
  it.each(SURFACES)('a run from %s is logged with its surface and ends through the same runner', async (surface) => {
    fake.script({ toolCalls: [finish(true, `done from ${surface}`)] });
    const seen: RunEvent[] = [];
    const handle = await launchRun(request({ surface, labels: { extra: 'kept' } }), { onEvent: (e) => seen.push(e) });
    const result = await handle.done;
    expect(result.status).toBe('done');
    const started = logged(handle.dir).find((e) => e.type === 'run_started');
    expect(started).toMatchObject({ type: 'run_started', labels: { source: surface, extra: 'kept' } });
    // The host got the same events the log holds, in order.
    expect(seen.map((e) => e.seq)).toEqual(logged(handle.dir).map((e) => e.seq));
    expect(fake.requests).toHaveLength(1);
  });

  it('launcherFor keeps a caller’s hooks (the bridge service, the terminal run, QA workers)', async () => {
    fake.script({ toolCalls: [finish(true, 'ok')] });
    const kinds: string[] = [];
    const handle = await launcherFor('qa')({ ...request({ surface: 'qa' }), onEvent: (e) => kinds.push(e.type) });
    await handle.done;
    expect(kinds[0]).toBe('run_started');
    expect(kinds).toContain('run_ended');
    expect(logged(handle.dir).find((e) => e.type === 'run_started')).toMatchObject({ labels: { source: 'qa' } });
  });

  it('a driver proposes the turns instead of the profile’s model: no model server is called', async () => {
    const turns: number[] = [];
    const driver: Provider = {
      family: 'openai-compatible',
      model: 'mcp-client',
      imageTarget: () => ({ format: 'png', maxLongEdge: 640 }),
      turn: async (): Promise<ModelTurn> => {
        turns.push(turns.length);
        return {
          assistant: { role: 'assistant', text: 'the client finishes', calls: [{ callId: 'c1', name: 'finish', input: { success: true, summary: 'driven' }, actions: [{ ok: true, action: { type: 'finish', success: true, summary: 'driven' } }] }] },
          usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
          stopReason: 'tool_use',
        };
      },
    };
    const handle = await launchRun(request({ surface: 'mcp', profile: { provider: 'openai-compatible', model: 'mcp-client' }, driver: () => driver }));
    const result = await handle.done;
    expect(result).toMatchObject({ status: 'done', summary: 'driven' });
    expect(turns).toEqual([0]);
    expect(fake.requests).toHaveLength(0);
  });

  it('a driver is given the run: its log (a secret told to it is masked in what is written) and the profile’s own model (a replay’s healer)', async () => {
    const secret = 'hunter2-of-the-driver';
    fake.script({ toolCalls: [finish(true, `typed ${secret}`)] });
    const handle = await launchRun(
      request({
        surface: 'cli',
        driver: (_options, run) => {
          run.log.markSecret(secret);
          return run.model();
        },
      }),
    );
    const result = await handle.done;
    expect(result.status).toBe('done');
    // The profile's model answered the turn: the fake model server got the request.
    expect(fake.requests).toHaveLength(1);
    const written = readFileSync(path.join(handle.dir, 'events.jsonl'), 'utf8');
    expect(written).toContain('typed ');
    expect(written).not.toContain(secret);
  });
});
