import type { ProviderProfile } from '../../shared/config.js';
import { apiKeyEnvName, resolveApiKey } from '../agent/providers/index.js';
import type { SecretStore } from './types.js';

/**
 * A profile's key for the app and `deskpilot serve`: the keychain first, then the
 * environment (a local server may need none). run.start and connection.test both ask
 * here, so "Test connection" tries the key a run would use.
 */
export async function profileKey(
  profile: ProviderProfile,
  secrets: SecretStore | undefined,
  env: NodeJS.ProcessEnv,
): Promise<{ keyEnv: string | undefined; apiKey: string | undefined; baseUrl: string | undefined }> {
  const keyEnv = apiKeyEnvName(profile);
  const stored = keyEnv && secrets ? await secrets.get(keyEnv) : undefined;
  const fromEnv = resolveApiKey(profile, env);
  return { keyEnv, apiKey: stored || fromEnv.apiKey, baseUrl: fromEnv.baseUrl };
}
