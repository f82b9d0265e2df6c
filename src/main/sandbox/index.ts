/**
 * The sandbox every command runs in (issue 30): the shell tool's commands and the code
 * harness's Python interpreter — one module, one policy (docs/CONFIG.md "Sandbox").
 */
export { sandboxPolicy, SandboxPolicySchema, widenPolicy, writableRoots, isInside, type SandboxPolicy, type PolicyChoice } from './policy.js';
export { sandboxPlan, wrapCommand, summarizePolicy, enforcerOf, unavailableReason, SandboxUnavailableError, type SandboxPlan, type SandboxHost, type CommandSpec } from './plan.js';
export { prepareCommand, readSandboxHost, findOnPath } from './host.js';
export { checkWorkspace, checkAddDir, resolveGrants, SandboxInputError } from './workspace.js';
export { escalatedPolicy } from './escalated.js';
export { sandboxRefusal, refusalNote } from './refusal.js';
export { hiddenCandidates } from './hidden-paths.js';
export { probeSandbox, bwrapFix, type SandboxProbe } from './probe.js';
export { resolveSandbox, defaultAppWorkspace, startedWorkspace, type SandboxRequest, type SandboxResolution } from './resolve.js';
export { launchProcess, type LaunchedCommand, type LaunchEnd } from './launch.js';
export { RunSandbox } from './run-sandbox.js';
export { SandboxSession } from './session.js';
export { startSandboxedProcess, PROCESS_MARKER, type SandboxedProcess, type SandboxedProcessOptions } from './sandboxed-process.js';
