/**
 * Typing into a password field is masked whatever types it (issue 28, the class behind
 * item 5): a code block's `computer.keyboard.write` after its own click into
 * <input type=password> of the probe page (Chromium, accessibility on) is a password
 * because of where it lands, read when it is typed — the step's tree, read before the
 * block's click, has another element focused. The real `deskpilot run --harness code`,
 * the fake model and python3.
 *
 * The block builds the word from character codes so the block's own text (logged as the
 * model wrote it, before anything runs) does not carry it: a real block reads it from a
 * file or the environment. What is checked is every line written after the typing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Rect } from '../../src/shared/actions.js';
import { startFakeModel, type FakeRequest } from '../harness/fake-model/index.js';
import { finish, runCli, toImagePoint } from '../e2e/support.js';
import { SCREEN, useProbeDesktop } from './probe-desktop.js';
import { coversField, storedObservations } from './stored-screens.js';

const desktop = useProbeDesktop();
const centre = (r: Rect) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });
/** A word the secret detectors let through as text (letters and a digit): only where it goes makes it a password. */
const WORD = 'tulip7';
const codes = [...WORD].map((c) => c.charCodeAt(0)).join(', ');

describe('a code block typing into a password field (issue 28)', () => {
  it('the page receives the word; events.jsonl has it masked on every line after it, and the field is filled in the screens after it', async () => {
    const controls = await desktop.showControls(10);
    const field = controls.find((c) => c.id === 'c4')!;
    const since = desktop.probe.nextSeq();
    const fake = await startFakeModel();
    let runId: string;
    try {
      fake.script(
        (req: FakeRequest) => {
          const p = toImagePoint(req, SCREEN, centre(field));
          const code = [`computer.mouse.click(${p[0]}, ${p[1]})`, `computer.keyboard.write("".join(chr(c) for c in [${codes}]))`].join('\n');
          return { text: 'Log in.', toolCalls: [{ name: 'execute', input: { language: 'python', code } }] };
        },
        { text: 'Done.', toolCalls: [finish(true, 'typed')] },
      );
      const run = runCli(
        ['run', 'log in', '--harness', 'code', '--provider', 'anthropic', '--model', 'claude-sonnet-5-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--json', '--no-agents-md', '--sandbox', 'danger-full-access'],
        desktop.env(fake),
      );
      expect((await run.exit).code, run.stderr()).toBe(0);
      runId = String(run.events().find((e) => e.type === 'run_started')!.runId);
    } finally {
      await fake.close();
    }
    // The password field received exactly what was typed (its key presses: the page never reports a password's value).
    const inserted = desktop.probe
      .events()
      .filter((e) => e.seq >= since && e.type === 'keydown' && e.target === 'c4')
      .map((e) => e.key ?? '')
      .join('');
    expect(inserted).toBe(WORD);

    const dir = path.join(desktop.home, 'sessions', runId);
    const log = readFileSync(path.join(dir, 'events.jsonl'), 'utf8');
    // Nowhere in the log: the type action's proposal and execution, the block's answer, the trajectory.
    expect(log).not.toContain(WORD);
    const typed = log
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; action?: { type: string; text?: string } })
      .filter((e) => e.type === 'action_proposed' && e.action?.type === 'type');
    expect(typed.map((e) => e.action!.text)).toEqual(['[masked secret]']);
    // The screens stored after it hide the field (the same decision: what the log masks, the pixels hide).
    const last = storedObservations(dir).at(-1)!;
    expect(coversField(last.secretRegions ?? [], field), JSON.stringify(last.secretRegions)).toBe(true);
  }, 400_000);
});
