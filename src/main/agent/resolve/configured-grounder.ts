import type { Config } from '../../../shared/config.js';
import { resolveProfile } from '../../config/index.js';
import { createProvider } from '../providers/index.js';
import { providerGrounder, type Grounder } from './grounder.js';

/**
 * The grounding model a resolution asks (stage c): the profile `--grounder-profile` names
 * (or the MCP tool's `grounder_profile`), else config `grounderProfile`; none when neither
 * names one — the chain then stops after the tree and OCR and says so in its notes. An
 * unknown name is resolveProfile's ConfigError, which lists the profiles there are.
 */
export function configuredGrounder(config: Config, override?: string): Grounder | undefined {
  const name = override ?? config.grounderProfile;
  if (name === undefined) return undefined;
  const profile = resolveProfile(config, name);
  // The run's request timeout bounds the grounder's requests too (retries included): a grounder that is down is said within it.
  const timeout = config.requestTimeoutSeconds !== undefined ? { requestTimeoutMs: config.requestTimeoutSeconds * 1000 } : {};
  return providerGrounder(createProvider(profile, timeout), `${name} (${profile.model})`);
}
