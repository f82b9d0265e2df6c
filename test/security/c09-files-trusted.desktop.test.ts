import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/shared/config.js';
import type { Computer } from '../../src/os-control/types.js';
import { resolveRunChoices } from '../../src/main/agent/runner/choices.js';
import { saveConfig } from '../../src/main/config/index.js';
import { createBridgeService } from '../../src/main/service/index.js';
import { exportRun } from '../../src/main/sessions/export/index.js';
import { readRunLog } from '../../src/main/sessions/reader.js';
import { createRunLog } from '../../src/main/sessions/run-log.js';
import { startServer } from '../../src/main/server/server.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { runCli } from '../e2e/support.js';
import { makeScreenshot, observationRecord } from '../sessions/fixture.js';
import { FakeService } from '../server/fake-service.js';
import { getRequest, sendRaw, TOKEN } from './serve-harness.js';

// Class 9: files are not trusted further than they deserve. A symlink in the web root
// or in a run folder does not reach outside it; a run's events.jsonl cannot loosen the
// policy (or pick where the key goes) when the run is resumed.

const SECRET = 'TOP-SECRET-0f3c9a1e-not-for-export';
let scratch: string;
let secretFile: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'dp-sec-c09-'));
  secretFile = path.join(scratch, 'secret.txt');
  writeFileSync(secretFile, SECRET);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('symlinks out of the folder', () => {
  it('the static server does not serve a link that points out of the web root', async () => {
    const webRoot = path.join(scratch, 'web');
    mkdirSync(path.join(webRoot, 'assets'), { recursive: true });
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>x</title>');
    writeFileSync(path.join(webRoot, 'assets', 'ok.js'), 'ok');
    symlinkSync(secretFile, path.join(webRoot, 'assets', 'leak.js'));
    symlinkSync(scratch, path.join(webRoot, 'up'));
    // A link that stays inside is fine.
    symlinkSync(path.join(webRoot, 'assets', 'ok.js'), path.join(webRoot, 'assets', 'alias.js'));
    const server = await startServer({ service: new FakeService(), webRoot, token: TOKEN });
    try {
      const get = (p: string) => sendRaw(server.port, getRequest(server.port, `${p}?token=${TOKEN}`));
      for (const p of ['/assets/leak.js', '/up/secret.txt']) {
        const res = await get(p);
        expect(res.status, p).toBe(404);
        expect(res.body).not.toContain(SECRET);
      }
      expect((await get('/assets/alias.js')).body).toBe('ok');
    } finally {
      await server.close();
    }
  });

  it('a screenshot symlinked out of the run folder is not served or embedded in the HTML report', async () => {
    const home = path.join(scratch, 'home');
    const log = await createRunLog({ home });
    const image = await log.writeFile('shots/0.png', await makeScreenshot(0));
    log.append({ type: 'run_started', task: 't', provider: 'anthropic', model: 'm', policy: 'ask', limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 }, skills: [], labels: {} });
    log.append({ type: 'observation', step: 0, observation: observationRecord('o0'), image, thumb: image, settleMs: 0 });
    await log.close();
    // The hostile file: the logged screenshot replaced by a link to another file.
    unlinkSync(path.join(log.dir, image));
    symlinkSync(secretFile, path.join(log.dir, image));

    const service = createBridgeService({ home, computer: {} as Computer, env: {} });
    await expect(service.readRunFile(log.runId, image)).rejects.toThrow();
    await service.close();

    const out = path.join(scratch, 'report.html');
    await exportRun(log.dir, 'html', out).catch(() => undefined);
    if (existsSync(out)) {
      const html = readFileSync(out, 'utf8');
      expect(html).not.toContain(Buffer.from(SECRET).toString('base64'));
      expect(html).not.toContain(SECRET);
    }
    // events.jsonl itself as a link out of the folder is not read either.
    const events = path.join(log.dir, 'events.jsonl');
    const moved = path.join(scratch, 'events-elsewhere.jsonl');
    writeFileSync(moved, readFileSync(events));
    unlinkSync(events);
    symlinkSync(moved, events);
    await expect(readRunLog(log.dir)).rejects.toThrow(/link out of it/);
  });
});

describe('resume does not trust the log', () => {
  it('the stricter of the logged and configured policy; a logged base URL only when loopback or configured', () => {
    const config = ConfigSchema.parse({ policy: { mode: 'ask' }, profiles: { gw: { provider: 'anthropic', model: 'm', baseUrl: 'https://gw.example/' } } });
    const choose = (extra: object) => resolveRunChoices(config, { provider: 'anthropic', model: 'm', ...extra }, {});
    expect(choose({ loggedPolicy: 'auto' }).policy).toBe('ask');
    expect(choose({ loggedPolicy: 'risky' }).policy).toBe('ask');
    expect(resolveRunChoices(ConfigSchema.parse({ policy: { mode: 'auto' } }), { provider: 'anthropic', model: 'm', loggedPolicy: 'ask' }, {}).policy).toBe('ask');
    expect(choose({ loggedBaseUrl: 'http://127.0.0.1:8080/' }).profile.baseUrl).toBe('http://127.0.0.1:8080/');
    expect(choose({ loggedBaseUrl: 'https://gw.example' }).profile.baseUrl).toBe('https://gw.example');
    expect(() => choose({ loggedBaseUrl: 'https://attacker.example/' })).toThrow(/only sent to a base URL you configured.*--base-url/);
    // A base URL given on the command line is the person's own choice.
    expect(choose({ loggedBaseUrl: 'https://attacker.example/', baseUrl: 'https://mine.example/' }).profile.baseUrl).toBe('https://mine.example/');
  });

  describe('`deskpilot sessions resume` of a log edited from ask to auto', () => {
    let xvfb: Xvfb;
    let fake: FakeModelServer;
    beforeAll(async () => {
      xvfb = await startXvfb({ width: 1024, height: 700 });
      fake = await startFakeModel();
    }, 60_000);
    afterAll(async () => {
      await fake?.close();
      await xvfb?.stop();
    });

    it('still asks before the shell runs: with nobody to answer it refuses to start, and nothing runs', async () => {
      const home = path.join(scratch, 'resume-home');
      await saveConfig(ConfigSchema.parse({ policy: { mode: 'ask' } }), home);
      const log = await createRunLog({ home });
      // The run started under "ask"; the file now says "auto" (edited, or written by a hostile tool).
      log.append({ type: 'run_started', task: 'make a file', provider: 'anthropic', model: 'claude-haiku-4-5', policy: 'auto', limits: { maxSteps: 5, maxWallMs: 120_000, maxCostUsd: 1 }, skills: [], labels: {} });
      log.append({ type: 'state', state: 'paused', reason: 'paused by the person' });
      await log.close();
      const marker = path.join(scratch, 'shell-ran');
      fake.script({ toolCalls: [{ name: 'shell', input: { command: `touch ${marker}` } }] }, { toolCalls: [{ name: 'finish', input: { success: false, summary: 'refused' } }] });
      const env = { ...xvfb.env, DESKPILOT_HOME: home, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseUrl };
      const resume = runCli(['sessions', 'resume', log.runId], env, { stdin: '' });
      const { code } = await resume.exit;
      expect(existsSync(marker), resume.stdout() + resume.stderr()).toBe(false);
      // The policy in force is the stricter one (ask): an asking policy with no terminal
      // to ask refuses to start (exit 2). Under the file's "auto" the shell would have run.
      expect(code, resume.stderr()).toBe(2);
      expect(resume.stderr()).toContain('no terminal to ask');
      const { events } = await readRunLog(log.dir);
      expect(events.filter((e) => e.type === 'run_started')).toHaveLength(1);
      expect(events.some((e) => e.type === 'action_executed')).toBe(false);
      expect(fake.requests).toHaveLength(0);
    }, 120_000);
  });
});
