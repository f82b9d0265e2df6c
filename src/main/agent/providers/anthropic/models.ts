import type { ImageTarget } from '../../../../os-control/types.js';
import type { ProviderProfile } from '../../../../shared/config.js';

/**
 * What each Claude model wants: which computer tool, which thinking switch, how big
 * a screenshot. Follows @anthropic-ai/sdk 1.14.0 (computer_toolset_20260801 GA,
 * computer_20251124 / computer_20250124 beta) and the computer-use / vision docs:
 * - computer_20250124 (beta "computer-use-2025-01-24"): Sonnet 4.5, Haiku 4.5, Opus 4.1, Sonnet 4, Opus 4, Sonnet 3.7.
 * - computer_20251124 (beta "computer-use-2025-11-24", zoom): Opus 4.5, Opus 4.6, Sonnet 4.6, Opus 4.7, Opus 4.8.
 * - computer_toolset_20260801 (GA, no beta header): the 5.x generation and anything newer we do not know.
 * Older models read images up to 1568 px on the long edge and ~1.15 MP (1568 28-px
 * patches); Opus 4.7 and later read up to 2576 px on the long edge (~4784 patches).
 */

export type ClaudeToolVersion = 'computer_toolset_20260801' | 'computer_20251124' | 'computer_20250124';

export const TOOL_VERSIONS: readonly ClaudeToolVersion[] = ['computer_toolset_20260801', 'computer_20251124', 'computer_20250124'];

export const BETA_HEADERS: Record<ClaudeToolVersion, string | undefined> = {
  computer_toolset_20260801: undefined,
  computer_20251124: 'computer-use-2025-11-24',
  computer_20250124: 'computer-use-2025-01-24',
};

const OLD_2025_01 = [/claude-sonnet-4-5/, /claude-haiku-4-5/, /claude-opus-4-1/, /claude-sonnet-4(?:-\d{8})?$/, /claude-opus-4(?:-\d{8})?$/, /claude-3-7-sonnet/, /claude-sonnet-3-7/, /claude-3-5-sonnet/];
const OLD_2025_11 = [/claude-opus-4-5/, /claude-opus-4-6/, /claude-sonnet-4-6/, /claude-opus-4-7/, /claude-opus-4-8/];

export function chooseToolVersion(profile: Pick<ProviderProfile, 'model' | 'toolVersion'>): ClaudeToolVersion {
  const forced = profile.toolVersion;
  if (forced) {
    if ((TOOL_VERSIONS as readonly string[]).includes(forced)) return forced as ClaudeToolVersion;
    throw new Error(`unknown Anthropic tool version "${forced}" (known: ${TOOL_VERSIONS.join(', ')})`);
  }
  const model = profile.model.toLowerCase();
  if (OLD_2025_01.some((r) => r.test(model))) return 'computer_20250124';
  if (OLD_2025_11.some((r) => r.test(model))) return 'computer_20251124';
  return 'computer_toolset_20260801';
}

/** Models that read large images (Opus 4.7 and later). */
function readsLargeImages(model: string): boolean {
  const m = model.toLowerCase();
  if (/claude-opus-4-[78]/.test(m)) return true;
  return !OLD_2025_01.some((r) => r.test(m)) && !OLD_2025_11.some((r) => r.test(m));
}

/**
 * Screenshot pixel budgets, chosen by what grounding needs rather than by the largest
 * image a model reads (issue 19: a 1920×1080 screenshot is ~2,765 tokens, resent on
 * every step). The computer-use docs recommend XGA-class screenshots (1024×768; the
 * reference demo scales 16:9 screens to 1366×768) for clicking accuracy; finer detail
 * (small text, icons) is what zoom is for.
 * - Models with zoom (computer_20251124, the GA toolset): 1024×576 on a 16:9 screen
 *   (786 tokens), and they ask for a region at full resolution when they need detail.
 * - computer_20250124 models cannot zoom: the full XGA area, 1182×665 on 16:9 (1,048 tokens).
 * Users override both caps per profile (`screenshot` in config.json, docs/CONFIG.md).
 */
export const GROUNDING_PIXELS = { withZoom: 1024 * 576, withoutZoom: 1024 * 768 } as const;

export function claudeImageTarget(model: string, version: ClaudeToolVersion = chooseToolVersion({ model })): ImageTarget {
  // JPEG: encoding is 3–5× faster than PNG at these sizes and the model reads both alike.
  // maxPatches without multipleOf counts Claude's ceil(w/28)·ceil(h/28) patches (os-control/image).
  const maxPixels = version === 'computer_20250124' ? GROUNDING_PIXELS.withoutZoom : GROUNDING_PIXELS.withZoom;
  if (readsLargeImages(model)) return { format: 'jpeg', quality: 85, maxLongEdge: 2576, maxPatches: 4784, maxPixels };
  return { format: 'jpeg', quality: 85, maxLongEdge: 1568, maxPatches: 1568, maxPixels };
}

/** Adaptive thinking + effort (Opus 4.6 and later) or a fixed thinking budget (older). */
export function usesAdaptiveThinking(model: string): boolean {
  const m = model.toLowerCase();
  if (/claude-opus-4-[678]|claude-sonnet-4-6/.test(m)) return true;
  return !OLD_2025_01.some((r) => r.test(m)) && !OLD_2025_11.some((r) => r.test(m));
}

export const THINKING_BUDGETS = { low: 2048, medium: 8192, high: 24_576 } as const;
