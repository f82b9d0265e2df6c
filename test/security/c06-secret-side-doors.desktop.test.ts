import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Computer } from '../../src/os-control/types.js';
import type { RunEvent } from '../../src/shared/events.js';
import { Scrubber } from '../../src/main/sessions/scrub.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { startXterm } from '../harness/native-apps.js';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { claude, finish, testRunOptions } from '../e2e/support.js';

// Class 6: secrets do not leave through side doors. A real run (real shell, Xvfb,
// fake model through the real SDK): what the model receives back, what the UI's live
// text receives, and what the log holds are checked for the secrets in play.

const KEY = 'sk-ant-api03-Side-Door-Key-0123456789abcdef';
const SERVICE_TOKEN = 'svc-token-9f8e7d6c5b4a3210';
const DB_PASSWORD = 'CorrectHorseBattery42';
const TYPED_PASSWORD = 'hunter2xyz';
const SUDO_PASSWORD = 's3cr3tw0rd';
const KEYRING_PASSWORD = 'plainword7';

let xvfb: Xvfb;
let fake: FakeModelServer;
let computer: Computer;
let scratch: string;
const saved = { ...process.env };

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'dp-sec-c06-'));
  xvfb = await startXvfb({ width: 800, height: 600 });
  process.env.DISPLAY = xvfb.display;
  // In the supervisor's environment, as a person's shell would have them.
  process.env.MY_SERVICE_TOKEN = SERVICE_TOKEN;
  process.env.DB_PASSWORD = DB_PASSWORD;
  fake = await startFakeModel();
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = createComputer();
}, 60_000);
afterAll(async () => {
  process.env = saved;
  await fake?.close();
  await xvfb?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('a run whose shell and model touch secrets', () => {
  it('gives the shell a clean environment, scrubs what the model and the live text get, and masks typed passwords in the log', async () => {
    const keyFile = path.join(scratch, 'key.txt');
    writeFileSync(keyFile, `${KEY}\n`);
    const results: string[] = [];
    fake.script(
      // 1. The shell: an environment it should not have, and a file holding the run's key.
      { toolCalls: [{ name: 'shell', input: { command: `echo "T=\${MY_SERVICE_TOKEN:-unset} P=\${DB_PASSWORD:-unset} A=\${ANTHROPIC_API_KEY:-unset}"; echo "K=$(cat ${keyFile})"` } }] },
      // 2. The model repeats the key in its text (streamed in 7-character deltas).
      (req) => {
        results.push(req.toolResults.at(-1)?.text ?? '');
        return { text: `I found the key ${KEY} in the file. Typing the password into the login form now.`, toolCalls: [claude.type(TYPED_PASSWORD)] };
      },
      // 3. A sudo prompt, then a bare word typed after it (the model does not say "password").
      { toolCalls: [{ name: 'shell', input: { command: "printf '[sudo] password for dp: '" } }] },
      { text: 'Entering it.', toolCalls: [claude.type(`${SUDO_PASSWORD}\n`)] },
      { toolCalls: [finish(true, 'done')] },
    );
    const { startRun } = await import('../../src/main/agent/runner.js');
    const deltas: string[] = [];
    const events: RunEvent[] = [];
    const handle = await startRun(
      testRunOptions({
        task: 'look for secrets',
        profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl },
        apiKey: KEY,
        limits: { maxSteps: 8, maxWallMs: 60_000, maxCostUsd: 5 },
        computer,
        home: path.join(scratch, 'home'),
        onEvent: (e) => events.push(e),
        onDelta: (text) => deltas.push(text),
      }),
    );
    const result = await handle.done;
    expect(result.status).toBe('done');

    // What the model got back from the shell.
    const shellOut = results[0]!;
    expect(shellOut).toContain('T=unset P=unset A=unset');
    expect(shellOut).toContain('K=[redacted]');
    expect(shellOut).not.toContain(KEY);

    // What the UI's live text got: the whole text, the key never (even split over deltas).
    const live = deltas.join('');
    expect(live).toContain('I found the key');
    expect(live).not.toContain(KEY);

    // The log and everything pushed: no key, no env secret, no typed password.
    const log = readFileSync(path.join(handle.dir, 'events.jsonl'), 'utf8');
    const pushed = JSON.stringify(events);
    for (const secret of [KEY, SERVICE_TOKEN, DB_PASSWORD, TYPED_PASSWORD, SUDO_PASSWORD]) {
      expect(log, secret).not.toContain(secret);
      expect(pushed, secret).not.toContain(secret);
    }
    // The typing itself still happened and reads as what it was.
    expect(events.filter((e) => e.type === 'action_executed' && e.action.type === 'type' && e.action.text.startsWith('[masked secret]'))).toHaveLength(2);
  }, 120_000);
});

describe('a bare word typed into a window whose title asks for a password', () => {
  it('reaches the app exactly and never reaches the log or the pushes', async () => {
    // A real X window that says what it is only in its title (the program sets it, as a
    // keyring prompt or a login dialog would); neither the task nor the model's words say
    // "password", so only the focused window's title can tell.
    const received = path.join(scratch, 'keyring-input.txt');
    const xterm = await startXterm(xvfb, {
      cols: 50, rows: 6, x: 40, y: 40,
      // The title changes once the harness has found the window by its start title.
      command: ['sh', '-c', `while [ ! -e '${received}.go' ]; do sleep 0.1; done; printf '\\033]2;Unlock login keyring - enter password\\007'; exec cat > '${received}'`],
    });
    writeFileSync(`${received}.go`, '');
    try {
      // Focus the prompt; the window manager reports it active once it has the title.
      for (let i = 0; i < 50; i++) {
        spawnSync('xdotool', ['windowactivate', '--sync', xterm.windowId], { env: xvfb.env });
        const title = spawnSync('xdotool', ['getactivewindow', 'getwindowname'], { env: xvfb.env, encoding: 'utf8' }).stdout;
        if (title.includes('enter password')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      fake.script(
        { text: 'Typing the word from the note.', toolCalls: [claude.type(`${KEYRING_PASSWORD}\n`)] },
        { toolCalls: [finish(true, 'done')] },
      );
      const { startRun } = await import('../../src/main/agent/runner.js');
      const events: RunEvent[] = [];
      const handle = await startRun(
        testRunOptions({
          task: 'type the word from the note',
          profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl },
          apiKey: KEY,
          computer,
          home: path.join(scratch, 'home-title'),
          onEvent: (e) => events.push(e),
        }),
      );
      const result = await handle.done;
      expect(result.status).toBe('done');
      // The app received the word exactly (typing is not weakened by masking).
      for (let i = 0; i < 50 && !(existsSync(received) && readFileSync(received, 'utf8').includes('\n')); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(readFileSync(received, 'utf8')).toBe(`${KEYRING_PASSWORD}\n`);
      // Nowhere in what DeskPilot keeps or shows.
      const log = readFileSync(path.join(handle.dir, 'events.jsonl'), 'utf8');
      expect(log).not.toContain(KEYRING_PASSWORD);
      expect(JSON.stringify(events)).not.toContain(KEYRING_PASSWORD);
      expect(events.some((e) => e.type === 'action_executed' && e.action.type === 'type' && e.action.text.startsWith('[masked secret]'))).toBe(true);
    } finally {
      await xterm.stop();
    }
  }, 120_000);
});

describe('the scrubber', () => {
  it('covers *_TOKEN, *_SECRET, *_KEY and *PASSWORD* variables and secret-named fields in nested objects', () => {
    const env = { GITLAB_TOKEN: 'glt-aaaaaaaaaaaa', APP_SECRET: 'app-secret-value', STRIPE_KEY: 'stripe-value-123', MYSQL_ROOT_PASSWORD: 'rootpw-value', HOME: '/home/someone' };
    const scrubber = new Scrubber({ env });
    const event = scrubber.scrub({
      v: 1,
      runId: 'r',
      seq: 0,
      at: 0,
      type: 'model_text',
      step: 0,
      text: `values: ${Object.values(env).join(' ')}`,
      kind: 'text',
      assistant: {
        calls: [{ callId: 'c1', name: 'shell', input: { command: 'login', auth: { password: 'pw-in-json', api_key: 'k-in-json', note: 'plain' } }, actions: [] }],
        stopReason: 'tool_use',
      },
    } as RunEvent);
    const text = JSON.stringify(event);
    for (const v of ['glt-aaaaaaaaaaaa', 'app-secret-value', 'stripe-value-123', 'rootpw-value', 'pw-in-json', 'k-in-json']) expect(text, v).not.toContain(v);
    expect(text).toContain('/home/someone');
    expect(text).toContain('plain');
  });
});
