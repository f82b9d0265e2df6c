import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider, resolveApiKey } from '../../src/main/agent/providers/index.js';
import { resolveRunChoices } from '../../src/main/agent/runner/choices.js';
import { BUILT_IN_PROFILES, ConfigError, defaultConfig } from '../../src/main/config/index.js';
import { buildSystemPrompt } from '../../src/main/agent/system-prompt.js';
import { BASE_URL_ENVS, DEFAULT_KEY_ENVS, PROVIDER_FAMILIES, PROVIDERS } from '../../src/shared/providers.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { FAST_RETRY, builtinTools, image, observation, signal } from './helpers.js';

// One ProviderDescriptor per family (src/shared/providers.ts): every place that needs a
// provider's key variable, base-URL variable, default model or wire API reads it. Each
// family is driven end to end here by its descriptor alone — the environment variables
// it names, the API the fake model routes by — so a row that lies fails.

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await startFakeModel();
});
afterAll(async () => {
  await fake?.close();
});

/** A config whose only profile names no base URL (the built-in ollama profile has one). */
const bare = () => ({ ...defaultConfig(), profiles: { only: { provider: 'anthropic' as const, model: 'm' } }, defaultProfile: 'only' });

describe('ProviderDescriptor', () => {
  for (const family of PROVIDER_FAMILIES) {
    const d = PROVIDERS[family];
    it(`${family}: key and base URL come from the variables the descriptor names, and its API answers`, async () => {
      expect(d.family).toBe(family);
      const env = { [d.key.env]: `key-of-${family}`, [d.baseUrlEnv]: fake.baseUrlFor(family) };
      const resolved = resolveApiKey({ provider: family }, env);
      expect(resolved.apiKey).toBe(`key-of-${family}`);
      expect(resolved.baseUrl).toBe(fake.baseUrlFor(family));
      // Run choices fill the base URL from the same variable.
      const choices = resolveRunChoices(bare(), { provider: family, model: d.defaultModel }, env);
      expect(choices.profile.baseUrl).toBe(fake.baseUrlFor(family));
      fake.script({ text: `hello from ${family}` });
      const provider = createProvider({ provider: family, model: d.defaultModel }, { apiKey: resolved.apiKey!, baseUrl: resolved.baseUrl!, retry: FAST_RETRY });
      expect(provider.family).toBe(family);
      const before = fake.requests.length;
      const turn = await provider.turn({ system: 's', transcript: [{ role: 'user', text: 'x', image: image(800, 600) }], observation: observation(800, 600), tools: builtinTools('finish') }, signal());
      expect(turn.assistant.text).toContain(`hello from ${family}`);
      expect(fake.requests[before]!.protocol).toBe({ messages: 'anthropic', responses: 'responses', chat: 'chat' }[d.api]);
    });

    it(`${family}: a base URL is required exactly when the descriptor says so`, () => {
      const run = () => resolveRunChoices(bare(), { provider: family, model: 'm' }, {});
      if (d.baseUrlRequired) {
        expect(run).toThrow(ConfigError);
        expect(run).toThrow(d.baseUrlEnv);
        expect(() => createProvider({ provider: family, model: 'm' }, { apiKey: 'k' })).toThrow(d.baseUrlEnv);
      } else {
        expect(run().profile.baseUrl).toBeUndefined();
        expect(createProvider({ provider: family, model: 'm' }, { apiKey: 'k' }).family).toBe(family);
      }
    });
  }

  it('a provider whose key is optional gets a placeholder, one whose key is required gets none', () => {
    for (const d of Object.values(PROVIDERS)) {
      expect(resolveApiKey({ provider: d.family }, {}).apiKey).toBe(d.key.required ? undefined : 'not-needed');
    }
  });

  it('the built-in profiles use the default models; the key and base-URL lists hold each variable once', () => {
    expect(BUILT_IN_PROFILES.claude).toMatchObject({ provider: 'anthropic', model: PROVIDERS.anthropic.defaultModel });
    expect(BUILT_IN_PROFILES.openai).toMatchObject({ provider: 'openai', model: PROVIDERS.openai.defaultModel });
    expect(DEFAULT_KEY_ENVS).toEqual(['ANTHROPIC_API_KEY', 'OPENAI_API_KEY']);
    expect(BASE_URL_ENVS).toEqual(['ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL']);
  });

  it("the system prompt carries a family's note and no other's", () => {
    const prompt = (family: (typeof PROVIDER_FAMILIES)[number]) =>
      buildSystemPrompt({ family, platform: 'linux', screen: { width: 100, height: 100 }, date: new Date() });
    for (const family of PROVIDER_FAMILIES) {
      for (const other of PROVIDER_FAMILIES) {
        const note = PROVIDERS[other].promptNote;
        if (note) expect(prompt(family).includes(note)).toBe(family === other);
      }
    }
  });
});
