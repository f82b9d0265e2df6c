import { z } from 'zod';
import { killHotkeyProblem } from './accelerator.js';
import { PolicyModeSchema } from './approvals.js';
import { LimitsSchema } from './events.js';
import { FORMAT_HARNESSES, HarnessNameSchema } from './harnesses.js';
import { ProviderFamilySchema } from './providers.js';
import { SandboxModeSchema } from './sandbox.js';

export { ProviderFamilySchema };

/**
 * The user's configuration: `$DESKPILOT_HOME/config.json` (default ~/.deskpilot).
 * Documented in docs/CONFIG.md. API keys are never stored here: they come from the
 * provider's environment variable or, in the desktop app, from the OS keychain
 * (Electron safeStorage).
 */

/**
 * How a model finds its targets (issue 16; docs/CONFIG.md):
 * - `pixels`: the screenshot only; the model gives coordinates.
 * - `both`: the screenshot, plus a short list of the visible interactive elements with
 *   ids (agent/grounding) sent with the latest screenshot only; the `element` tool acts
 *   on an id. The default.
 * - `elements`: the list, and the screenshot with the ids drawn on it (set-of-marks)
 *   instead of the plain one, for models that read coordinates badly.
 * A step whose window exposes no accessibility tree is a `pixels` step whatever is set.
 */
export const GroundingSchema = z.enum(['pixels', 'elements', 'both']);
export type Grounding = z.infer<typeof GroundingSchema>;
export const DEFAULT_GROUNDING: Grounding = 'both';

export const ProviderProfileSchema = z
  .object({
    provider: ProviderFamilySchema,
    model: z.string().min(1),
    baseUrl: z.string().url().optional(),
    /** Name of the environment variable that holds the key (default: the provider's, shared/providers.ts). */
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
    /** Force a tool version instead of choosing from the model id, e.g. "computer_20250124". */
    toolVersion: z.string().optional(),
    /** The older name of `harness` for openai-compatible servers (tools, ui-tars, qwen-vl): read as the harness of that name; one that disagrees with `harness` is a config error. */
    format: z.enum(FORMAT_HARNESSES).optional(),
    /** How the model is asked to act (shared/harnesses.ts, `deskpilot harnesses`); default: by the model's family. */
    harness: HarnessNameSchema.optional(),
    /**
     * DeskPilot's reliability guidance on top of the harness's prompt (issue 31, Open
     * Interpreter's harness_guidance): true (default) on; false off, for strict emulation
     * of the maker's harness; text: the person's own guidance instead, after the harness's
     * prompt (at most 4,000 characters, ~1k tokens of every request).
     */
    harnessGuidance: z.union([z.boolean(), z.string().max(4_000)]).optional(),
    /** Anthropic thinking budget / OpenAI reasoning effort, where the model supports it. */
    thinking: z.enum(['off', 'low', 'medium', 'high']).optional(),
    maxOutputTokens: z.number().int().positive().optional(),
    grounding: GroundingSchema.optional(),
    /**
     * false: the model reads no images (a text-only or coding model). Only the planner-grounder
     * harness can use one: it is sent the element list and the screen's OCR words instead.
     */
    vision: z.boolean().optional(),
    /**
     * Screenshot size caps instead of the ones chosen for the model (docs/CONFIG.md):
     * long edge in pixels and/or width × height. The model's own hard limits still apply.
     */
    screenshot: z
      .object({
        maxLongEdge: z.number().int().min(64).max(8192).optional(),
        maxPixels: z.number().int().min(4096).max(67_108_864).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type ProviderProfile = z.infer<typeof ProviderProfileSchema>;

/** A user rule: allow or deny actions that match every field given. Deny rules win. */
export const UserRuleSchema = z
  .object({
    effect: z.enum(['allow', 'deny']),
    /** Action kinds, e.g. ["type", "key"]. */
    actions: z.array(z.string()).optional(),
    /** Key combos, matched after normalisation, e.g. ["ctrl+q", "alt+F4"]. */
    keys: z.array(z.string()).optional(),
    /** A regular expression matched against typed text or a shell command. */
    textPattern: z.string().optional(),
    /** A regular expression matched against the active window's title or app name. */
    windowPattern: z.string().optional(),
    /**
     * A regular expression matched against the element the action lands on — its name, or
     * `role "name"` (`push button "Delete account"`) — from the accessibility tree read
     * with the screenshot. Without a tree there is no element and the rule does not match.
     */
    elementPattern: z.string().optional(),
    /** Shown to the person and sent to the model when the rule denies. */
    reason: z.string().optional(),
  })
  .strict();
export type UserRule = z.infer<typeof UserRuleSchema>;

export const PriceSchema = z
  .object({
    /** USD per million tokens. */
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    cacheRead: z.number().nonnegative().optional(),
    cacheWrite: z.number().nonnegative().optional(),
  })
  .strict();
export type Price = z.infer<typeof PriceSchema>;

/** How calls of an MCP server's tools pass the gate: a person approves each (ask), the policy decides (auto), or never offered (deny). */
export const McpApprovalSchema = z.enum(['ask', 'auto', 'deny']);
export type McpApproval = z.infer<typeof McpApprovalSchema>;

/** An MCP server's name: the prefix of its tools' names (`<name>__<tool>`), so short and wire-safe. */
export const McpServerNameSchema = z.string().regex(/^[A-Za-z0-9-]{1,24}$/, 'letters, digits and "-", at most 24 (tools are offered as <server>__<tool>)');

const McpServerCommon = {
  /** Default ask: a person approves every call. */
  approval: McpApprovalSchema.default('ask'),
  /** Offer only these tools (names as the server gives them); all when absent. */
  allowTools: z.array(z.string().min(1)).optional(),
  /** Never offer these tools. Wins over allowTools. */
  denyTools: z.array(z.string().min(1)).default([]),
};

/** An MCP server the agent may use (docs/CONFIG.md): started over stdio, or reached over streamable HTTP. */
export const McpServerConfigSchema = z.union([
  z
    .object({
      command: z.string().min(1),
      args: z.array(z.string()).default([]),
      /** Added to a small inherited environment (PATH, HOME …), never the whole one: keys stay out of servers unless named. */
      env: z.record(z.string(), z.string()).default({}),
      cwd: z.string().optional(),
      ...McpServerCommon,
    })
    .strict(),
  z
    .object({
      url: z.string().url(),
      headers: z.record(z.string(), z.string()).default({}),
      ...McpServerCommon,
    })
    .strict(),
]);
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;
/** What the policy needs of a server: its approval and tool lists. */
export type McpServerPolicy = Pick<McpServerConfig, 'approval' | 'allowTools' | 'denyTools'>;

/** Whether a tool of a server may be offered and called, by its allow and deny lists. */
export function mcpToolAllowed(server: McpServerPolicy, tool: string): boolean {
  if (server.denyTools.includes(tool)) return false;
  return server.allowTools === undefined || server.allowTools.includes(tool);
}

/**
 * config.json `sandbox` (issue 30; docs/CONFIG.md "Sandbox"). `mode` absent: workspace-write
 * where a sandbox works, danger-full-access elsewhere (Windows). A property of the
 * workspace and the run, never of a model profile.
 */
export const SandboxConfigSchema = z
  .object({
    mode: SandboxModeSchema.optional(),
    /** workspace-write only: commands may use the network. */
    networkAccess: z.boolean().default(false),
    /** Give sandboxed commands the X display (they can then type into any window). */
    display: z.boolean().default(false),
    /** The workspace of the app and `deskpilot serve` (default ~/DeskPilot); the CLI uses its current folder or --cd. */
    workspace: z.string().min(1).optional(),
  })
  .strict();
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;

export const ConfigSchema = z
  .object({
    /** Name of the profile used when none is given. */
    defaultProfile: z.string().default('claude'),
    profiles: z.record(z.string(), ProviderProfileSchema).default({}),
    /**
     * The profile of a grounding model (UI-TARS, Qwen-VL, any vision model) the target-resolution
     * chain asks when the tree and OCR miss (issue 33); `--grounder-profile` overrides it. A name
     * no profile has is refused when the file is read (load-config.ts), not at the first miss.
     */
    grounderProfile: z.string().trim().min(1, 'names a profile: give its name or leave the key out').optional(),
    policy: z
      .object({
        mode: PolicyModeSchema.default('ask'),
        rules: z.array(UserRuleSchema).default([]),
        /** Auto-approve a held action after this many seconds unless cancelled; off when absent. */
        countdownSeconds: z.number().int().min(1).max(60).optional(),
      })
      .strict()
      .default({ mode: 'ask', rules: [] }),
    limits: LimitsSchema.default({ maxSteps: 50, maxWallMs: 30 * 60_000, maxCostUsd: 5 }),
    context: z
      .object({
        /** Screenshots kept in the model's context (unchanged screens are not sent, so these are different screens). */
        keepImages: z.number().int().min(1).max(50).default(3),
        /**
         * Older screenshots are removed this many at a time. 1 is cheapest with the
         * Anthropic cache breakpoint at the compacted start (issue 19's bench).
         */
        pruneStep: z.number().int().min(1).max(50).default(1),
      })
      .strict()
      .default({ keepImages: 3, pruneStep: 1 }),
    /** Global stop hotkey: an Electron accelerator with a modifier other than Shift (see accelerator.ts). */
    killHotkey: z
      .string()
      .superRefine((text, ctx) => {
        const problem = killHotkeyProblem(text);
        if (problem) ctx.addIssue({ code: 'custom', message: `not a usable stop hotkey: ${problem}` });
      })
      .default('CommandOrControl+Shift+Escape'),
    /** What a person moving the mouse or typing during a run does. */
    takeover: z.enum(['pause', 'ignore']).default('pause'),
    /** Which display the agent sees and acts on; the primary one when absent. */
    displayId: z.string().optional(),
    /** The user's own instructions, added to every system prompt. */
    instructions: z.string().max(20_000).default(''),
    /** Overrides and additions to the built-in price table, by model id. */
    prices: z.record(z.string(), PriceSchema).default({}),
    /** Keep at most this many MB of session history; oldest runs go first. Off when absent. */
    historyCapMb: z.number().int().positive().optional(),
    /**
     * How long one model request may take, every retry included, before the run ends
     * with "the model server gave no answer" (default 300 s; DEFAULT_REQUEST_TIMEOUT_MS).
     */
    requestTimeoutSeconds: z.number().int().min(1).max(3600).optional(),
    /** MCP servers whose tools the agent is offered (docs/CONFIG.md). */
    mcpServers: z.record(McpServerNameSchema, McpServerConfigSchema).default({}),
    /** The sandbox shell commands run in (docs/CONFIG.md "Sandbox"; --sandbox etc. override it for one run). */
    sandbox: SandboxConfigSchema.optional(),
  })
  .strict();

export type Config = z.infer<typeof ConfigSchema>;
