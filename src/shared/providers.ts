import { z } from 'zod';

/**
 * The model providers, each described once. Config's schema, key and base-URL lookup
 * (agent/providers), run choices, the bridge service's key list and trusted base URLs,
 * the system prompt, Settings in the renderer, `deskpilot doctor` and the fake model
 * server of the tests all read this table; a new provider is a row here, its factory
 * in `agent/providers/index.ts` and its folder there (docs/ARCHITECTURE.md, "where
 * does my change go").
 *
 * How a screenshot is sized for a model (its image target) is not here: it depends on
 * the model id (Opus 4.7+ reads 2576 px, older Claude 1568 px; UI-TARS 1.0 a 0–1000
 * grid …) and lives beside each provider's model table (`anthropic/models.ts`,
 * `openai/provider.ts`, `openai-compatible/formats.ts`), reached through
 * `Provider.imageTarget`.
 */

export const PROVIDER_FAMILIES = ['anthropic', 'openai', 'openai-compatible'] as const;
export const ProviderFamilySchema = z.enum(PROVIDER_FAMILIES);
export type ProviderFamily = z.infer<typeof ProviderFamilySchema>;

export interface ProviderDescriptor {
  readonly family: ProviderFamily;
  /** How a person sees it named (Settings, doctor). */
  readonly label: string;
  /**
   * The environment variable a key is read from when the profile names none
   * (`apiKeyEnv`). `required: false` (local servers): no key is fine, the SDK gets the
   * placeholder `not-needed`.
   */
  readonly key: { readonly env: string; readonly required: boolean };
  /** The environment variable a base URL is read from when the profile has none. */
  readonly baseUrlEnv: string;
  /** True when there is no public default endpoint: a run needs a base URL. */
  readonly baseUrlRequired: boolean;
  /** The model of the built-in profile for this provider. */
  readonly defaultModel: string;
  /** Which wire API it speaks (the fake model server routes by it). */
  readonly api: 'messages' | 'responses' | 'chat';
  /** Appended to the system prompt for this family, if anything. */
  readonly promptNote?: string;
}

export const PROVIDERS: Readonly<Record<ProviderFamily, ProviderDescriptor>> = {
  anthropic: {
    family: 'anthropic',
    label: 'Anthropic',
    key: { env: 'ANTHROPIC_API_KEY', required: true },
    baseUrlEnv: 'ANTHROPIC_BASE_URL',
    baseUrlRequired: false,
    defaultModel: 'claude-sonnet-5-5',
    api: 'messages',
  },
  openai: {
    family: 'openai',
    label: 'OpenAI',
    key: { env: 'OPENAI_API_KEY', required: true },
    baseUrlEnv: 'OPENAI_BASE_URL',
    baseUrlRequired: false,
    defaultModel: 'gpt-5.4',
    api: 'responses',
  },
  'openai-compatible': {
    family: 'openai-compatible',
    label: 'OpenAI-compatible',
    key: { env: 'OPENAI_API_KEY', required: false },
    baseUrlEnv: 'OPENAI_BASE_URL',
    baseUrlRequired: true,
    defaultModel: 'qwen3-vl',
    api: 'chat',
    // Local servers often parse tool calls out of the text: one step at a time reads best.
    promptNote: 'Answer with exactly the tool calls or actions you want performed, one step at a time.',
  },
};

/** The providers in the order people are shown them. */
export const PROVIDER_LIST: readonly ProviderDescriptor[] = PROVIDER_FAMILIES.map((family) => PROVIDERS[family]);

/** Every key variable a provider reads by default, once each (Settings' and the service's key list). */
export const DEFAULT_KEY_ENVS: readonly string[] = [...new Set(PROVIDER_LIST.filter((p) => p.key.required).map((p) => p.key.env))];

/** Every base-URL variable, once each (trusted destinations for a key). */
export const BASE_URL_ENVS: readonly string[] = [...new Set(PROVIDER_LIST.map((p) => p.baseUrlEnv))];

/**
 * The default request timeout, declared once (config.json `requestTimeoutSeconds` and
 * `--request-timeout` override it). Five minutes: a computer-use turn usually answers
 * in 2–30 s, a long thinking turn in well under 3 min; a server that never answers
 * ends the run after this, instead of 6 attempts × 120 s (over 12 min) as before.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 300_000;
