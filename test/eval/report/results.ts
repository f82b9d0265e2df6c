import type { EvalResult } from '../../../src/main/eval/report/index.js';

/** A hand-made result: a passed model run unless told otherwise. */
export function result(overrides: Partial<EvalResult> & Pick<EvalResult, 'id'>): EvalResult {
  const profile = overrides.profile ?? 'claude';
  const harness = overrides.harness ?? 'native';
  const run = overrides.run ?? 1;
  const status = overrides.status ?? 'passed';
  return {
    key: `${overrides.id}·${profile}·${harness}·${run}`,
    profile,
    provider: 'anthropic',
    model: 'claude-sonnet-5-5',
    harness,
    run,
    status,
    success: status === 'passed',
    score: status === 'passed' ? 1 : 0,
    steps: 10,
    modelCalls: 10,
    inputTokens: 1000,
    outputTokens: 100,
    cost: 0.01,
    seconds: 30,
    overheadSeconds: 2,
    reason: status === 'passed' ? 'the checker passed the end state' : `it was ${status}`,
    claim: 'done',
    mode: 'model',
    version: '0.1.0',
    policy: 'auto',
    sandbox: 'workspace-write (bubblewrap)',
    file: `/suite/${overrides.id}.json`,
    ...(status !== 'passed' && status !== 'failed' ? { failure: status === 'needed a person' ? 'person' : status === 'error' ? 'run' : status } : status === 'failed' ? { failure: 'checker' } : {}),
    ...overrides,
  } as EvalResult;
}
