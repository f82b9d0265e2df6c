import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigSchema, type Config } from '../../src/shared/config.js';
import type { Computer } from '../../src/os-control/types.js';
import { loadConfig, saveConfig } from '../../src/main/config/index.js';
import { createBridgeService } from '../../src/main/service/index.js';
import { BridgeError, type BridgeService, type ClientInfo } from '../../src/main/service/types.js';
import { serviceProblem } from '../../src/renderer/lib/settings-problems.js';

// Settings' rules (issue 34 item 7): a rule the gate cannot compile is refused when it is
// saved — by the gate's own compiler — naming the rule's field, which the page shows at
// that field; config.json keeps what it had. (On the old code the save succeeded and every
// later run refused to start.)

const browser: ClientInfo = { id: 'ws:1', kind: 'ws' };
let home: string;
let service: BridgeService;
let before: Config;

beforeEach(async () => {
  home = mkdtempSync(path.join(tmpdir(), 'dp-settings-rules-'));
  before = ConfigSchema.parse({ defaultProfile: 'claude', profiles: { claude: { provider: 'anthropic', model: 'claude-sonnet-4-6' } }, policy: { mode: 'ask', rules: [{ effect: 'deny', keys: ['ctrl+q'] }] } });
  await saveConfig(before, home);
  service = createBridgeService({ home, computer: {} as Computer, env: {}, startRun: async () => Promise.reject(new Error('no runs here')) });
});
afterEach(async () => {
  await service.close();
  rmSync(home, { recursive: true, force: true });
});

async function refusal(rules: unknown[]): Promise<BridgeError> {
  const config = ConfigSchema.parse({ ...before, policy: { mode: 'ask', rules } });
  const error = await service.call('settings.save', { config }, browser).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeError);
  return error as BridgeError;
}

describe('settings.save and the approval rules', () => {
  it('refuses a pattern that does not compile, naming the rule and field; config.json is unchanged; the page puts it at that field', async () => {
    const err = await refusal([{ effect: 'deny', keys: ['ctrl+q'] }, { effect: 'deny', windowPattern: 'Terminal(' }]);
    expect(err.code).toBe('invalid');
    expect(err.message).toMatch(/^policy\.rules\[1\]\.windowPattern: invalid regular expression "Terminal\("/);
    expect((await loadConfig(home)).policy.rules).toEqual(before.policy.rules);
    expect(serviceProblem(err.message)).toMatchObject({ field: 'policy.rules.1.windowPattern', label: 'Rule 2 · Window matches' });
  });

  it('refuses a key entry that is two chords, at the rule’s Keys field', async () => {
    const err = await refusal([{ effect: 'deny', keys: ['ctrl+q ctrl+w'] }]);
    expect(err.message).toMatch(/^policy\.rules\[0\]\.keys\[0\]: /);
    expect(serviceProblem(err.message)).toMatchObject({ field: 'policy.rules.0.keys', label: 'Rule 1 · Keys' });
  });

  it('saves rules that compile', async () => {
    const rules = [{ effect: 'deny' as const, textPattern: 'rm -rf', reason: 'no' }, { effect: 'allow' as const, actions: ['scroll'] }];
    const view = await service.call('settings.save', { config: ConfigSchema.parse({ ...before, policy: { mode: 'ask', rules } }) }, browser);
    expect(view.config.policy.rules).toEqual(rules);
    expect((await loadConfig(home)).policy.rules).toEqual(rules);
  });
});
