import { z } from 'zod';
import { CODE_LANGUAGES, type CodeLanguage } from '../../../../shared/actions.js';
import { EscalationInput } from '../../providers/builtin-tools.js';
import { toolSpec, type ToolSpec } from '../../providers/tool-spec.js';

/**
 * The `code` harness's one tool (Open Interpreter's `execute`): code in a language, run
 * in the run's persistent session of that language: Python (python3, session.ts),
 * JavaScript (QuickJS in DeskPilot, js-session.ts) or shell (bash, shell-driver.ts).
 */
export const EXECUTE_TOOL_NAME = 'execute';

export { CODE_LANGUAGES, type CodeLanguage };

/** Longest block taken: a block is read whole by the person approving it, and passes the gate as a command (at most 20,000 characters with its header). */
export const MAX_CODE_CHARS = 19_000;

const ExecuteInput = z
  .object({
    language: z
      .enum(CODE_LANGUAGES)
      .describe('python: a persistent python3 session; javascript: a persistent QuickJS session (no Node APIs); shell: a persistent bash session (no computer API). Variables survive between blocks.'),
    code: z.string().min(1).max(MAX_CODE_CHARS).describe('The code. The value of a last bare expression is shown, like a notebook cell.'),
    timeout_seconds: z.number().int().min(1).max(600).optional().describe('End the block after this many seconds (default 60); the session then starts afresh.'),
  })
  .strict();

/**
 * A sandboxed run's execute: like its shell tool, a Python or shell block the sandbox refused may
 * be asked again with more access (issue 30 item 9). Only a person approves it (policy
 * rule "sandbox-escalation", the block is proposed as a shell action carrying it), and it
 * runs in a fresh interpreter with exactly that grant (sessions.ts), never in the
 * persistent one. A JavaScript block has nothing to escalate: QuickJS has no files,
 * network or processes.
 */
export const ExecuteInputSchema = ExecuteInput.extend(EscalationInput).strict();
export type ExecuteInput = z.infer<typeof ExecuteInputSchema>;

const DESCRIPTION = 'Run code in a persistent session on this computer; its output comes back. The `computer` object in it works the mouse, keyboard and screen.';

/** execute in a run whose commands run unsandboxed (danger-full-access): nothing to escalate to. */
export const EXECUTE_TOOL_SPEC: ToolSpec = toolSpec({ name: EXECUTE_TOOL_NAME, description: DESCRIPTION, input: ExecuteInput });

/** execute in a sandboxed run: with `escalate` and `reason` (harness/index.ts offeredTools picks it). */
export const SANDBOXED_EXECUTE_TOOL_SPEC: ToolSpec = toolSpec({ name: EXECUTE_TOOL_NAME, description: DESCRIPTION, input: ExecuteInputSchema });

/** Reads an execute call's input: the block, or why it cannot run (said to the model). */
export function readExecuteInput(input: unknown): { ok: true; block: ExecuteInput } | { ok: false; error: string } {
  const parsed = ExecuteInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `execute was not accepted: ${issue?.path.join('.') || 'input'}: ${issue?.message ?? 'invalid'} (expected {language: "python" | "javascript" | "shell", code: "…"})` };
  }
  if (parsed.data.language === 'javascript' && parsed.data.escalate !== undefined) {
    return { ok: false, error: 'execute was not accepted: escalate: a javascript block runs in QuickJS inside DeskPilot, with no files, network or programs to grant; use python or shell for that' };
  }
  return { ok: true, block: parsed.data };
}
