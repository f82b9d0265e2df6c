import { z } from 'zod';
import type { ProviderFamily } from './providers.js';

/**
 * Harnesses (issue 31): the way a model is asked to act — its system prompt, the tool it
 * is given and that tool's wire form, what each observation holds, how its reply is read.
 * A model works best in the harness it was trained for, so the harness is chosen apart
 * from the model (profile `harness`, `--harness`), and by the model's family when unset.
 *
 * Each harness is described once here (dependency-free: the config schema, the CLI's
 * `deskpilot harnesses` and doctor read it); what it does lives in
 * `src/main/agent/harness/`. The three formats an OpenAI-compatible profile could name
 * before (`format`: tools, ui-tars, qwen-vl) are harnesses of the same names, so an old
 * profile means exactly what it meant.
 */
export const HARNESS_NAMES = ['claude-computer', 'openai-computer', 'ui-tars', 'qwen-vl', 'tools', 'code', 'hybrid', 'planner-grounder'] as const;
export const HarnessNameSchema = z.enum(HARNESS_NAMES);
export type HarnessName = z.infer<typeof HarnessNameSchema>;

/** The `format` values a profile may still carry (each the harness of the same name). */
export const FORMAT_HARNESSES = ['tools', 'ui-tars', 'qwen-vl'] as const satisfies readonly HarnessName[];
export type FormatHarness = (typeof FORMAT_HARNESSES)[number];

export interface HarnessFacts {
  readonly name: HarnessName;
  /** The provider families whose wire carries it. */
  readonly families: readonly ProviderFamily[];
  /** Which models it was made for, in a person's words. */
  readonly fits: string;
  /** One line: how the model acts in it. */
  readonly summary: string;
  /** Where its prompt, tool and action space come from (public sources). */
  readonly source: string;
}

export const HARNESSES: Readonly<Record<HarnessName, HarnessFacts>> = {
  'claude-computer': {
    name: 'claude-computer',
    families: ['anthropic'],
    fits: 'Claude models (the tool version follows the model: computer_toolset_20260801 GA, computer_20251124, computer_20250124; profile toolVersion overrides)',
    summary: "Anthropic's computer tool: one action per tool call, screenshots as tool results",
    source: 'Anthropic computer-use tool documentation (platform.claude.com); @anthropic-ai/sdk 1.14.0',
  },
  'openai-computer': {
    name: 'openai-computer',
    families: ['openai'],
    fits: 'OpenAI computer-use models on the Responses API (GA computer tool; computer_use_preview for computer-use-preview)',
    summary: 'computer_call items with batched actions, computer_call_output screenshots',
    source: 'OpenAI computer-use guide (platform.openai.com); openai 6.49.0 responses types',
  },
  'ui-tars': {
    name: 'ui-tars',
    families: ['openai-compatible'],
    fits: 'UI-TARS 1.0, 1.5 and 2 (model ids with "ui-tars")',
    summary: "text replies 'Thought: … Action: click(start_box=…)' in the makers' action space; no function calling",
    source: 'bytedance/UI-TARS computer-use prompt template and action parser',
  },
  'qwen-vl': {
    name: 'qwen-vl',
    families: ['openai-compatible'],
    fits: 'Qwen2.5-VL and Qwen3-VL (model ids with "qwen…vl")',
    summary: 'the computer_use function with its own action names, as tool calls or <tool_call> text',
    source: 'QwenLM Qwen2.5-VL / Qwen3-VL computer_use cookbook (function schema and system prompt)',
  },
  tools: {
    name: 'tools',
    families: ['openai-compatible'],
    fits: 'any vision model with function calling on an OpenAI-compatible server',
    summary: "DeskPilot's computer function, shaped like Claude's computer tool",
    source: 'DeskPilot (providers/openai-compatible/formats.ts)',
  },
  code: {
    name: 'code',
    families: ['anthropic', 'openai', 'openai-compatible'],
    fits: 'any model that writes code; fenced code blocks for models without function calling; text-only models (vision: false) read the element list and OCR text instead of screenshots',
    summary: 'one execute tool {language: python | javascript | shell, code}: persistent sessions whose computer API acts through the gate',
    source: "Open Interpreter's classic harness (execute; OS mode's computer API)",
  },
  hybrid: {
    name: 'hybrid',
    families: ['anthropic', 'openai', 'openai-compatible'],
    fits: 'function-calling models that also write code (the GUI tool is the family\'s: claude-computer, openai-computer, qwen-vl or tools; not UI-TARS, which has no function calling)',
    summary: "the family's computer tool and execute in one loop: the model picks per step, told that code is better for files, data, repeated inputs and anything with an API or command line",
    source: 'CoAct-1 (arXiv 2508.03923: GUI operator or programmer per step); Open Interpreter execute',
  },
  'planner-grounder': {
    name: 'planner-grounder',
    families: ['anthropic', 'openai', 'openai-compatible'],
    fits: 'any model, vision or text-only (profile vision: false), local ones included: it says what to act on, the grounder finds where',
    summary: "one act tool {action, target, …} whose targets are descriptions (or one action per text line: click(\"the Save button\")), resolved to points by the accessibility tree, OCR, a grounding model (--grounder-profile) and a zoomed second look",
    source: 'Agent S2 (arXiv 2504.00906: planner and grounding split); zoom-in refinement (arXiv 2504.07981)',
  },
};

/** Harnesses that fit any model of their families, so another model keeps them (`--model` drops a model-specific harness). */
export const MODEL_INDEPENDENT_HARNESSES: readonly HarnessName[] = ['code', 'hybrid', 'planner-grounder'];

/**
 * Harnesses a model without vision (profile `vision: false`) can work in: they are sent the
 * element list and the screen's OCR lines instead of screenshots (issue 33 for
 * planner-grounder; issue 31 item 5 for code, whose `computer.display.view()` then returns
 * them). Every other harness acts by points the model reads off an image.
 */
export const TEXT_ONLY_HARNESSES: readonly HarnessName[] = ['planner-grounder', 'code'];

/** The harnesses a model gets by its family and id: each family's own GUI harness (also the GUI tool inside `hybrid`). */
export type FamilyHarness = 'claude-computer' | 'openai-computer' | 'ui-tars' | 'qwen-vl' | 'tools';

/** The harness a family uses when neither `harness` nor `format` names one (openai-compatible: by model id, `defaultHarness`). */
const FAMILY_DEFAULT: Readonly<Record<ProviderFamily, FamilyHarness | undefined>> = {
  anthropic: 'claude-computer',
  openai: 'openai-computer',
  'openai-compatible': undefined,
};

/** The harness a model gets when its profile names none: by family, and on an OpenAI-compatible server by model id. `hybrid` adds execute to this one. */
export function defaultHarness(profile: { provider: ProviderFamily; model: string }): FamilyHarness {
  const byFamily = FAMILY_DEFAULT[profile.provider];
  if (byFamily) return byFamily;
  if (/ui-?tars/i.test(profile.model)) return 'ui-tars';
  if (/qwen.*vl|qwen-?3-?vl/i.test(profile.model)) return 'qwen-vl';
  return 'tools';
}

/** What a profile says about its harness (the config's ProviderProfile has these fields). */
export interface HarnessChoice {
  provider: ProviderFamily;
  model: string;
  harness?: HarnessName | undefined;
  format?: FormatHarness | undefined;
  /** false: a model that reads no images (only the TEXT_ONLY_HARNESSES send it none). */
  vision?: boolean | undefined;
}

/**
 * Why a profile's harness cannot be used, or undefined: a `format` that names another
 * harness than `harness` (the old key and the new one disagree), or a harness whose wire
 * the provider family does not speak.
 */
export function harnessProblem(profile: HarnessChoice): string | undefined {
  if (profile.harness !== undefined && profile.format !== undefined && profile.format !== profile.harness) {
    return `format "${profile.format}" and harness "${profile.harness}" disagree: format is the older name of the harness; keep harness and remove format`;
  }
  const name = profile.harness ?? profile.format;
  if (name !== undefined && !HARNESSES[name].families.includes(profile.provider)) {
    return `harness "${name}" does not run on ${profile.provider} (it runs on ${HARNESSES[name].families.join(', ')}); see deskpilot harnesses`;
  }
  if (profile.vision === false && !TEXT_ONLY_HARNESSES.includes(name ?? defaultHarness(profile))) {
    return `vision: false: a model without vision needs harness "planner-grounder" or "code", which send it the element list and the screen's words instead of screenshots`;
  }
  if (name === 'hybrid' && defaultHarness(profile) === 'ui-tars') {
    return `harness "hybrid" needs function calling, and ${profile.model} is a UI-TARS model (text actions, no functions): use harness "ui-tars" or "code"`;
  }
  return undefined;
}

/** The harness of a profile: `harness`, else `format` (its older name), else by family and model. Call `harnessProblem` first. */
export function harnessOf(profile: HarnessChoice): HarnessName {
  return profile.harness ?? profile.format ?? defaultHarness(profile);
}

/** The harness worth naming beside a model (a header, a report): none when it is the family's own for that model, which the family and model already say. */
export function namedHarness(profile: HarnessChoice): HarnessName | undefined {
  const name = harnessOf(profile);
  return name === defaultHarness(profile) ? undefined : name;
}
