import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderProfile } from '../../../src/shared/config.js';
import { launchRun } from '../../../src/main/agent/index.js';
import { parseConfig } from '../../../src/main/config/index.js';
import { startFakeModel, type FakeModelServer, type FakeRequest } from '../../harness/fake-model/index.js';
import { createFakeComputer } from '../../harness/fake-computer.js';
import { tempHome, testRunOptions } from '../../e2e/support.js';

// Issue 31 item 1: harnessGuidance. DeskPilot's reliability guidance rides on top of the
// harness's prompt by default; false leaves it out (strict emulation of the maker's
// harness) while the safety lines stay; a text is the person's own guidance instead,
// after the harness's prompt. Asserted on what the model received, on two real wires.

const home = tempHome();
let fake: FakeModelServer;
beforeAll(async () => {
  fake = await startFakeModel();
});
afterAll(async () => {
  await fake.close();
  home.cleanup();
});

const RELIABILITY = 'Prefer keyboard shortcuts when they are reliable';
const SAFETY = 'Never type passwords or secrets';

/** The instructions the model was sent: the Anthropic system blocks, or the Chat Completions system message. */
function instructions(req: FakeRequest): string {
  const body = req.body as { system?: Array<{ text: string }>; messages?: Array<{ role: string; content: unknown }> };
  if (Array.isArray(body.system)) return body.system.map((b) => b.text).join('\n');
  const system = body.messages?.find((m) => m.role === 'system');
  return typeof system?.content === 'string' ? system.content : JSON.stringify(system?.content ?? '');
}

async function systemFor(profile: ProviderProfile): Promise<string> {
  fake.script({ text: 'Nothing to do.' });
  const first = fake.requests.length;
  const handle = await launchRun({ ...testRunOptions({ task: 'look', profile, computer: createFakeComputer(), home: home.home }), surface: 'cli' });
  expect((await handle.done).status).toBe('done');
  return instructions(fake.requests[first]!);
}

describe('harnessGuidance', () => {
  it('on by default, off for strict emulation (the safety lines stay), a text of the person after the harness prompt (Anthropic wire, hybrid)', async () => {
    const base: ProviderProfile = { provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: fake.anthropicBaseUrl, harness: 'hybrid' };
    const byDefault = await systemFor(base);
    expect(byDefault).toContain(RELIABILITY);
    expect(byDefault).toContain(SAFETY);
    const strict = await systemFor({ ...base, harnessGuidance: false });
    expect(strict).not.toContain(RELIABILITY);
    expect(strict).toContain(SAFETY);
    // The harness's own prompt is not guidance: it stays.
    expect(strict).toContain('you have two tools, and you choose for each step');
    const own = await systemFor({ ...base, harnessGuidance: 'Save every file with ctrl+s before you finish.' });
    expect(own).not.toContain(RELIABILITY);
    expect(own).toContain("Guidance for this harness, from the person's profile:\nSave every file with ctrl+s before you finish.");
    expect(own.indexOf('Save every file')).toBeGreaterThan(own.indexOf('you have two tools'));
  }, 60_000);

  it('the same on the Chat Completions wire of a GUI harness (qwen-vl)', async () => {
    const base: ProviderProfile = { provider: 'openai-compatible', model: 'qwen3-vl:8b', baseUrl: fake.openaiBaseUrl };
    expect(await systemFor(base)).toContain(RELIABILITY);
    const strict = await systemFor({ ...base, harnessGuidance: false });
    expect(strict).not.toContain(RELIABILITY);
    expect(strict).toContain(SAFETY);
  }, 60_000);

  it('a profile with a guidance that is neither true/false nor text, or too long, is a config error naming the field', () => {
    const profile = (harnessGuidance: unknown) => JSON.stringify({ profiles: { p: { provider: 'anthropic', model: 'claude-sonnet-5-5', harnessGuidance } } });
    expect(() => parseConfig(profile(3), 'config.json')).toThrow(/profiles\.p\.harnessGuidance/);
    expect(() => parseConfig(profile('x'.repeat(4_001)), 'config.json')).toThrow(/profiles\.p\.harnessGuidance/);
    expect(parseConfig(profile(false), 'config.json').profiles.p!.harnessGuidance).toBe(false);
  });
});
