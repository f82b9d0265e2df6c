import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configuredGrounder } from '../../../src/main/agent/resolve/configured-grounder.js';
import { groundCommand } from '../../../src/main/cli/ground-command.js';
import { EXIT } from '../../../src/main/cli/exit-codes.js';
import { ConfigError, loadConfig, saveConfig } from '../../../src/main/config/index.js';

/** config.json `grounderProfile` (issue 33 item 1c): real config files in a temp home; `--grounder-profile` overrides it. */
let home: string;
let file: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'dp-grounder-config-'));
  file = path.join(home, 'config.json');
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const mine = { provider: 'openai-compatible', model: 'ui-tars-2-7b', baseUrl: 'http://127.0.0.1:9/v1', format: 'ui-tars' };

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return { stream, text: () => text };
}

/** `deskpilot ground` in this process, with no display: a config or profile problem answers 2 before the display check's 6. */
async function ground(flags: { grounderProfile?: string }): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = sink();
  const err = sink();
  const code = await groundCommand('the Save button', flags, out.stream, err.stream, { DESKPILOT_HOME: home });
  return { code, stdout: out.text(), stderr: err.text() };
}

describe('config grounderProfile', () => {
  it('names the grounding model the chain asks; --grounder-profile overrides it; neither means none', async () => {
    await writeFile(file, JSON.stringify({ grounderProfile: 'mine', profiles: { mine } }));
    const config = await loadConfig(home);
    expect(config.grounderProfile).toBe('mine');
    expect(configuredGrounder(config)?.label).toBe('mine (ui-tars-2-7b)');
    expect(configuredGrounder(config, 'lm-studio')?.label).toBe('lm-studio (ui-tars-1.5-7b)');
    await writeFile(file, JSON.stringify({ profiles: { mine } }));
    expect(configuredGrounder(await loadConfig(home))).toBeUndefined();
  });

  it('a built-in profile is a valid grounderProfile, and it survives a save', async () => {
    await writeFile(file, JSON.stringify({ grounderProfile: 'lm-studio' }));
    const config = await loadConfig(home);
    await saveConfig({ ...config, policy: { ...config.policy, mode: 'risky' } }, home);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ grounderProfile: 'lm-studio', policy: { mode: 'risky' } });
    expect(configuredGrounder(await loadConfig(home))?.label).toBe('lm-studio (ui-tars-1.5-7b)');
  });

  it('an unknown name is a ConfigError naming the field, the file and the profiles there are; the file is kept', async () => {
    const text = JSON.stringify({ grounderProfile: 'ui-tars', profiles: { mine } });
    await writeFile(file, text);
    const error = await loadConfig(home).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(file);
    expect(message).toContain('grounderProfile: unknown profile "ui-tars"; known profiles: claude, lm-studio, mine, ollama, openai, openai-preview');
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('an empty or non-string value is refused by the schema with a reason', async () => {
    await writeFile(file, JSON.stringify({ grounderProfile: '  ' }));
    await expect(loadConfig(home)).rejects.toThrow(/grounderProfile: names a profile/);
    await writeFile(file, JSON.stringify({ grounderProfile: 7 }));
    await expect(loadConfig(home)).rejects.toThrow(/grounderProfile: .*string/i);
  });

  it('saveConfig refuses an unknown grounderProfile and leaves the file as it was', async () => {
    await writeFile(file, JSON.stringify({ grounderProfile: 'mine', profiles: { mine } }));
    const before = await readFile(file, 'utf8');
    const config = await loadConfig(home);
    await expect(saveConfig({ ...config, grounderProfile: 'gone' }, home)).rejects.toThrow(/grounderProfile: unknown profile "gone"; known profiles: .*mine/);
    expect(await readFile(file, 'utf8')).toBe(before);
  });
});

describe('deskpilot ground reads grounderProfile', () => {
  it('an unknown config grounderProfile is a usage error (2) naming the profiles, before the screen is looked at', async () => {
    await writeFile(file, JSON.stringify({ grounderProfile: 'nope' }));
    const r = await ground({});
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/^deskpilot ground: .*grounderProfile: unknown profile "nope"; known profiles: claude, lm-studio, ollama/s);
    expect(r.stdout).toBe('');
  });

  it('a valid one passes to the display check (6 here); --grounder-profile overrides it, and an unknown flag value is 2', async () => {
    await writeFile(file, JSON.stringify({ grounderProfile: 'mine', profiles: { mine } }));
    expect((await ground({})).code).toBe(EXIT.environment);
    const flagged = await ground({ grounderProfile: 'nope' });
    expect(flagged.code).toBe(EXIT.usage);
    expect(flagged.stderr).toBe('deskpilot ground: --grounder-profile: unknown profile "nope"; known profiles: claude, lm-studio, mine, ollama, openai, openai-preview\n');
  });
});
