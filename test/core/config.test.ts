import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveProfile, saveConfig } from '../../src/main/config/index.js';
import { deskpilotHome } from '../../src/main/paths.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'dp-config-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('config', () => {
  it('uses DESKPILOT_HOME when set, ~/.deskpilot otherwise', () => {
    expect(deskpilotHome({ DESKPILOT_HOME: home })).toBe(home);
    expect(deskpilotHome({})).toBe(path.join(os.homedir(), '.deskpilot'));
  });

  it('gives defaults and built-in profiles when there is no file', async () => {
    const config = await loadConfig(home);
    expect(config.policy.mode).toBe('ask');
    expect(resolveProfile(config).provider).toBe('anthropic');
    expect(config.profiles.ollama?.provider).toBe('openai-compatible');
  });

  it('round-trips a saved config and keeps only the user profiles in the file', async () => {
    const config = await loadConfig(home);
    config.policy.mode = 'risky';
    config.profiles.mine = { provider: 'openai-compatible', model: 'qwen2.5-vl', baseUrl: 'http://127.0.0.1:8000/v1', format: 'qwen-vl' };
    await saveConfig(config, home);
    const onDisk = JSON.parse(await readFile(path.join(home, 'config.json'), 'utf8'));
    expect(Object.keys(onDisk.profiles)).toEqual(['mine']);
    const again = await loadConfig(home);
    expect(again.policy.mode).toBe('risky');
    expect(resolveProfile(again, 'mine').model).toBe('qwen2.5-vl');
    expect(resolveProfile(again, 'claude').provider).toBe('anthropic');
  });

  it('names the file and every bad field of an invalid config', async () => {
    await writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ policy: { mode: 'yolo' }, limits: { maxSteps: -1 }, surprise: true }),
    );
    const error = await loadConfig(home).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(path.join(home, 'config.json'));
    expect(message).toContain('policy.mode');
    expect(message).toContain('limits.maxSteps');
    expect(message).toMatch(/surprise/);
  });

  it('reports broken JSON with the file name and leaves the file untouched', async () => {
    const file = path.join(home, 'config.json');
    await writeFile(file, '{ "policy": ');
    await expect(loadConfig(home)).rejects.toThrow(/config\.json is not valid JSON/);
    expect(await readFile(file, 'utf8')).toBe('{ "policy": ');
  });

  it('refuses to save an invalid config and keeps the old file', async () => {
    const config = await loadConfig(home);
    await saveConfig(config, home);
    const before = await readFile(path.join(home, 'config.json'), 'utf8');
    const bad = { ...config, limits: { ...config.limits, maxCostUsd: -3 } };
    await expect(saveConfig(bad, home)).rejects.toBeInstanceOf(ConfigError);
    expect(await readFile(path.join(home, 'config.json'), 'utf8')).toBe(before);
  });

  it('says which profiles exist when an unknown one is asked for', async () => {
    const config = await loadConfig(home);
    expect(() => resolveProfile(config, 'nope')).toThrow(/unknown profile "nope"; known profiles: .*claude/);
  });
});
