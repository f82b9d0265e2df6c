/**
 * A replay asks the person for a secret masked when recorded (issue 28 item 6), never
 * echoed: on a real pseudo-terminal (python3's pty, the driver's own echo on until the
 * reader turns it off) the typed password never comes back to the screen; the reader
 * restores the terminal's mode; the secrets asked for are exactly the masked steps'
 * unset variables; and what the person gave is typed by the replay and told to the scrubber.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { PassThrough } from 'node:stream';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canAskHidden, readHidden, type RawInput } from '../../src/main/cli/secret-prompt.js';
import { secretsWanted } from '../../src/main/agent/replay/secrets-wanted.js';
import { ReplayProvider } from '../../src/main/agent/replay/replay-provider.js';
import { MASKED_SECRET, REDACTED } from '../../src/main/sessions/scrub.js';
import { TRAJECTORY_FORMAT, TRAJECTORY_SCHEMA, TrajectorySchema } from '../../src/shared/trajectory.js';
import { screenFingerprint } from '../../src/os-control/screen-match.js';
import { H, requestOn, screen, W } from './drawn-screen.js';

/** A terminal's input as the reader sees it: data in, raw mode switched and recorded. */
function fakeTerminal() {
  const input = new PassThrough() as PassThrough & RawInput;
  const modes: boolean[] = [];
  input.isTTY = true;
  input.isRaw = false;
  input.setRawMode = (mode: boolean) => (modes.push(mode), (input.isRaw = mode), input);
  const output = new PassThrough() as PassThrough & { isTTY: boolean };
  output.isTTY = true;
  let shown = '';
  output.on('data', (d: Buffer) => (shown += d.toString('utf8')));
  return { input, output, modes, shown: () => shown };
}

describe('readHidden', () => {
  it('reads the answer with raw mode on, erases with backspace, shows only the question and a newline, and restores the mode', async () => {
    const t = fakeTerminal();
    const answer = readHidden('Password: ', t.input, t.output);
    t.input.write('hun');
    t.input.write('\u007fter2 é');
    t.input.write('\r');
    expect(await answer).toBe('huter2 é');
    expect(t.shown()).toBe('Password: \n');
    expect(t.modes).toEqual([true, false]);
    expect(t.input.listenerCount('data')).toBe(0);
  });

  it('Ctrl-C, Escape and Ctrl-D on an empty answer decline; Ctrl-D inside an answer is dropped; the input ending declines', async () => {
    for (const keys of ['abc\u0003', '\u001b', '\u0004']) {
      const t = fakeTerminal();
      const answer = readHidden('? ', t.input, t.output);
      t.input.write(keys);
      expect(await answer).toBeNull();
      expect(t.modes).toEqual([true, false]);
    }
    const t = fakeTerminal();
    const kept = readHidden('? ', t.input, t.output);
    t.input.write('a\u0004b\n');
    expect(await kept).toBe('ab');
    const e = fakeTerminal();
    const ended = readHidden('? ', e.input, e.output);
    e.input.end();
    expect(await ended).toBeNull();
  });

  it('an answer past 4096 characters is declined, not cut', async () => {
    const t = fakeTerminal();
    const answer = readHidden('? ', t.input, t.output);
    t.input.write(`${'x'.repeat(4097)}\r`);
    expect(await answer).toBeNull();
  });

  it('is refused where echo cannot be turned off (a pipe, or output that is no terminal)', async () => {
    const pipe = new PassThrough();
    const t = fakeTerminal();
    expect(canAskHidden(pipe, t.output)).toBe(false);
    expect(canAskHidden(t.input, new PassThrough() as { isTTY?: boolean })).toBe(false);
    expect(canAskHidden(t.input, t.output)).toBe(true);
    await expect(readHidden('? ', pipe, t.output)).rejects.toThrow(/only at a terminal/);
  });

  it('on a real pseudo-terminal the typed secret is never echoed back', async () => {
    // The child reads one hidden line from its terminal and prints only its length.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dp-hidden-'));
    const child = path.join(dir, 'child.mts');
    await writeFile(child, `import { readHidden } from ${JSON.stringify(path.resolve('src/main/cli/secret-prompt.ts'))};
const v = await readHidden('Password: ', process.stdin, process.stderr);
process.stdout.write('got ' + String(v?.length) + ' chars\\n');`);
    // python3 drives the pty: it types the password once the question is shown, and prints everything the terminal showed.
    const driver = `import os, pty, sys, select
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[2], [sys.argv[2], sys.argv[1]])
seen = b''
typed = False
while True:
    r, _, _ = select.select([fd], [], [], 60)
    if not r:
        break
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    seen += chunk
    if not typed and b'Password: ' in seen:
        os.write(fd, b'hunter2-S3cret\\r')
        typed = True
os.waitpid(pid, 0)
sys.stdout.write(seen.decode('utf8', 'replace'))`;
    const shown = await new Promise<string>((resolve, reject) => {
      const p = spawn('python3', ['-c', driver, child, path.resolve('node_modules/.bin/tsx')], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      p.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
      p.on('error', reject);
      p.on('close', () => resolve(out));
    });
    await rm(dir, { recursive: true, force: true });
    expect(shown).toContain('Password: ');
    expect(shown).toContain('got 14 chars');
    expect(shown).not.toContain('hunter2');
    expect(shown).not.toContain('S3cret');
  }, 90_000);
});

describe('the secrets a replay asks for', () => {
  async function trajectory() {
    const png = await screen('Password:');
    const before = { image: 'b.png', fingerprint: await screenFingerprint(png) };
    const t = TrajectorySchema.parse({
      format: TRAJECTORY_FORMAT,
      schema: TRAJECTORY_SCHEMA,
      revision: 1,
      task: 'log in',
      runId: 'r1',
      display: { x: 0, y: 0, width: W, height: H },
      steps: [
        { step: 0, intent: 'Type the name.', actions: [{ action: { type: 'type', text: 'alice' } }], before },
        { step: 1, intent: 'Type the password.', actions: [{ action: { type: 'type', text: `${MASKED_SECRET}\n` }, secretRef: { env: 'DESKPILOT_SECRET_1' } }], before },
        { step: 2, intent: 'Type it again.', actions: [{ action: { type: 'type', text: MASKED_SECRET }, secretRef: { env: 'DESKPILOT_SECRET_1' } }], before },
        { step: 3, intent: 'Paste the key.', actions: [{ action: { type: 'type', text: `KEY=${REDACTED}` }, secretRef: { env: 'DESKPILOT_SECRET_2' } }], before },
        { step: 4, intent: 'Old trajectory.', actions: [{ action: { type: 'type', text: MASKED_SECRET } }], before },
        { step: 5, intent: 'Plain text, ref kept by hand.', actions: [{ action: { type: 'type', text: 'plain' }, secretRef: { env: 'DESKPILOT_SECRET_3' } }], before },
      ],
    });
    return { t, png };
  }

  it("are each masked step's unset secretRef variable, once, at the first step that types it", async () => {
    const { t } = await trajectory();
    expect(secretsWanted(t, {})).toEqual([
      { env: 'DESKPILOT_SECRET_1', index: 1, intent: 'Type the password.' },
      { env: 'DESKPILOT_SECRET_2', index: 3, intent: 'Paste the key.' },
    ]);
    expect(secretsWanted(t, { DESKPILOT_SECRET_1: 'x' })).toEqual([{ env: 'DESKPILOT_SECRET_2', index: 3, intent: 'Paste the key.' }]);
    // An empty variable is not a secret given.
    expect(secretsWanted(t, { DESKPILOT_SECRET_1: '', DESKPILOT_SECRET_2: 'k' }).map((w) => w.env)).toEqual(['DESKPILOT_SECRET_1']);
  });

  it('what the person gave is typed in place of the mask and told to the scrubber first', async () => {
    const { t, png } = await trajectory();
    const marked: string[] = [];
    const provider = new ReplayProvider({
      trajectory: { ...t, steps: [t.steps[1]!] },
      mode: 'strict',
      env: { ...{ DESKPILOT_SECRET_1: 'typed-by-person' } },
      markSecret: (v) => marked.push(v),
      readFile: async () => png,
      computer: { findElement: () => Promise.reject(new Error('no tree')), elementTree: () => Promise.reject(new Error('no tree')), settle: async () => ({ waitedMs: 0, settled: true }) },
    });
    const turn = await provider.turn(requestOn(png), new AbortController().signal);
    expect(turn.assistant.calls.flatMap((c) => c.actions)).toEqual([{ ok: true, action: { type: 'type', text: 'typed-by-person\n' } }]);
    expect(marked).toEqual(['typed-by-person']);
  });
});
