/**
 * A model turn that clicks into a password field and then types (issue 28, item 7's
 * class): the turn's `model_text` — its prose and its calls — is written before the click
 * runs, when the step's tree still has no password field focused. The word must be masked
 * there too, not only from the typing on. The real `deskpilot run` (elements grounding),
 * the fake model, Chromium's <input type=password> of the probe page (accessibility on).
 * The model's prose names no password ("password is …" prose is the detectors' job): only
 * where the word goes makes it one.
 *
 * The same turn's live text (the deltas the service pushes to the app, the serve page,
 * and the runs ACP and MCP host) is streamed before the turn's calls are known: the
 * second case runs the real runner in this process on the same desktop and reads what its
 * onDelta got.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Rect } from '../../src/shared/actions.js';
import type { RunEvent } from '../../src/shared/events.js';
import { startFakeModel, type FakeRequest } from '../harness/fake-model/index.js';
import { claude, finish, runCli, testRunOptions, toImagePoint } from '../e2e/support.js';
import { SCREEN, useProbeDesktop } from './probe-desktop.js';

const desktop = useProbeDesktop();
const centre = (r: Rect) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });
/** A word the secret detectors let through as text (letters and a digit): only where it goes makes it a password. */
const WORD = 'tulip7';

describe('a model turn clicking into a password field, then typing (issue 28)', () => {
  it('the page receives the word; events.jsonl never holds it, the turn’s model_text included', async () => {
    const controls = await desktop.showControls(10);
    const field = controls.find((c) => c.id === 'c4')!;
    const since = desktop.probe.nextSeq();
    const fake = await startFakeModel();
    let runId: string;
    try {
      fake.script(
        (req: FakeRequest) => ({ text: `I click the fourth box, then type ${WORD}.`, toolCalls: [claude.click(...toImagePoint(req, SCREEN, centre(field))), claude.type(WORD)] }),
        { text: 'Done.', toolCalls: [finish(true, 'typed')] },
      );
      const run = runCli(['run', 'log in', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--json', '--no-agents-md'], desktop.env(fake));
      expect((await run.exit).code, run.stderr()).toBe(0);
      runId = String(run.events().find((e) => e.type === 'run_started')!.runId);
    } finally {
      await fake.close();
    }
    // The password field received exactly the word (its key presses: the page never reports a password's value).
    const inserted = desktop.probe
      .events()
      .filter((e) => e.seq >= since && e.type === 'keydown' && e.target === 'c4')
      .map((e) => e.key ?? '')
      .join('');
    expect(inserted).toBe(WORD);

    const log = readFileSync(path.join(desktop.home, 'sessions', runId, 'events.jsonl'), 'utf8');
    const events = log
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; text?: string; action?: { type: string; text?: string } });
    // The turn's model_text is the first line that would hold it: logged before the click.
    const said = events.find((e) => e.type === 'model_text' && e.text?.includes('fourth box'));
    expect(said?.text).toBe('I click the fourth box, then type [masked secret].');
    expect(log).not.toContain(WORD);
    expect(events.filter((e) => e.type === 'action_proposed' && e.action?.type === 'type').map((e) => e.action!.text)).toEqual(['[masked secret]']);
  }, 400_000);

  it('the streamed text of that turn never holds the word: it is sent once the turn is checked, masked as model_text is', async () => {
    const controls = await desktop.showControls(10);
    const field = controls.find((c) => c.id === 'c4')!;
    const since = desktop.probe.nextSeq();
    const fake = await startFakeModel();
    const saved = { ...process.env };
    // The runner in this process: its screen, input and accessibility reads go to the test's desktop.
    Object.assign(process.env, desktop.env(fake));
    const deltas: Array<{ text: string; kind: string }> = [];
    const events: RunEvent[] = [];
    try {
      fake.script(
        (req: FakeRequest) => ({
          thinking: `The fourth box takes ${WORD} next.`,
          text: `I click the fourth box, then type ${WORD}.`,
          toolCalls: [claude.click(...toImagePoint(req, SCREEN, centre(field))), claude.type(WORD)],
          // Small deltas: the word is split over three of them, as a real stream may split it.
          chunkSize: 3,
        }),
        { text: 'Done.', toolCalls: [finish(true, 'typed')] },
      );
      const { createComputer } = await import('../../src/os-control/index.js');
      const { startRun } = await import('../../src/main/agent/runner.js');
      const handle = await startRun(
        testRunOptions({
          task: 'log in',
          profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl, grounding: 'elements' },
          computer: createComputer(),
          home: desktop.home,
          onEvent: (e) => events.push(e),
          onDelta: (text, kind) => deltas.push({ text, kind }),
        }),
      );
      const result = await handle.done;
      expect(result.status, result.summary).toBe('done');
    } finally {
      process.env = saved;
      await fake.close();
    }
    const typed = desktop.probe
      .events()
      .filter((e) => e.seq >= since && e.type === 'keydown' && e.target === 'c4')
      .map((e) => e.key ?? '')
      .join('');
    expect(typed).toBe(WORD);
    const live = (kind: string) => deltas.filter((d) => d.kind === kind).map((d) => d.text).join('');
    // Every character was streamed, the word masked exactly as the logged model_text has it.
    expect(live('text')).toBe('I click the fourth box, then type [masked secret].Done.');
    expect(live('thinking')).toBe('The fourth box takes [masked secret] next.');
    expect(JSON.stringify(deltas)).not.toContain(WORD);
    expect(JSON.stringify(events)).not.toContain(WORD);
    expect(events.find((e) => e.type === 'model_text' && e.kind === 'text' && e.text.includes('fourth box'))).toMatchObject({ text: 'I click the fourth box, then type [masked secret].' });
  }, 400_000);
});
