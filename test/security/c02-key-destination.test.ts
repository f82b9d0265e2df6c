import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/shared/config.js';
import type { Computer } from '../../src/os-control/types.js';
import type { RunHandle, RunOptions } from '../../src/main/agent/run-api.js';
import { saveConfig, loadConfig } from '../../src/main/config/index.js';
import { createBridgeService } from '../../src/main/service/index.js';
import { BridgeError, type BridgeService, type ClientInfo } from '../../src/main/service/types.js';

// Class 2: a bridge client (any token holder of `deskpilot serve`) may pick a profile
// but never where its API key goes. What the runner is asked to start is recorded:
// on the old code run.start sent the environment key to any baseUrl the client named.

const KEY = 'sk-ant-api03-REALKEYREALKEYREALKEY0000';
const browser: ClientInfo = { id: 'ws:1', kind: 'ws' };
const desktop: ClientInfo = { id: 'electron', kind: 'electron' };

let home: string;
let started: RunOptions[];
let service: BridgeService;

beforeEach(async () => {
  home = mkdtempSync(path.join(tmpdir(), 'dp-sec-c02-'));
  await saveConfig(
    ConfigSchema.parse({
      defaultProfile: 'claude',
      profiles: {
        claude: { provider: 'anthropic', model: 'claude-sonnet-4-6' },
        proxy: { provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: 'https://llm-proxy.corp.example/v1' },
      },
    }),
    home,
  );
  started = [];
  service = createBridgeService({
    home,
    // Never touched: run.start is refused or handed to the recording startRun below, and nobody watches frames.
    computer: {} as Computer,
    env: { ANTHROPIC_API_KEY: KEY },
    startRun: async (options) => {
      started.push(options);
      let end!: () => void;
      const runId = `run-${started.length}`;
      const done = new Promise<void>((resolve) => (end = resolve)).then(() => ({ runId, status: 'stopped' as const, summary: '', steps: 0, costUsd: 0 }));
      const handle: RunHandle = {
        runId,
        dir: home,
        done,
        stop: () => end(),
        pause: () => {},
        resume: () => {},
        answerApproval: () => false,
        answerQuestion: () => false,
      };
      return handle;
    },
  });
});
afterEach(async () => {
  await service.close();
  rmSync(home, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<BridgeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeError);
  return error as BridgeError;
}

describe('run.start: the key goes only to the profile’s own base URL', () => {
  it('refuses a browser-chosen base URL with a clear message, and starts nothing', async () => {
    for (const baseUrl of ['https://attacker.example/v1', 'http://127.0.0.1:9/', 'https://llm-proxy.corp.example.attacker.example/v1', 'https://api.anthropic.com.evil.example/']) {
      const err = await refusal(service.call('run.start', { task: 'x', profile: 'claude', baseUrl }, browser));
      expect(err.code).toBe('invalid');
      expect(err.message).toMatch(/refused: the API key is only sent to a base URL you configured/);
    }
    // Another profile's URL is not this profile's.
    await refusal(service.call('run.start', { task: 'x', profile: 'claude', baseUrl: 'https://llm-proxy.corp.example/v1' }, browser));
    expect(started).toHaveLength(0);
  });

  it('starts with the profile’s own URL (named again, or left out), key attached', async () => {
    await service.call('run.start', { task: 'x', profile: 'proxy', baseUrl: 'https://llm-proxy.corp.example/v1/' }, browser);
    expect(started[0]).toMatchObject({ apiKey: KEY, profile: { baseUrl: 'https://llm-proxy.corp.example/v1/' } });
  });

  it('a profile without a base URL goes to the provider’s own endpoint', async () => {
    await service.call('run.start', { task: 'x', profile: 'claude' }, browser);
    expect(started[0]?.profile.baseUrl).toBeUndefined();
    expect(started[0]?.apiKey).toBe(KEY);
  });
});

describe('settings.save from a browser cannot re-route a key', () => {
  it('refuses a profile pointed at a new remote URL or a new key variable there; the config is unchanged', async () => {
    const before = await loadConfig(home);
    const evil = structuredClone(before);
    evil.profiles.claude = { provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: 'https://attacker.example/' };
    expect((await refusal(service.call('settings.save', { config: evil }, browser))).message).toMatch(/profile claude: refused from a browser/);
    const added = structuredClone(before);
    added.profiles.x = { provider: 'openai-compatible', model: 'm', baseUrl: 'https://attacker.example/v1' };
    await refusal(service.call('settings.save', { config: added }, browser));
    const moved = structuredClone(before);
    moved.profiles.proxy = { provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: 'https://llm-proxy.corp.example/v1', apiKeyEnv: 'GITHUB_TOKEN' };
    // Same URL as before, other key variable: still the profile's own URL, allowed.
    await service.call('settings.save', { config: moved }, browser);
    expect((await loadConfig(home)).profiles.proxy?.apiKeyEnv).toBe('GITHUB_TOKEN');
    expect((await loadConfig(home)).profiles.claude?.baseUrl).toBeUndefined();
    expect((await loadConfig(home)).profiles.x).toBeUndefined();
  });

  it('allows a loopback model server from the browser, and anything from the desktop app', async () => {
    const before = await loadConfig(home);
    const local = structuredClone(before);
    local.profiles.ollama = { provider: 'openai-compatible', model: 'qwen', baseUrl: 'http://127.0.0.1:11434/v1' };
    await service.call('settings.save', { config: local }, browser);
    const remote = structuredClone(local);
    remote.profiles.claude = { provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: 'https://my-gateway.example/' };
    await service.call('settings.save', { config: remote }, desktop);
    expect((await loadConfig(home)).profiles.claude?.baseUrl).toBe('https://my-gateway.example/');
  });
});
