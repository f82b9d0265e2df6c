import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { runCli, tempHome, until, type CliRun } from '../e2e/support.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

// `deskpilot serve` as a person starts it: the real bin, the real service on a private
// X screen. It prints a URL with the token; that URL works, the bare one does not;
// another host than loopback gets a loud warning; SIGTERM stops it cleanly.

let xvfb: Xvfb;
const home = tempHome('deskpilot-serve-cli-');
const webRoot = mkdtempSync(path.join(tmpdir(), 'dp-web-'));

beforeAll(async () => {
  mkdirSync(path.join(webRoot, 'assets'));
  writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>DeskPilot UI</title>');
  xvfb = await startXvfb({ width: 800, height: 600, windowManager: false });
}, 60_000);

afterAll(async () => {
  await xvfb?.stop();
  home.cleanup();
});

function start(args: string[]): CliRun {
  return runCli(['serve', '--port', '0', '--web-root', webRoot, ...args], { ...xvfb.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: '' });
}

describe('deskpilot serve (CLI)', () => {
  it('prints a token URL that works; without the token nothing is served; SIGTERM stops it', async () => {
    const cli = start([]);
    try {
      const url = await until(() => /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(cli.stdout())?.[0], 30_000, `the URL (stdout: ${cli.stdout()} stderr: ${cli.stderr()})`);
      expect(cli.stderr()).not.toContain('WARNING');
      const ok = await fetch(url);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('DeskPilot UI');
      const u = new URL(url);
      expect((await fetch(`${u.origin}/`)).status).toBe(401);
      const refused = await new Promise<number>((resolve) => {
        const ws = new WebSocket(`ws://${u.host}/bridge`);
        ws.once('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0));
        ws.once('open', () => resolve(101));
      });
      expect(refused).toBe(401);
      const state = await new Promise<{ kind: string; message?: { kind: string } }>((resolve, reject) => {
        const ws = new WebSocket(`ws://${u.host}/bridge?token=${u.searchParams.get('token')}`);
        ws.once('message', (d) => {
          resolve(JSON.parse(d.toString()) as { kind: string });
          ws.close();
        });
        ws.once('error', reject);
      });
      expect(state).toMatchObject({ kind: 'push', message: { kind: 'run_state' } });
    } finally {
      cli.child.kill('SIGTERM');
    }
    const exit = await cli.exit;
    expect(exit.code).toBe(0);
  });

  it('refuses plain HTTP beyond loopback with a clear message and exit code 2', async () => {
    const cli = start(['--host', '0.0.0.0']);
    const exit = await cli.exit;
    expect(exit.code).toBe(2);
    expect(cli.stderr()).toContain('refusing to listen on 0.0.0.0 over plain HTTP');
    expect(cli.stderr()).toContain('--insecure-remote');
    expect(cli.stdout()).not.toContain('token=');
  });

  it('says loudly when it listens beyond loopback with --insecure-remote', async () => {
    const cli = start(['--host', '0.0.0.0', '--insecure-remote']);
    try {
      await until(() => /token=/.test(cli.stdout()), 30_000, 'the URL');
      expect(cli.stderr()).toContain('WARNING');
      expect(cli.stderr()).toContain('NOT on loopback');
    } finally {
      cli.child.kill('SIGTERM');
    }
    await cli.exit;
  });
});
