import type { ImageTarget } from '../../../os-control/types.js';
import type { ProviderProfile } from '../../../shared/config.js';
import type { Provider } from './types.js';

/**
 * A profile's `screenshot` caps (config.json) in place of the ones the provider chose
 * for its model. Only the size caps are replaced: a model's hard limits (Claude's patch
 * count, Qwen's multiples of 28/32, an exact size) stay, and a larger long edge than the
 * model reads is clamped to it.
 */
export function withScreenshotSize(target: ImageTarget, caps: NonNullable<ProviderProfile['screenshot']>): ImageTarget {
  const out: ImageTarget = { ...target };
  if (caps.maxLongEdge !== undefined) out.maxLongEdge = target.maxLongEdge ? Math.min(caps.maxLongEdge, target.maxLongEdge) : caps.maxLongEdge;
  if (caps.maxPixels !== undefined) out.maxPixels = caps.maxPixels;
  return out;
}

/** The provider with the profile's screenshot caps applied to every image it asks for. */
export function applyScreenshotSize(provider: Provider, caps: ProviderProfile['screenshot']): Provider {
  if (!caps) return provider;
  return {
    family: provider.family,
    model: provider.model,
    imageTarget: (capture) => withScreenshotSize(provider.imageTarget(capture), caps),
    turn: (request, signal, callbacks) => provider.turn(request, signal, callbacks),
  };
}
