import { describe, expect, it } from 'vitest';
import { ConfigError, defaultConfig } from '../../src/main/config/index.js';
import { resolveRunChoices } from '../../src/main/agent/runner/choices.js';

// Which profile, policy and limits a run gets from the config and the person's choices.
describe('resolveRunChoices', () => {
  const config = defaultConfig();

  it('uses the default profile, the config policy and limits when nothing is chosen', () => {
    const r = resolveRunChoices(config, {}, {});
    expect(r.profile).toEqual(config.profiles[config.defaultProfile]);
    expect(r.policy).toBe('ask');
    expect(r.limits).toEqual(config.limits);
  });

  it('picks a profile of the chosen provider and applies overrides on top', () => {
    const r = resolveRunChoices(config, { provider: 'openai', model: 'gpt-5.4-mini', policy: 'auto', limits: { maxSteps: 7, maxCostUsd: undefined } }, {});
    expect(r.profile).toMatchObject({ provider: 'openai', model: 'gpt-5.4-mini' });
    expect(r.policy).toBe('auto');
    expect(r.limits).toEqual({ ...config.limits, maxSteps: 7 });
  });

  it('takes the base URL from the flag, else the profile, else the provider environment variable', () => {
    expect(resolveRunChoices(config, { provider: 'anthropic' }, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/' }).profile.baseUrl).toBe('http://127.0.0.1:9/');
    expect(resolveRunChoices(config, { provider: 'anthropic', baseUrl: 'http://x.test/' }, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/' }).profile.baseUrl).toBe('http://x.test/');
    expect(resolveRunChoices(config, { profile: 'ollama' }, { OPENAI_BASE_URL: 'http://other/' }).profile.baseUrl).toBe('http://127.0.0.1:11434/v1');
  });

  it('drops family-specific settings when the provider changes', () => {
    const r = resolveRunChoices(config, { profile: 'ollama', provider: 'anthropic', model: 'claude-sonnet-5-5' }, {});
    expect(r.profile).toEqual({ provider: 'anthropic', model: 'claude-sonnet-5-5' });
  });

  it('a model given on top of a profile speaks its own format, not the profile model\'s (issue 14 class 5)', () => {
    // The first openai-compatible profile is `ollama` (qwen3-vl, format qwen-vl): the README's form with a UI-TARS model.
    const r = resolveRunChoices(config, { provider: 'openai-compatible', model: 'ui-tars-1.5-7b', baseUrl: 'http://127.0.0.1:9/v1' }, {});
    expect(r.profile).toMatchObject({ provider: 'openai-compatible', model: 'ui-tars-1.5-7b', baseUrl: 'http://127.0.0.1:9/v1' });
    expect(r.profile.format).toBeUndefined();
    expect(resolveRunChoices(config, { profile: 'lm-studio', model: 'qwen2.5-vl-7b-instruct' }, {}).profile.format).toBeUndefined();
    // A format the person set for the very model in use stays.
    expect(resolveRunChoices(config, { profile: 'ollama', model: 'qwen3-vl' }, {}).profile.format).toBe('qwen-vl');
    expect(resolveRunChoices(config, { profile: 'lm-studio' }, {}).profile.format).toBe('ui-tars');
    const custom = { ...config, profiles: { ...config.profiles, mine: { provider: 'openai-compatible' as const, model: 'my-tuned-vl', baseUrl: 'http://x/v1', format: 'ui-tars' as const } } };
    expect(resolveRunChoices(custom, { profile: 'mine' }, {}).profile.format).toBe('ui-tars');
  });

  it('--grounding overrides the profile\'s grounding for one run; without it the profile\'s stays', () => {
    const custom = { ...config, profiles: { ...config.profiles, marks: { provider: 'anthropic' as const, model: 'claude-sonnet-4-6', grounding: 'elements' as const } } };
    expect(resolveRunChoices(custom, { profile: 'marks' }, {}).profile.grounding).toBe('elements');
    expect(resolveRunChoices(custom, { profile: 'marks', grounding: 'pixels' }, {}).profile.grounding).toBe('pixels');
  });

  it('gives clear errors for an unknown profile or a local server without a URL', () => {
    expect(() => resolveRunChoices(config, { profile: 'nope' }, {})).toThrow(ConfigError);
    expect(() => resolveRunChoices(config, { profile: 'nope' }, {})).toThrow(/unknown profile "nope"/);
    expect(() => resolveRunChoices({ ...config, profiles: {} }, { provider: 'openai-compatible', model: 'm' }, {})).toThrow(/needs a base URL/);
  });
});
