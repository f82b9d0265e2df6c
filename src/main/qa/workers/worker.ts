import { assertNever } from '../../../shared/assert-never.js';
import type { Computer } from '../../../os-control/types.js';
import { resolveApiKey } from '../../agent/providers/index.js';
import type { RequestGate } from '../../agent/providers/request-gate.js';
import type { RunHandle, RunOptions } from '../../agent/run-api.js';
import type { TestCase } from '../plan-types.js';
import { runQaPlan } from '../qa-runner.js';
import { caseId } from '../shard.js';
import type { SuiteBudget } from '../suite-budget.js';
import { toWire, ToWorkerSchema, type FromWorker, type ToWorker } from './protocol.js';

/**
 * One parallel QA worker (`deskpilot qa-worker`, started by pool.ts on its own virtual
 * display): it runs cases the parent hands it with the ordinary QA runner, asks the
 * parent before every model request (the shared gate), reports what it spends (the
 * suite budget) and stops when told. Its DISPLAY, session bus and everything else come
 * from the environment the parent started it with.
 */
export interface WorkerDeps {
  startRun: (options: RunOptions) => Promise<RunHandle>;
  createComputer: () => Computer;
  /** The IPC channel (process by default). */
  channel?: NodeJS.Process;
}

// Over 120 lines because the message handler and the request-gate and budget proxies
// share the pending-request map, the parent's limits and the stop state of this worker.
export async function runQaWorker(deps: WorkerDeps): Promise<number> {
  const channel = deps.channel ?? process;
  if (!channel.send) throw new Error('deskpilot qa-worker is started by deskpilot qa --workers, not by hand');
  const send = (message: FromWorker) => {
    if (channel.connected) channel.send!(message);
  };
  const stop = new AbortController();
  const exhausted = new AbortController();
  let costLeft: number | null = null;
  let stopReason = 'the QA run was stopped';
  const waiting = new Map<number, { resolve: () => void; reject: (e: unknown) => void }>();
  let requestIds = 0;
  let nextCase: ((testCase: TestCase | undefined) => void) | undefined;
  let init: Extract<ToWorker, { type: 'init' }> | undefined;
  let initialised: (() => void) | undefined;
  const ready = new Promise<void>((resolve) => (initialised = resolve));

  const onMessage = (raw: unknown) => {
    const parsed = ToWorkerSchema.safeParse(raw);
    if (!parsed.success) {
      process.stderr.write(`qa-worker: unreadable message from the parent: ${parsed.error.issues[0]?.message ?? ''}\n`);
      return;
    }
    const m = parsed.data;
    switch (m.type) {
      case 'init':
        init = m;
        costLeft = m.costLeftUsd;
        initialised?.();
        return;
      case 'case': {
        costLeft = m.costLeftUsd;
        const testCase = init?.plan.cases.find((c) => caseId(init!.plan, c) === m.caseId);
        nextCase?.(testCase);
        return;
      }
      case 'no-more':
        nextCase?.(undefined);
        return;
      case 'grant':
        waiting.get(m.requestId)?.resolve();
        waiting.delete(m.requestId);
        return;
      case 'cost-left':
        costLeft = m.costLeftUsd;
        if (costLeft !== null && costLeft <= 0) exhausted.abort();
        return;
      case 'stop':
        stopReason = m.reason;
        stop.abort(new Error(m.reason));
        exhausted.abort();
        nextCase?.(undefined);
        return;
      default:
        return assertNever(m, 'parent message');
    }
  };
  channel.on('message', onMessage);
  // The parent is gone: nobody will read the results, and our display goes with it.
  channel.once('disconnect', () => stop.abort(new Error('the parent deskpilot qa ended')));
  send({ type: 'ready' });
  await Promise.race([ready, new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }))]);
  if (!init) return 2;
  const options = init;

  const gate: RequestGate = {
    acquire: (signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        const id = requestIds++;
        const onAbort = () => {
          waiting.delete(id);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.set(id, {
          resolve: () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          },
          reject,
        });
        send({ type: 'acquire', requestId: id });
      }),
    backoff: (ms) => send({ type: 'backoff', ms }),
  };
  const budget: SuiteBudget = {
    remaining: () => (costLeft === null ? Infinity : costLeft),
    spend: (usd) => {
      if (usd > 0) send({ type: 'spend', usd });
    },
    exhausted: exhausted.signal,
    exhaustedReason: () => stopReason,
  };

  const profile = options.profile;
  const { apiKey } = resolveApiKey(profile);
  try {
    const suite = await runQaPlan(options.plan, {
      profile,
      ...(apiKey ? { apiKey } : {}),
      config: options.config,
      computer: deps.createComputer(),
      startRun: deps.startRun,
      home: options.home,
      cwd: options.cwd,
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      outDir: options.checksDir,
      suiteId: options.suiteId,
      worker: options.worker,
      ...(options.retries !== undefined ? { retries: options.retries } : {}),
      ...(options.shard ? { shard: options.shard } : {}),
      ...(options.replay ? { replay: true } : {}),
      gate,
      budget,
      signal: stop.signal,
      nextCase: () =>
        new Promise<TestCase | undefined>((resolve) => {
          if (stop.signal.aborted) return resolve(undefined);
          nextCase = resolve;
          send({ type: 'next' });
        }),
      onCaseStart: (c, attempt) => send({ type: 'case-start', caseId: caseId(options.plan, c), attempt }),
      onCaseEnd: (result) => send({ type: 'case-end', result: toWire(result) }),
    });
    send({ type: 'done', ...(suite.setupError ? { setupError: suite.setupError } : {}), notRun: suite.notRun ?? [] });
    return 0;
  } catch (error) {
    send({ type: 'fatal', message: error instanceof Error ? error.message : String(error) });
    return 7;
  } finally {
    channel.off('message', onMessage);
  }
}
