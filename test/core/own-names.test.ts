import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, resolveProfile } from '../../src/main/config/index.js';
import { formatFromFileName } from '../../src/main/cli/sessions-command.js';
import { matchesQuery, parseQuery } from '../../src/main/sessions/history.js';
import { parseAccelerator } from '../../src/shared/accelerator.js';
import { policyLabel } from '../../src/shared/labels.js';
import { own } from '../../src/shared/own.js';
import { runQaCli } from '../qa/qa-support.js';

// Issue 27 item 9: a name a person types — a profile, a QA region, a label, a hotkey
// part, a file extension — is looked up as an own entry, never as what every object
// inherits. `defaultProfile: "constructor"` ended in exit 7 ("reading 'baseUrlEnv'").

const PROTO_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-own-names-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A fresh DESKPILOT_HOME holding `config`, and the environment of a person who runs the CLI with it. */
function homeWith(config: Record<string, unknown> | string): NodeJS.ProcessEnv {
  const home = mkdtempSync(path.join(tmp, 'home-'));
  writeFileSync(path.join(home, 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  mkdirSync(path.join(home, 'user'), { recursive: true });
  return { ...process.env, DESKPILOT_HOME: home, HOME: path.join(home, 'user'), ANTHROPIC_API_KEY: 'sk-ant-test', DISPLAY: ':99999' };
}

describe('through the real CLI', () => {
  it.each(PROTO_NAMES)('defaultProfile "%s": a usage error (exit 2) naming the profile', async (name) => {
    const r = await runQaCli(['run', 'open the menu'], homeWith({ defaultProfile: name }));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`unknown profile "${name}"; known profiles: claude`);
    expect(r.stderr).not.toMatch(/Cannot read properties|TypeError/);
  });

  it.each(PROTO_NAMES)('--profile %s: a usage error naming the profile', async (name) => {
    const r = await runQaCli(['run', 'open the menu', '--profile', name], homeWith({}));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`unknown profile "${name}"`);
  });

  it('a profile named "__proto__" in config.json is refused with its path, not silently dropped', async () => {
    // Written as text: a JS object literal would make "__proto__" the prototype, as zod's records did.
    const r = await runQaCli(['run', 'open the menu'], homeWith('{"profiles": {"__proto__": {"provider": "anthropic", "model": "claude-haiku-4-5"}}, "defaultProfile": "__proto__"}'));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('profiles.__proto__: "__proto__" cannot be a name');
  });

  // Accelerators are read lower-cased: "constructor" and "__proto__" are the names that reach Object.prototype.
  it.each(['constructor+Q', 'Ctrl+constructor', '__proto__+Q'])('killHotkey "%s" is refused as config, naming the part', async (hotkey) => {
    const r = await runQaCli(['run', 'open the menu'], homeWith({ killHotkey: hotkey }));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/killHotkey: .*is not (a modifier|a key code)/);
  });

  // Region names are read lower-cased and start with a letter: "constructor" is the one that reaches Object.prototype.
  it.each(['constructor', 'Constructor'])('a QA plan expecting region "%s" it never declared: exit 2 naming file and line', async (name) => {
    const plan = path.join(tmp, `${name}.plan.md`);
    writeFileSync(plan, `# Names\n## App\n- Launch: \`xcalc\`\n## Case: one\nSteps:\n- press 1\nExpected:\n- Expect ${name}: 1\n`);
    const r = await runQaCli(['qa', plan, '--provider', 'anthropic', '--model', 'claude-haiku-4-5'], homeWith({}));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${plan}:8: unknown region "${name.toLowerCase()}"`);
  });
});

describe('the lookups behind the CLI', () => {
  it('a profile named like a prototype property is a profile like any other when it exists', async () => {
    const home = mkdtempSync(path.join(tmp, 'home-'));
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ profiles: { constructor: { provider: 'openai', model: 'gpt-x' } }, defaultProfile: 'constructor' }));
    const config = await loadConfig(home);
    expect(resolveProfile(config)).toEqual({ provider: 'openai', model: 'gpt-x' });
    expect(() => resolveProfile(config, 'toString')).toThrow(/unknown profile "toString"/);
  });

  it.each(PROTO_NAMES)('"%s" is no file format, no label, no policy, no accelerator part', (name) => {
    expect(formatFromFileName(`report.${name}`)).toBeUndefined();
    // A session without that label: `--search label:<name>` must not list it.
    const session = { id: 'x', task: 't', status: 'done', startedAt: Date.UTC(2026, 0, 1), labels: {}, summaryText: '' } as unknown as Parameters<typeof matchesQuery>[0];
    const q = parseQuery(`label:${name}`);
    expect(q.labels.map((l) => l.key)).toEqual([name]);
    expect(matchesQuery(session, q)).toBe(false);
    expect(policyLabel(name)).toBe(name);
    expect(parseAccelerator(`${name}+Q`).ok).toBe(false);
    expect(parseAccelerator(`Ctrl+${name}`).ok).toBe(false);
    expect(own({ a: 1 } as Record<string, number>, name)).toBeUndefined();
  });
});
