import { harnessOf, harnessProblem, HARNESSES, type HarnessChoice, type HarnessName } from '../../../shared/harnesses.js';
import { ConfigError } from '../../config/index.js';
import type { ToolSpec } from '../providers/tool-spec.js';
import { EXECUTE_TOOL_SPEC, SANDBOXED_EXECUTE_TOOL_SPEC, type CodeLanguage } from './code/execute-tool.js';
import { codeHarnessPrompt, hybridHarnessPrompt } from './code/prompt.js';
import { plannerHarnessPrompt } from './planner/prompt.js';
import { ACT_TOOL_SPEC } from './planner/wire.js';

/**
 * A harness over the provider's transport (issue 29 item 3, issue 31): what a model is
 * offered and told, apart from how the request reaches its server. The facts of each
 * harness (families, fit, source) are in shared/harnesses.ts; here is what it changes in
 * a run:
 *  - whether the provider declares its family's computer tool (every GUI harness does;
 *    `code` does not: the model acts through code);
 *  - the tools the harness adds (`code` and `hybrid`: execute; every run keeps lazy code
 *    sessions, code/sessions.ts, so a replayed block runs whatever the harness) and the
 *    interpreters started with the run so the first block finds them ready;
 *  - the lines it adds to the system prompt;
 *  - whether a reply's fenced blocks are calls (`code` without function calling).
 * The GUI harnesses' wire forms (tool declaration, reply parsing, image size) are still
 * the providers' own code, chosen by this name (providers/anthropic, openai,
 * openai-compatible/formats.ts).
 */
export interface RunHarness {
  readonly name: HarnessName;
  /** The provider declares its family's computer tool and reads its calls. */
  readonly computerTool: boolean;
  /** Tools offered besides the built-ins and the caller's, as an unsandboxed run offers them (`offeredTools`: a sandboxed one's). */
  readonly tools: readonly ToolSpec[];
  /** The built-in tools (shell, ask_user, element, finish) are offered too; planner-grounder's one tool is act (issue 33). */
  readonly builtins: boolean;
  /**
   * The code sessions started when the run starts, beside the model's first turn
   * (code/sessions.ts warm): Python and JavaScript, the computer API's languages, whose
   * starts missed the first-block targets (≤ 300 ms, ≤ 100 ms) by seconds at load 25–38.
   * Shell starts at its first block.
   */
  readonly warmLanguages: readonly CodeLanguage[];
  /** Appended to the system prompt's description of how to act. */
  prompt(options: { fenced: boolean; textOnly: boolean }): string | undefined;
}

const CODE_API_LANGUAGES: readonly CodeLanguage[] = ['python', 'javascript'];

const RUN_HARNESSES: Readonly<Record<HarnessName, RunHarness>> = {
  'claude-computer': guiHarness('claude-computer'),
  'openai-computer': guiHarness('openai-computer'),
  'ui-tars': guiHarness('ui-tars'),
  'qwen-vl': guiHarness('qwen-vl'),
  tools: guiHarness('tools'),
  code: { name: 'code', computerTool: false, tools: [EXECUTE_TOOL_SPEC], builtins: true, warmLanguages: CODE_API_LANGUAGES, prompt: codeHarnessPrompt },
  // The family's own computer tool (its wire chosen by family and model id, as when no harness is named) and execute.
  hybrid: { name: 'hybrid', computerTool: true, tools: [EXECUTE_TOOL_SPEC], builtins: true, warmLanguages: CODE_API_LANGUAGES, prompt: hybridHarnessPrompt },
  // No computer tool: the planner names targets in words through act (harness/planner), the resolve chain finds the points.
  // act is its one tool (the wire): done and fail end the run through it, so finish, shell and the rest are not offered.
  'planner-grounder': { name: 'planner-grounder', computerTool: false, tools: [ACT_TOOL_SPEC], builtins: false, warmLanguages: [], prompt: plannerHarnessPrompt },
};

function guiHarness(name: HarnessName): RunHarness {
  return { name, computerTool: true, tools: [], builtins: true, warmLanguages: [], prompt: () => undefined };
}

/** The harness's tools as a run offers them: in a sandboxed run, execute takes `escalate` (as shell does, providers/builtin-tools.ts). */
export function offeredTools(harness: RunHarness, options: { sandboxed: boolean }): readonly ToolSpec[] {
  return harness.tools.map((tool) => (options.sandboxed && tool === EXECUTE_TOOL_SPEC ? SANDBOXED_EXECUTE_TOOL_SPEC : tool));
}

/** The harness a run's profile asks for (`harness`, else `format`, else by family and model); a profile whose harness cannot be used is a ConfigError. */
export function runHarness(profile: HarnessChoice): RunHarness {
  const problem = harnessProblem(profile);
  if (problem) throw new ConfigError(problem, 'config.json');
  return RUN_HARNESSES[harnessOf(profile)];
}

export { HARNESSES, type HarnessName };
