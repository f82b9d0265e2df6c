import type { BridgeClient, CommandInput, CommandName, CommandOutput, PushMessage, SessionSummary, SettingsView } from '../../src/shared/bridge.js';
import { Commands } from '../../src/shared/bridge.js';
import { ConfigSchema } from '../../src/shared/config.js';
import { RunEventSchema, type QaCaseStatus, type RunEvent, type RunStatus } from '../../src/shared/events.js';
import { summarize, toSessionSummary } from '../../src/main/sessions/summary.js';
import type { EvalVerdict } from '../../src/shared/eval-labels.js';

/**
 * An in-test bridge client for component tests: records every call (parsed with the
 * real contract, so an invalid call fails the test) and lets the test push messages.
 * The end-to-end tests use the real service over the real WebSocket.
 */
export class TestClient implements BridgeClient {
  readonly calls: { name: CommandName; input: unknown }[] = [];
  private readonly listeners = new Set<(m: PushMessage) => void>();
  settings: SettingsView = {
    config: ConfigSchema.parse({ profiles: { claude: { provider: 'anthropic', model: 'claude-sonnet-4-5' } } }),
    keys: { ANTHROPIC_API_KEY: { stored: true, fromEnv: false }, OPENAI_API_KEY: { stored: false, fromEnv: true } },
  };
  answers: Partial<Record<CommandName, (input: unknown) => unknown>> = {};

  async call<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>> {
    const parsed = Commands[name].input.parse(input);
    this.calls.push({ name, input: parsed });
    const custom = this.answers[name];
    if (custom) return custom(parsed) as CommandOutput<N>;
    switch (name) {
      case 'settings.get':
        return this.settings as CommandOutput<N>;
      case 'settings.save': {
        const i = parsed as CommandInput<'settings.save'>;
        const keys = { ...this.settings.keys };
        for (const [k, v] of Object.entries(i.apiKeys ?? {})) keys[k] = { stored: v !== '', fromEnv: keys[k]?.fromEnv ?? false };
        this.settings = { config: ConfigSchema.parse(i.config), keys };
        return this.settings as CommandOutput<N>;
      }
      case 'approval.answer':
        return { accepted: true } as CommandOutput<N>;
      case 'question.answer':
        return { accepted: true } as CommandOutput<N>;
      case 'sessions.list':
        return { sessions: [] } as CommandOutput<N>;
      case 'sessions.open':
        return { events: [] } as CommandOutput<N>;
      case 'run.start':
        return { runId: 'r1' } as CommandOutput<N>;
      default:
        return {} as CommandOutput<N>;
    }
  }

  subscribe(listener: (m: PushMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  push(m: PushMessage): void {
    for (const l of this.listeners) l(m);
  }

  fileUrl(runId: string, rel: string): string {
    return `/files/${runId}/${rel}`;
  }

  callsOf(name: CommandName): unknown[] {
    return this.calls.filter((c) => c.name === name).map((c) => c.input);
  }
}

/** Builds a run's events with consecutive seq numbers. */
export class EventScript {
  private seq = 0;
  readonly events: RunEvent[] = [];
  constructor(readonly runId = 'r1') {}

  add(ev: Record<string, unknown>): RunEvent {
    const e = RunEventSchema.parse({ v: 1, runId: this.runId, seq: this.seq++, at: 1_700_000_000_000 + this.seq * 1000, ...ev });
    this.events.push(e);
    return e;
  }

  started(task = 'compute 2+3') {
    return this.add({ type: 'run_started', task, provider: 'anthropic', model: 'claude-test', policy: 'ask', limits: { maxSteps: 50, maxWallMs: 60000, maxCostUsd: 5 } });
  }

  observation(step: number, width = 1280, height = 800) {
    return this.add({
      type: 'observation',
      step,
      observation: {
        id: `obs-${step}`,
        takenAt: 1,
        display: { id: '0', bounds: { x: 0, y: 0, width: 1920, height: 1200 }, scaleFactor: 1 },
        capture: { width: 1920, height: 1200 },
        region: { x: 0, y: 0, width: 1920, height: 1200 },
        image: { width, height, format: 'jpeg' },
      },
      image: `shots/${step}.jpg`,
      thumb: `shots/${step}.thumb.jpg`,
    });
  }

  proposed(step: number, action: Record<string, unknown>, reasoning = 'I will click the field.') {
    return this.add({ type: 'action_proposed', step, proposalId: `p${step}`, action, observationId: `obs-${step}`, reasoning });
  }

  asked(step: number, decision: { rule: string; reason: string } = { rule: 'mode:ask', reason: 'You asked to approve every action.' }, extra: Record<string, unknown> = {}) {
    return this.add({ type: 'approval_requested', proposalId: `p${step}`, decision: { verdict: 'ask', ...decision }, ...extra });
  }
}

/**
 * A SessionSummary as the service lists it, derived by the real code (events →
 * sessions/summary.ts + outcome.ts), never written by hand: a finished run with these
 * labels. QA case runs (labels qaCase) get the model's verdict a run ending `status`
 * would have logged (done → pass, failed → fail) unless `labels.qaVerdict` says
 * otherwise, and `qaOutcome` adds the QA runner's verdict after its checks; `evalOutcome`
 * the eval checker's verdict `deskpilot eval` appends.
 */
export function listedSummary(
  runId: string,
  status: RunStatus,
  labels: Record<string, string>,
  options: { task?: string; at?: number; steps?: number; costUsd?: number; qaOutcome?: QaCaseStatus; evalOutcome?: { status: EvalVerdict; score: number } } = {},
): SessionSummary {
  const at = options.at ?? 1_700_000_000_000;
  const base = { v: 1, runId };
  const { qaVerdict, ...startLabels } = labels;
  const modelVerdict = qaVerdict ?? (labels.qaCase ? ({ done: 'pass', failed: 'fail' } as Record<string, string>)[status] : undefined);
  const events = [
    { ...base, seq: 0, at, type: 'run_started', task: options.task ?? `task of ${runId}`, provider: 'anthropic', model: 'claude-test', policy: 'auto', limits: {}, labels: startLabels },
    // One answered model turn per step (the count every view derives: shared/step-count.ts).
    ...Array.from({ length: options.steps ?? 3 }, (_, i) => ({
      ...base,
      seq: 1 + i,
      at: at + 1_000 * (i + 1),
      type: 'action_proposed',
      step: i + 1,
      proposalId: `p${i + 1}`,
      action: { type: 'click', x: 10, y: 10, button: 'left', clicks: 1, modifiers: [] },
      observationId: `obs-${i + 1}`,
      reasoning: `step ${i + 1}`,
    })),
    {
      ...base,
      seq: 1 + (options.steps ?? 3),
      at: at + 30_000,
      type: 'run_ended',
      status,
      summary: `${status}`,
      steps: options.steps ?? 3,
      total: { costUsd: options.costUsd ?? 0.02 },
      ...(modelVerdict ? { labels: { qaVerdict: modelVerdict } } : {}),
    },
    ...(options.qaOutcome ? [{ ...base, seq: 2 + (options.steps ?? 3), at: at + 31_000, type: 'qa_outcome', status: options.qaOutcome, message: `case ${options.qaOutcome}` }] : []),
    ...(options.evalOutcome ? [{ ...base, seq: 2 + (options.steps ?? 3), at: at + 31_000, type: 'eval_outcome', ...options.evalOutcome, message: `task ${options.evalOutcome.status}` }] : []),
  ].map((e) => RunEventSchema.parse(e));
  return toSessionSummary(summarize(events), false);
}

/** A client whose History lists `sessions` and whose sessions.open records the run opened (and answers with a started run). */
export function historyClient(sessions: () => SessionSummary[]): { client: TestClient; opened: string[] } {
  const client = new TestClient();
  client.answers['sessions.list'] = () => ({ sessions: sessions() });
  const opened: string[] = [];
  client.answers['sessions.open'] = (input) => {
    const { runId } = input as { runId: string };
    opened.push(runId);
    const s = new EventScript(runId);
    s.started(`events of ${runId}`);
    return { events: s.events };
  };
  return { client, opened };
}
