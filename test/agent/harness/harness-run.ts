import type { Computer } from '../../../src/os-control/types.js';
import type { ProviderProfile } from '../../../src/shared/config.js';
import type { RunEvent } from '../../../src/shared/events.js';
import type { RunHandle, RunOptions } from '../../../src/main/agent/run-api.js';
import type { FakeModelServer, FakeReply, FakeRequest } from '../../harness/fake-model/index.js';
import { testRunOptions } from '../../e2e/support.js';

/** What a harness run on the real desktop needs: the fake model, the display's computer, a DESKPILOT_HOME. */
export interface HarnessRunSetup {
  fake: FakeModelServer;
  computer: Computer;
  home: string;
}

export type ApprovalAnswerer = (event: Extract<RunEvent, { type: 'approval_requested' }>, handle: RunHandle, proposed: RunEvent | undefined) => void;

/**
 * One run through the front door (`launchRun`, surface cli) with the fake model scripted
 * for it: the real SDK asks the fake on the profile's wire. Returns the run's result, its
 * events and the requests the model received. `onApproval` answers what the gate asks
 * (with the proposal it is about).
 */
export async function runScripted(
  setup: HarnessRunSetup,
  profile: ProviderProfile,
  turns: Array<FakeReply | ((req: FakeRequest) => FakeReply)>,
  options: Partial<RunOptions> = {},
  onApproval?: ApprovalAnswerer,
) {
  const { launchRun } = await import('../../../src/main/agent/index.js');
  const { fake, computer, home } = setup;
  const events: RunEvent[] = [];
  const first = fake.requests.length;
  fake.script(...turns);
  const ref: { handle?: RunHandle } = {};
  const proposedOf = (id: string) => events.find((p) => p.type === 'action_proposed' && p.proposalId === id);
  const asked: Array<Extract<RunEvent, { type: 'approval_requested' }>> = [];
  const handle = await launchRun(
    {
      ...testRunOptions({ task: 'use the probe page', profile, computer, home, providerOptions: { timeoutMs: 30_000, retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50 } }, ...options }),
      surface: 'cli',
    },
    {
      onEvent: (e) => {
        events.push(e);
        if (e.type !== 'approval_requested') return;
        // The handle exists before anything is asked (the gate asks after the first model turn).
        if (ref.handle && onApproval) onApproval(e, ref.handle, proposedOf(e.proposalId));
        else asked.push(e);
      },
    },
  );
  ref.handle = handle;
  for (const e of asked) onApproval?.(e, handle, proposedOf(e.proposalId));
  const result = await handle.done;
  return { handle, result, events, requests: fake.requests.slice(first) };
}
