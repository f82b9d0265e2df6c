import { ProviderFamilySchema } from '../../shared/config.js';
import { HarnessNameSchema } from '../../shared/harnesses.js';
import type { RunEventOf } from '../../shared/events.js';
import { openSession } from '../sessions/history.js';
import { EXIT } from './exit-codes.js';
import type { SandboxSummary } from '../../shared/sandbox.js';
import type { SandboxRequest } from '../sandbox/index.js';
import { policyFromFlags, sandboxRequestFromFlags, type ChoiceFlags, type SandboxFlags } from './run-flags.js';
import { launchInTerminal } from './terminal-launch.js';
import type { TerminalRunFlags } from './terminal-run.js';

/**
 * `deskpilot sessions resume <id>`: continues a paused or interrupted run in its own
 * folder with the provider, model and limits it started with, supervised on the
 * terminal. The same choice flags as `deskpilot run` (--policy, --yes, --base-url,
 * --display …) apply; the logged policy can only make the run stricter
 * (stricterPolicy), and the logged base URL is reused only where a key may go
 * (decideKeyDestination: loopback or configured; else "pass --base-url"). The run keeps
 * its sandbox (resumedSandbox) unless the sandbox flags change it.
 */
export async function resumeRunInTerminal(
  runId: string,
  context: { home: string; flags?: ChoiceFlags & SandboxFlags },
  terminal: Partial<TerminalRunFlags> = {},
): Promise<number> {
  const flags = context.flags ?? {};
  const { events } = await openSession(context.home, runId);
  const started = events.find((e): e is RunEventOf<'run_started'> => e.type === 'run_started');
  if (!started) {
    process.stderr.write(`deskpilot: run ${runId} has no start event; it cannot be resumed\n`);
    return EXIT.usage;
  }
  const provider = ProviderFamilySchema.safeParse(flags.provider ?? started.provider);
  if (!provider.success) {
    process.stderr.write(`deskpilot: run ${runId} names an unknown provider "${started.provider}"; it cannot be resumed\n`);
    return EXIT.usage;
  }
  const sameProvider = provider.data === started.provider;
  const logged = HarnessNameSchema.safeParse(started.harness);
  const harness = flags.harness ?? (sameProvider && logged.success ? logged.data : undefined);
  return launchInTerminal({
    home: context.home,
    choices: {
      ...(flags.profile !== undefined ? { profile: flags.profile } : {}),
      provider: provider.data,
      model: flags.model ?? started.model,
      baseUrl: flags.baseUrl,
      // The base URL the run used is not a secret: a run against a local model server resumes against it.
      ...(sameProvider && started.baseUrl ? { loggedBaseUrl: started.baseUrl } : {}),
      apiKeyEnv: flags.apiKeyEnv,
      ...(flags.grounding !== undefined ? { grounding: flags.grounding } : {}),
      // The harness the run was started in (its model was told how to act in it), unless --harness names another.
      ...(harness ? { harness } : {}),
      policy: policyFromFlags(flags),
      // The log is a file: its policy can only tighten what the flags or the config say.
      loggedPolicy: started.policy,
      limits: started.limits,
    },
    extras: { task: started.task, skills: started.skills, resumeRunId: runId },
    sandbox: resumedSandbox(events.findLast((e): e is RunEventOf<'run_started'> => e.type === 'run_started')?.sandbox, flags),
    flags: { json: false, ...terminal },
    overrides: { displayId: flags.display ?? started.display?.id, requestTimeoutSeconds: flags.requestTimeout },
  });
}

/**
 * The sandbox a resumed run asks for: the one its latest start logged (mode, workspace,
 * added folders, network, display), each part replaced by a flag that names it
 * (--sandbox, --cd, --add-dir, --sandbox-display); the workspace and folders are checked
 * again as if given now (a folder since removed is exit 2). A run logged without one
 * (before issue 30) asks what `run` would. Trusting the log is safe: ~/.deskpilot is
 * hidden from every sandboxed command, so no command of the run could have widened it.
 */
export function resumedSandbox(logged: SandboxSummary | undefined, flags: SandboxFlags): Omit<SandboxRequest, 'config'> {
  const fromFlags = sandboxRequestFromFlags(flags);
  if (!logged) return fromFlags;
  const mode = flags.sandbox ?? logged.mode;
  return {
    ...fromFlags,
    mode,
    workspace: flags.cd ?? logged.workspace,
    addDirs: flags.addDir ?? logged.addDirs ?? [],
    display: flags.sandboxDisplay === true || logged.display,
    // The logged network is the person's sandbox.networkAccess only in workspace-write (on in danger-full-access by definition).
    ...(logged.mode === 'workspace-write' && mode === 'workspace-write' ? { networkAccess: logged.network } : {}),
  };
}
