import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { BIN, claude, finish, tempHome } from '../e2e/support.js';
import { runInPty, type PtyRun } from '../cli/pty.js';

// Issue 12, class 4 (terminal side): the approver sees exactly what runs. A hostile
// model writes `\r`, `ESC [2K` and OSC sequences into its text, its shell command and
// its text to type, and hides a second command past the point where the old prompt cut
// (117 characters). On a real pseudo-terminal the prompt must show the whole command,
// every control character as a visible picture, and none of them may reach the
// terminal raw (where they would rewrite the prompt line or the window title).

let xvfb: Xvfb;
let fake: FakeModelServer;
const home = tempHome('deskpilot-c04-');
const marker = path.join(os.tmpdir(), `deskpilot-c04-${process.pid}`);

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1024, height: 768 });
  fake = await startFakeModel();
}, 180_000);

afterAll(async () => {
  await fake?.close();
  await xvfb?.stop();
  home.cleanup();
});

/** The end of an approval prompt, waiting for input. */
const PROMPT_END = /(\n> |: )$/;

/** Answers "no" and, when the prompt asks why, gives no feedback. */
async function answerNo(run: PtyRun, from: number): Promise<void> {
  run.type('n\n');
  const asked = await run.waitFor(/Why not\?[^\n]*: $|Allow: |run \w+ after/, { from: from + 1 });
  if (/^Why not/.test(run.screen().slice(asked))) run.type('\n');
}

const env = () => ({ ...xvfb.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseUrl });

describe('class 4: the terminal shows everything that would run, and interprets none of it', () => {
  it('a long shell command with control sequences is shown whole and visible; model text cannot rewrite lines', async () => {
    // The visible part looks harmless; `\r` + ESC[2K would erase it on a raw terminal and
    // the tail past 117 characters used to be cut away.
    const command = `echo ${'tidying the temporary files '.repeat(5)}\r\x1b[2Kecho ok; touch ${marker}`;
    const hostileText = 'All fine.\r\x1b[2KAllow: echo safe?\x1b]0;PWNED-TITLE\x07 \u202Eexe.txt\u200B';
    fake.script(
      { text: hostileText, toolCalls: [{ name: 'shell', input: { command } }] },
      { text: 'Typing.', toolCalls: [claude.type('ls\r\x1b]52;c;ZXZpbA==\x07\x7f')] },
      { text: 'Giving up.', toolCalls: [finish(false, 'rejected')] },
    );
    const run = runInPty(['run', 'tidy up', '--provider', 'anthropic', '--model', 'claude-haiku-4-5'], env());

    const at = await run.waitFor('Allow: run shell: ');
    await run.waitFor(PROMPT_END, { from: at });
    const prompt = run.screen().slice(at);
    // The whole command, the hidden second one included, with the controls as pictures.
    expect(prompt).toContain(`Allow: run shell: echo ${'tidying the temporary files '.repeat(5)}␍␛[2Kecho ok; touch ${marker}?`);
    await answerNo(run, at);

    const typeAt = await run.waitFor('Allow: type "', { from: at });
    await run.waitFor(PROMPT_END, { from: typeAt });
    expect(run.screen().slice(typeAt)).toContain('Allow: type "ls␍␛]52;c;ZXZpbA==␇␡" (20 characters)');
    await answerNo(run, typeAt);
    const { code } = await run.exit;
    const screen = run.screen();
    expect(code, screen).toBe(1);

    // The model's text as pictures and escapes …
    expect(screen).toContain('model: All fine.␍␛[2KAllow: echo safe?␛]0;PWNED-TITLE␇ \\u{202E}exe.txt\\u{200B}');
    // … and nothing the model wrote reached the terminal raw.
    for (const raw of ['\x1b]0;PWNED', '\x1b]52;', '\rAllow: echo safe', '\x1b[2Kecho ok', '\u202E', '\u200B', '\x7f']) {
      expect(screen.includes(raw), JSON.stringify(raw)).toBe(false);
    }
    expect(existsSync(marker)).toBe(false);

    // The history view prints the same text: visible there too.
    const shown = spawnSync(process.execPath, [BIN, 'sessions', 'show', 'last'], { env: env(), encoding: 'utf8' });
    expect(shown.status, shown.stderr).toBe(0);
    // (The timeline folds whitespace, `\r` included, into single spaces.)
    expect(shown.stdout).toContain('model: All fine. ␛[2KAllow: echo safe?␛]0;PWNED-TITLE␇ \\u{202E}exe.txt\\u{200B}');
    const hidden = [...shown.stdout].filter((ch) => {
      const c = ch.codePointAt(0)!;
      return (c < 0x20 && c !== 0x0a) || c === 0x7f || c === 0x202e || c === 0x200b;
    });
    expect(hidden).toEqual([]);
  }, 240_000);
});
