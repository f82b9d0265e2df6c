import { describe, expect, it } from 'vitest';
import { defaultConfig, parseConfig } from '../../../src/main/config/index.js';
import { resolveRunChoices } from '../../../src/main/agent/runner/choices.js';
import { runHarness } from '../../../src/main/agent/harness/index.js';
import { chooseFormat } from '../../../src/main/agent/providers/openai-compatible/formats.js';
import { HARNESS_NAMES, HARNESSES, harnessOf, harnessProblem } from '../../../src/shared/harnesses.js';
import { fencedCalls } from '../../../src/main/agent/harness/code/fences.js';

// Issue 31 item 1: the harness is a choice of its own — by family when unset, `format`
// read as the harness of that name, a disagreement a config error.

describe('which harness a profile gets', () => {
  it('by family when unset, and on an OpenAI-compatible server by model id, as the formats were chosen', () => {
    expect(harnessOf({ provider: 'anthropic', model: 'claude-sonnet-5-5' })).toBe('claude-computer');
    expect(harnessOf({ provider: 'openai', model: 'gpt-5.4' })).toBe('openai-computer');
    expect(harnessOf({ provider: 'openai-compatible', model: 'ByteDance-Seed/UI-TARS-1.5-7B' })).toBe('ui-tars');
    expect(harnessOf({ provider: 'openai-compatible', model: 'qwen3-vl:8b' })).toBe('qwen-vl');
    expect(harnessOf({ provider: 'openai-compatible', model: 'llama3.2-vision' })).toBe('tools');
  });

  it('reads format as the harness of that name, so every existing profile means what it meant', () => {
    expect(harnessOf({ provider: 'openai-compatible', model: 'anything', format: 'ui-tars' })).toBe('ui-tars');
    expect(chooseFormat({ model: 'qwen2.5-vl', format: 'tools' })).toBe('tools');
    expect(chooseFormat({ model: 'local', harness: 'code' })).toBe('code');
    // The built-in profiles keep their formats as harnesses.
    const config = defaultConfig();
    expect(harnessOf(config.profiles.ollama!)).toBe('qwen-vl');
    expect(harnessOf(config.profiles['lm-studio']!)).toBe('ui-tars');
    expect(harnessOf(config.profiles.claude!)).toBe('claude-computer');
  });

  it('a format that disagrees with harness is a config error naming the profile; the same name twice is fine', () => {
    const bad = JSON.stringify({ profiles: { local: { provider: 'openai-compatible', model: 'm', baseUrl: 'http://127.0.0.1:1/v1', format: 'ui-tars', harness: 'qwen-vl' } } });
    expect(() => parseConfig(bad, 'config.json')).toThrow(/profiles\.local: format "ui-tars" and harness "qwen-vl" disagree/);
    const same = JSON.stringify({ profiles: { local: { provider: 'openai-compatible', model: 'm', baseUrl: 'http://127.0.0.1:1/v1', format: 'ui-tars', harness: 'ui-tars' } } });
    expect(parseConfig(same, 'config.json').profiles.local!.harness).toBe('ui-tars');
  });

  it("a harness the provider's wire cannot carry is a config error, in the file and from a flag", () => {
    const bad = JSON.stringify({ profiles: { c: { provider: 'anthropic', model: 'claude-sonnet-5-5', harness: 'ui-tars' } } });
    expect(() => parseConfig(bad, 'config.json')).toThrow(/harness "ui-tars" does not run on anthropic/);
    expect(() => resolveRunChoices(defaultConfig(), { profile: 'claude', harness: 'openai-computer' })).toThrow(/harness "openai-computer" does not run on anthropic/);
    expect(() => runHarness({ provider: 'openai', model: 'gpt-5.4', harness: 'qwen-vl' })).toThrow(/does not run on openai/);
    expect(harnessProblem({ provider: 'openai', model: 'gpt-5.4', harness: 'code' })).toBeUndefined();
  });

  it('--harness replaces the profile harness and its older format key; another model drops a model-specific harness but keeps code', () => {
    const config = defaultConfig();
    const flagged = resolveRunChoices(config, { profile: 'ollama', harness: 'code' }).profile;
    expect(flagged.harness).toBe('code');
    expect(flagged.format).toBeUndefined();
    expect(runHarness(flagged).name).toBe('code');
    const withCode = { ...config, profiles: { ...config.profiles, coder: { provider: 'openai-compatible' as const, model: 'a', baseUrl: 'http://127.0.0.1:1/v1', harness: 'code' as const }, tars: { provider: 'openai-compatible' as const, model: 'ui-tars-1.5', baseUrl: 'http://127.0.0.1:1/v1', harness: 'ui-tars' as const } } };
    expect(resolveRunChoices(withCode, { profile: 'coder', model: 'b' }).profile.harness).toBe('code');
    expect(resolveRunChoices(withCode, { profile: 'tars', model: 'qwen2.5-vl-7b' }).profile.harness).toBeUndefined();
  });

  it('code and planner-grounder leave out the computer tool; code and hybrid add execute, planner-grounder adds act', () => {
    for (const name of HARNESS_NAMES) {
      const family = HARNESSES[name].families[0]!;
      const harness = runHarness({ provider: family, model: 'm', harness: name });
      expect(harness.computerTool).toBe(name !== 'code' && name !== 'planner-grounder');
      const withCode = name === 'code' || name === 'hybrid';
      expect(harness.tools.map((t) => t.name)).toEqual(withCode ? ['execute'] : name === 'planner-grounder' ? ['act'] : []);
    }
  });

  it('hybrid: the GUI format inside it is the model\'s own; a UI-TARS model (no function calling) is refused by name; another model keeps it', () => {
    expect(chooseFormat({ model: 'qwen3-vl:8b', harness: 'hybrid' })).toBe('qwen-vl');
    expect(chooseFormat({ model: 'llama3.2-vision', harness: 'hybrid' })).toBe('tools');
    expect(() => chooseFormat({ model: 'UI-TARS-1.5-7B', harness: 'hybrid' })).toThrow(/harness "hybrid" needs function calling, and UI-TARS-1.5-7B is a UI-TARS model/);
    const bad = JSON.stringify({ profiles: { tars: { provider: 'openai-compatible', model: 'ui-tars-1.5', baseUrl: 'http://127.0.0.1:1/v1', harness: 'hybrid' } } });
    expect(() => parseConfig(bad, 'config.json')).toThrow(/profiles\.tars: harness "hybrid" needs function calling/);
    expect(harnessProblem({ provider: 'anthropic', model: 'claude-sonnet-5-5', harness: 'hybrid' })).toBeUndefined();
    expect(harnessProblem({ provider: 'openai', model: 'gpt-5.4', harness: 'hybrid' })).toBeUndefined();
    const config = defaultConfig();
    const hybrid = { ...config, profiles: { ...config.profiles, mixed: { provider: 'openai-compatible' as const, model: 'qwen2.5-vl-7b', baseUrl: 'http://127.0.0.1:1/v1', harness: 'hybrid' as const } } };
    expect(resolveRunChoices(hybrid, { profile: 'mixed', model: 'llama3.2-vision' }).profile.harness).toBe('hybrid');
    // The prompt says when code is the better tool, and names the computer API.
    const prompt = runHarness({ provider: 'anthropic', model: 'claude-sonnet-5-5', harness: 'hybrid' }).prompt({ fenced: false, textOnly: false })!;
    expect(prompt).toContain('Prefer it for files and folders, data');
    expect(prompt).toContain('many repeated inputs');
    expect(prompt).toContain('computer.keyboard.write(text)');
  });
});

describe('fenced code blocks (the code harness without function calling)', () => {
  it('runs tagged fences in order, shows untagged ones and other kinds without running them', () => {
    const reply = ['I will look first.', '```', 'print("an example")', '```', '```python', 'x = 1', 'print(x)', '```', '```json', '{"a": 1}', '```', '~~~py', 'y = 2', '~~~', '```js', 'console.log(1)', '```'].join('\n');
    const { calls, untagged } = fencedCalls(reply, 3);
    expect(untagged).toBe(1);
    expect(calls.map((c) => c.input)).toEqual([
      { language: 'python', code: 'x = 1\nprint(x)' },
      { language: 'python', code: 'y = 2' },
      { language: 'javascript', code: 'console.log(1)' },
    ]);
    expect(calls.map((c) => c.callId)).toEqual(['fence_3_0', 'fence_3_1', 'fence_3_2']);
    expect(calls.every((c) => c.name === 'execute' && c.actions.length === 0)).toBe(true);
  });

  it('an unclosed fence runs to the end of the reply; a longer closing fence closes a shorter opening one', () => {
    expect(fencedCalls('```python\nprint(1)', 0).calls[0]!.input).toEqual({ language: 'python', code: 'print(1)' });
    expect(fencedCalls('```python\nprint(1)\n`````\nafter', 0).calls[0]!.input).toEqual({ language: 'python', code: 'print(1)' });
    expect(fencedCalls('````python\n```\ninner\n```\n````', 0).calls[0]!.input).toEqual({ language: 'python', code: '```\ninner\n```' });
  });
});

describe('vision: false (issues 33 and 31)', () => {
  it('the planner-grounder and code harnesses take a model without vision; the config says why for any other', () => {
    expect(runHarness({ provider: 'openai-compatible', model: 'qwen2.5-coder:7b', harness: 'planner-grounder', vision: false }).name).toBe('planner-grounder');
    expect(runHarness({ provider: 'openai-compatible', model: 'qwen2.5-coder:7b', harness: 'code', vision: false }).name).toBe('code');
    expect(runHarness({ provider: 'anthropic', model: 'claude-sonnet-5-5', harness: 'code', vision: false }).name).toBe('code');
    expect(() => runHarness({ provider: 'openai-compatible', model: 'qwen2.5-coder:7b', vision: false })).toThrow(/vision: false: a model without vision needs harness "planner-grounder" or "code"/);
    for (const harness of ['hybrid', 'tools', 'qwen-vl'] as const) {
      expect(harnessProblem({ provider: 'openai-compatible', model: 'qwen2.5-coder:7b', harness, vision: false })).toMatch(/^vision: false: a model without vision needs harness/);
    }
    const coder = JSON.stringify({ profiles: { coder: { provider: 'openai-compatible', model: 'qwen2.5-coder:7b', baseUrl: 'http://127.0.0.1:1/v1', harness: 'code', vision: false } } });
    expect(parseConfig(coder, 'config.json').profiles.coder).toMatchObject({ harness: 'code', vision: false });
    const bad = JSON.stringify({ profiles: { coder: { provider: 'openai-compatible', model: 'qwen2.5-coder:7b', baseUrl: 'http://127.0.0.1:1/v1', harness: 'hybrid', vision: false } } });
    expect(() => parseConfig(bad, 'config.json')).toThrow(/profiles\.coder: vision: false/);
  });

  it('the code harness tells a model without vision that view() returns the screen as text, and one with vision that it sends a screenshot', () => {
    const code = runHarness({ provider: 'openai-compatible', model: 'qwen2.5-coder:7b', harness: 'code' });
    const seeing = code.prompt({ fenced: true, textOnly: false })!;
    const blind = code.prompt({ fenced: true, textOnly: true })!;
    expect(seeing).toContain('computer.display.view(): the screenshot after this block is sent to you');
    expect(blind).not.toContain('the screenshot after this block is sent to you');
    expect(blind).toContain('computer.display.view(): you are sent no screenshots; returns the screen as text: {"width", "height", "elements": [');
    // The rest of the API is the same in both.
    expect(blind.split('\n').length).toBe(seeing.split('\n').length);
  });
});
