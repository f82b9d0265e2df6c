import { z } from 'zod';
import { toolSpec, type ToolSpec } from '../../providers/tool-spec.js';

/**
 * The `code` harness's one tool (Open Interpreter's `execute`): code in a language, run
 * in the run's persistent session of that language: Python (python3, session.ts) or
 * JavaScript (QuickJS in DeskPilot, js-session.ts). A shell session is not built yet, so
 * the schema does not offer it (a model that writes one gets the schema's error; the
 * shell tool runs commands).
 */
export const EXECUTE_TOOL_NAME = 'execute';

export const CODE_LANGUAGES = ['python', 'javascript'] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

/** Longest block taken: a block is read whole by the person approving it, and passes the gate as a command (at most 20,000 characters with its header). */
export const MAX_CODE_CHARS = 19_000;

export const ExecuteInputSchema = z
  .object({
    language: z.enum(CODE_LANGUAGES).describe('python: a persistent python3 session; javascript: a persistent QuickJS session (no Node APIs). Variables survive between blocks.'),
    code: z.string().min(1).max(MAX_CODE_CHARS).describe('The code. The value of a last bare expression is shown, like a notebook cell.'),
    timeout_seconds: z.number().int().min(1).max(600).optional().describe('End the block after this many seconds (default 60); the session then starts afresh.'),
  })
  .strict();
export type ExecuteInput = z.infer<typeof ExecuteInputSchema>;

export const EXECUTE_TOOL_SPEC: ToolSpec = toolSpec({
  name: EXECUTE_TOOL_NAME,
  description: 'Run code in a persistent session on this computer; its output comes back. The `computer` object in it works the mouse, keyboard and screen.',
  input: ExecuteInputSchema,
});

/** Reads an execute call's input: the block, or why it cannot run (said to the model). */
export function readExecuteInput(input: unknown): { ok: true; block: ExecuteInput } | { ok: false; error: string } {
  const parsed = ExecuteInputSchema.safeParse(input);
  if (parsed.success) return { ok: true, block: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, error: `execute was not accepted: ${issue?.path.join('.') || 'input'}: ${issue?.message ?? 'invalid'} (expected {language: "python" | "javascript", code: "…"})` };
}
