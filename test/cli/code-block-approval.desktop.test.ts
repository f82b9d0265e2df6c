import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer, type FakeRequest } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { finish, tempHome } from '../e2e/support.js';
import { runInPty } from './pty.js';

// Issue 31: a code block's approval at the terminal, as Open Interpreter asks it. The real
// CLI in a pseudo-terminal runs the code harness (fake model on the Anthropic wire); the
// block waits under --policy ask, shown whole with its lines numbered and control
// characters visible, without "s similar" (never offered for code); `e` opens it in the
// person's $EDITOR (here a real program that rewrites the file it is given), and the
// edited code is what python3 runs (the file it writes), what the model reads back and
// what the log records.

let xvfb: Xvfb;
let fake: FakeModelServer;
let tmp: string;
const home = tempHome('deskpilot-block-');

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1024, height: 768 });
  fake = await startFakeModel();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-block-edit-'));
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await xvfb?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  home.cleanup();
});

const OPTIONS = 'y yes · n no · e edit · q quit · ? help';

describe('a code block at the terminal approval prompt', () => {
  it('shows the block with numbered lines and no "similar"; e edits it in $EDITOR, and the edited block is what runs and what is logged', async () => {
    const workspace = path.join(tmp, 'workspace');
    const editor = path.join(tmp, 'edit.py');
    // The "editor": rewrites the file it is given in place, as a person would, and exits 0.
    writeFileSync(editor, 'import sys\np = sys.argv[1]\ns = open(p).read()\nopen(p, "w").write(s.replace("original", "edited"))\n');
    const code = 'open("out.txt", "w").write("original")\nprint("wrote", open("out.txt").read())  # \x1b[2K';
    let answered: FakeRequest | undefined;
    fake.script({ text: 'Writing a file with code.', toolCalls: [{ name: 'execute', input: { language: 'python', code } }] }, (req) => {
      answered = req;
      return { text: 'Done.', toolCalls: [finish(true, 'wrote it')] };
    });
    mkdirSync(workspace);
    const env = { ...xvfb.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseUrl, EDITOR: `python3 ${editor}`, VISUAL: '' };
    const run = runInPty(['run', 'write a file', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--harness', 'code', '--policy', 'ask', '--cd', workspace], env);

    // The block whole: its language and length, each line numbered, the escape sequence shown as a sign, never sent to the terminal.
    let at = await run.waitFor('Allow: run this python block (2 lines)?', { timeoutMs: 120_000 });
    at = await run.waitFor('1 │ open("out.txt", "w").write("original")', { from: at });
    at = await run.waitFor('2 │ print("wrote", open("out.txt").read())  # ␛[2K', { from: at });
    await run.waitFor(`${OPTIONS}\r\n> `, { from: at });
    // "similar" is not an answer for a block.
    run.type('s\n');
    at = await run.waitFor('Answer y, n, e or q (? explains).', { from: at });
    run.type('e\n');
    at = await run.waitFor('The block as edited (this is what runs):', { from: at });
    await run.waitFor('1 │ open("out.txt", "w").write("edited")', { from: at });
    const { code: exit } = await run.exit;
    expect(exit, run.screen()).toBe(0);

    // python3 ran the edited block: the file, and the output the model read.
    expect(readFileSync(path.join(workspace, 'out.txt'), 'utf8')).toBe('edited');
    expect(answered!.toolResults.at(-1)!.text).toContain('wrote edited');
    // The log records the edit as the person's answer and the edited block as what ran.
    const runId = /run (\S+): write a file/.exec(run.screen())![1]!;
    const log = readFileSync(path.join(home.home, 'sessions', runId, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; answer?: { decision: string; action?: { command: string } }; action?: { type: string; command?: string; language?: string }; ok?: boolean });
    const edited = 'open("out.txt", "w").write("edited")\nprint("wrote", open("out.txt").read())  # \x1b[2K';
    expect(log.filter((e) => e.type === 'approval_answered').map((e) => e.answer!.decision)).toEqual(['edit']);
    expect(log.find((e) => e.type === 'approval_answered')!.answer!.action!.command).toMatch(new RegExp(`\\n${escapeRegExp(edited)}$`));
    const executed = log.filter((e) => e.type === 'action_executed');
    expect(executed).toHaveLength(1);
    expect(executed[0]).toMatchObject({ ok: true, action: { type: 'shell', language: 'python' } });
    expect(executed[0]!.action!.command).toMatch(new RegExp(`\\n${escapeRegExp(edited)}$`));
  }, 240_000);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
