import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/shared/actions.js';
import type { Computer } from '../../src/os-control/types.js';
import { hidingComputer } from '../../src/main/electron/hide-while-acting.js';
import { isTrustedSender, makeCommandHandler, parseRunFileUrl } from '../../src/main/electron/ipc-handlers.js';
import { ACCESSIBILITY_PANE, permissionAdvice, SCREEN_PANE } from '../../src/main/electron/mac-permissions.js';
import { SafeStorageSecretStore, SecretStoreUnavailable, type Encryptor } from '../../src/main/electron/secret-store.js';
import { FakeService } from '../server/fake-service.js';
import { checked } from '../harness/checked.js';

/** Real AES-256-GCM standing in for the OS keychain, which Electron's safeStorage wraps. */
function aesEncryptor(backend = 'gnome_libsecret'): Encryptor {
  const key = randomBytes(32);
  return {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => backend,
    encryptString(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    decryptString(buf) {
      const d = createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12));
      d.setAuthTag(buf.subarray(12, 28));
      return Buffer.concat([d.update(buf.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

describe('API keys in the OS keychain', () => {
  it('stores only ciphertext, reads it back, deletes, and keeps concurrent saves', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'dp-sec-')), 'secrets.json');
    const store = new SafeStorageSecretStore(file, aesEncryptor(), 'linux');
    await Promise.all([store.set('ANTHROPIC_API_KEY', 'sk-ant-SECRET-1234'), store.set('OPENAI_API_KEY', 'sk-openai-SECRET-5678')]);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('SECRET');
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(await store.get('ANTHROPIC_API_KEY')).toBe('sk-ant-SECRET-1234');
    expect(await store.get('OPENAI_API_KEY')).toBe('sk-openai-SECRET-5678');
    expect(await store.has('OPENAI_API_KEY')).toBe(true);
    await store.delete('OPENAI_API_KEY');
    expect(await store.has('OPENAI_API_KEY')).toBe(false);
    expect(await store.get('ANTHROPIC_API_KEY')).toBe('sk-ant-SECRET-1234');
  });

  it('refuses to store when Linux has no keyring (basic_text) and writes nothing', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'dp-sec-')), 'secrets.json');
    const store = new SafeStorageSecretStore(file, aesEncryptor('basic_text'), 'linux');
    await expect(store.set('ANTHROPIC_API_KEY', 'sk-x')).rejects.toBeInstanceOf(SecretStoreUnavailable);
    expect(() => statSync(file)).toThrow();
  });
});

describe('windows hidden while the agent captures and acts (Linux)', () => {
  function recordingComputer(log: string[]): Computer {
    const nothing = async () => {};
    return {
      listDisplays: async () => [],
      observe: async () => {
        log.push('observe');
        return {} as Awaited<ReturnType<Computer['observe']>>;
      },
      perform: async (a: Action) => {
        log.push(`perform:${a.type}`);
        return {};
      },
      settle: async () => ({ waitedMs: 0, settled: true }),
      cursorPosition: async () => ({ x: 0, y: 0 }),
      activeWindow: async () => undefined,
      releaseAll: nothing,
      elementTree: async () => ({ kind: 'none', source: 'fake', reason: 'unsupported', detail: 'test' }),
      findElement: async () => ({ kind: 'none', reason: 'unsupported', detail: 'test' }),
    };
  }

  it('hides before capturing/acting during a run, shows once after quiet, never flickers between', async () => {
    const log: string[] = [];
    let active = true;
    const c = hidingComputer(recordingComputer(log), { active: () => active, hide: async () => void log.push('hide'), show: () => log.push('show') }, 30);
    await c.perform(checked({ type: 'type', text: 'x' }), new AbortController().signal);
    await c.observe({ target: { format: 'jpeg' } });
    await new Promise((r) => setTimeout(r, 80));
    expect(log).toEqual(['hide', 'perform:type', 'observe', 'show']);
    active = false;
    log.length = 0;
    await c.observe({ target: { format: 'jpeg' } });
    await new Promise((r) => setTimeout(r, 60));
    expect(log).toEqual(['observe']);
  });
});

describe('IPC transport', () => {
  it('only our page may call; invalid input is refused before the service sees it', async () => {
    const service = new FakeService();
    const handle = makeCommandHandler(service, { id: 'electron', kind: 'electron' }, 'approval.answer');
    const good = { runId: 'r', proposalId: 'p', answer: { decision: 'approve' } };
    expect(await handle(false, good)).toEqual({ ok: false, error: { code: 'invalid', message: 'untrusted sender' } });
    const bad = await handle(true, { runId: 'r', proposalId: 'p', answer: { decision: 'yes please' } });
    expect(bad.ok).toBe(false);
    expect(service.calls).toHaveLength(0);
    expect(await handle(true, good)).toEqual({ ok: true, output: { accepted: true } });
    expect(service.calls).toHaveLength(1);
  });

  it('recognises our page and refuses others', () => {
    const app = 'file:///opt/DeskPilot/resources/app.asar/out/renderer/index.html';
    expect(isTrustedSender(app, app)).toBe(true);
    expect(isTrustedSender('file:///tmp/evil.html', app)).toBe(false);
    expect(isTrustedSender('https://example.com/', app)).toBe(false);
    expect(isTrustedSender(undefined, app)).toBe(false);
    expect(isTrustedSender('http://localhost:5173/x', 'http://localhost:5173/')).toBe(true);
    expect(isTrustedSender('http://localhost:5174/', 'http://localhost:5173/')).toBe(false);
  });

  it('parses run file URLs and refuses traversal', () => {
    expect(parseRunFileUrl('deskpilot-file://run/2026-run%201/shots/0001.jpg')).toEqual({ runId: '2026-run 1', path: 'shots/0001.jpg' });
    expect(parseRunFileUrl('deskpilot-file://run/r1/%2E%2E/secrets.json')).toBeNull();
    expect(parseRunFileUrl('deskpilot-file://other/r1/a.jpg')).toBeNull();
    expect(parseRunFileUrl('deskpilot-file://run/r1')).toBeNull();
  });
});

describe('macOS permissions guide', () => {
  it('names what is missing and where to grant it', () => {
    expect(permissionAdvice({ screen: 'granted', accessibility: true })).toBeNull();
    const a = permissionAdvice({ screen: 'denied', accessibility: false })!;
    expect(a.missing).toEqual(['screen', 'accessibility']);
    expect(a.panes.map((p) => p.url)).toEqual([SCREEN_PANE, ACCESSIBILITY_PANE]);
    expect(a.message).toContain('Screen Recording');
    expect(permissionAdvice({ screen: 'granted', accessibility: false })!.missing).toEqual(['accessibility']);
  });
});
