import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_SPECS } from '../../src/main/agent/providers/builtin-tools.js';
import { buildSystemPrompt } from '../../src/main/agent/system-prompt.js';

describe('buildSystemPrompt', () => {
  it('states OS, screenshot size, date, tools, skills and the user instructions', () => {
    const prompt = buildSystemPrompt({
      family: 'anthropic',
      platform: 'linux',
      screen: { width: 1280, height: 720 },
      date: new Date('2026-11-30T10:00:00Z'),
      instructions: 'Always use dark mode.',
      skills: [{ name: 'qa', description: 'Test apps', body: 'Take a screenshot before each check.' }],
      tools: BUILTIN_TOOL_SPECS,
    });
    expect(prompt).toContain('Linux (X11)');
    expect(prompt).toContain('1280×720');
    expect(prompt).toContain('2026-11-30');
    expect(prompt).toContain('Always use dark mode.');
    expect(prompt).toContain('<skill name="qa">');
    expect(prompt).toContain('Take a screenshot before each check.');
    expect(prompt).toMatch(/shell: run a bash command/);
    expect(prompt).toMatch(/ask_user/);
    expect(prompt).not.toMatch(/find_text/);
  });

  it("lists a caller's tool by its own description, without the prompt knowing it", () => {
    const prompt = buildSystemPrompt({
      family: 'anthropic',
      platform: 'linux',
      screen: { width: 1280, height: 720 },
      date: new Date(),
      tools: [...BUILTIN_TOOL_SPECS, { name: 'weather_now', description: 'Read the current weather for a city.' }],
    });
    expect(prompt).toContain('- weather_now: Read the current weather for a city.');
    expect(prompt).toMatch(/- finish: call it when the task is done/);
  });

  it('names PowerShell on Windows', () => {
    const prompt = buildSystemPrompt({ family: 'openai', platform: 'win32', screen: { width: 1024, height: 768 }, date: new Date(), tools: BUILTIN_TOOL_SPECS.filter((t) => t.name === 'shell') });
    expect(prompt).toContain('PowerShell');
    expect(prompt).toContain('Windows');
  });
});
