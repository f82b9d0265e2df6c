// Types for the layer table (layers.js is plain JS because eslint.config.js loads it).
import type { ESLint } from 'eslint';

export interface Layer {
  name: string;
  /** Repository-relative path prefixes ('src/shared/') or single files ('src/main/paths.ts'). */
  paths: string[];
  /** The layers this one may import from, besides itself. */
  may: string[];
}
export const LAYERS: Layer[];
export function layerOf(relativePath: string): Layer | undefined;
/** The runner's own files: outside src/main/agent/ they are reached through agent/index.ts only. */
export const RUNNER_PATHS: string[];
declare const plugin: ESLint.Plugin;
export default plugin;
