/**
 * Screenshots of secrets (issue 28 item 8) on a real desktop: Xvfb, a private
 * accessibility bus, the probe page in Chromium (accessibility on), the real `deskpilot`
 * command line and the fake model.
 *   - a --grounding pixels run types into <input type=password>: every stored screenshot
 *     after it has the field filled (one colour), the model's own copy still shows the
 *     dots, the Markdown export and the trajectory export carry the filled one, and
 *     `deskpilot replay --strict` of it (the field filled on both sides) exits 0;
 *   - a dialog says "Your new password is P@ssw0rd!2024": `sessions export --redact`'s
 *     image no longer reads as a secret by OCR, the plain export's does.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Rect } from '../../src/shared/actions.js';
import { findSecrets } from '../../src/shared/secrets.js';
import { readText, terminateOcr } from '../../src/os-control/ocr/index.js';
import { startFakeModel, type FakeRequest } from '../harness/fake-model/index.js';
import { claude, finish, runCli, toImagePoint } from '../e2e/support.js';
import { SCREEN, useProbeDesktop } from './probe-desktop.js';
import { coversField, insideInImage, meanDifference, spread, storedObservations } from './stored-screens.js';

const desktop = useProbeDesktop();
const env = desktop.env;
afterAll(() => terminateOcr());

const runIdOf = (events: Array<Record<string, unknown>>) => String(events.find((e) => e.type === 'run_started')!.runId);
const centre = (r: Rect) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });
const sessionDir = (runId: string) => path.join(desktop.home, 'sessions', runId);

const observations = (runId: string) => storedObservations(sessionDir(runId));

describe('a password field is filled in every stored screenshot, never in the model\'s (item 8)', () => {
  it('--grounding pixels run: stored and exported screens show one colour there, the model\'s copy the dots; replay --strict passes', async () => {
    const fieldRect = (await desktop.showControls(10)).find((c) => c.id === 'c4')!;
    const fake = await startFakeModel();
    let runId: string;
    try {
      fake.script(
        (req: FakeRequest) => ({ text: 'Click the password field.', toolCalls: [claude.click(...toImagePoint(req, SCREEN, centre(fieldRect)))] }),
        () => ({ text: 'Type it.', toolCalls: [claude.type('hunter2')] }),
        { text: 'Done.', toolCalls: [finish(true, 'done')] },
      );
      const run = runCli(['run', 'log in', '--grounding', 'pixels', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--json', '--no-agents-md'], env(fake));
      expect((await run.exit).code, run.stderr()).toBe(0);
      runId = runIdOf(run.events());
    } finally {
      await fake.close();
    }
    const shots = observations(runId);
    const last = shots.at(-1)!;
    // The screens before the password was typed hide nothing (a pixels run reads no tree for them).
    expect(shots[0]!.secretRegions).toBeUndefined();
    // The one after: the field the run typed into, by the tree the gate read.
    expect(last.secretRegions).toHaveLength(1);
    const region = last.secretRegions![0]!;
    expect(coversField([region], fieldRect), JSON.stringify({ region, fieldRect })).toBe(true);
    const box = insideInImage(fieldRect, last);
    expect(await spread(path.join(sessionDir(runId), last.image), box)).toBeLessThanOrEqual(12);
    expect(last.modelImage).toBeDefined();
    expect(await spread(path.join(sessionDir(runId), last.modelImage!), box)).toBeGreaterThan(100);

    // Markdown export: its images folder holds the stored (filled) screen.
    const md = path.join(desktop.home, 'exports', 'pw.md');
    const exported = runCli(['sessions', 'export', runId, '--out', md], env());
    expect((await exported.exit).code, exported.stderr()).toBe(0);
    expect(await spread(path.join(desktop.home, 'exports', 'pw-images', ...last.image.split('/')), box)).toBeLessThanOrEqual(12);

    // Trajectory export: the final screen filled, and it names the regions for a replay to fill alike.
    const out = path.join(desktop.home, 'exports', 'pw.trajectory');
    const traj = runCli(['sessions', 'export', runId, '--format', 'trajectory', '--out', out], env());
    expect((await traj.exit).code, traj.stderr()).toBe(0);
    const trajectory = JSON.parse(readFileSync(path.join(out, 'trajectory.json'), 'utf8')) as { final: { image: string; masked?: Rect[] } };
    expect(trajectory.final.masked).toEqual(last.secretRegions);
    expect(await spread(path.join(out, ...trajectory.final.image.split('/')), box)).toBeLessThanOrEqual(12);
    expect(readdirSync(out)).toContain('screens');

    // The replay sees the dots now and a filled box then: it fills the same region of its screen, and passes.
    await desktop.showControls(10);
    const replay = runCli(['replay', runId, '--strict', '--yes', '--json'], { ...env(), DESKPILOT_SECRET_1: 'hunter2' });
    expect((await replay.exit).code, replay.stderr()).toBe(0);
  }, 400_000);
});

describe('sessions export --redact fills the words the secret detectors flag (item 8)', () => {
  it('a dialog saying "Your new password is P@ssw0rd!2024": the plain export reads as a secret by OCR, the --redact one does not', async () => {
    await desktop.probe.showDialog('Your new password is P@ssw0rd!2024');
    const fake = await startFakeModel();
    let runId: string;
    try {
      fake.script({ text: 'Nothing to do.', toolCalls: [finish(true, 'done')] });
      const run = runCli(['run', 'look', '--grounding', 'pixels', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--json', '--no-agents-md'], env(fake));
      expect((await run.exit).code, run.stderr()).toBe(0);
      runId = runIdOf(run.events());
    } finally {
      await fake.close();
    }
    const image = observations(runId)[0]!.image;
    const exportMd = async (name: string, extra: string[]) => {
      const file = path.join(desktop.home, 'exports', `${name}.md`);
      const run = runCli(['sessions', 'export', runId, '--out', file, ...extra], env());
      expect((await run.exit).code, run.stderr()).toBe(0);
      return { stderr: run.stderr(), image: readFileSync(path.join(desktop.home, 'exports', `${name}-images`, ...image.split('/'))) };
    };
    const plain = await exportMd('plain', []);
    const plainText = (await readText(plain.image, { layout: 'sparse' })).text;
    // The control: OCR reads the sentence and the detectors flag it on the plain export.
    expect(plainText).toMatch(/password/i);
    expect(findSecrets(plainText).length, plainText).toBeGreaterThan(0);

    const redacted = await exportMd('redacted', ['--redact']);
    expect(redacted.stderr).toMatch(/redacted \d+ words? in screens\//);
    const redactedText = (await readText(redacted.image, { layout: 'sparse' })).text;
    expect(findSecrets(redactedText), redactedText).toEqual([]);
    expect(redactedText).not.toMatch(/2024|ssw0rd/);
    // Not the whole screen: the sentence's start still reads.
    expect(redactedText, redacted.stderr).toMatch(/Your new/);
    // The word "password" is a label, not a secret (item 3): its pixels are as exported
    // plain, the secret's are one colour. (By pixels: OCR of the redacted image reads
    // "Your new" and drops "password is" beside the filled box, at 10 px text.)
    const words = (await readText(plain.image, { layout: 'sparse', minConfidence: 0 })).words;
    const box = (re: RegExp) => {
      const w = words.find((x) => re.test(x.text));
      if (!w) throw new Error(`OCR read no word like ${re}: ${words.map((x) => x.text).join(' ')}`);
      return { x: Math.floor(w.bbox.x), y: Math.floor(w.bbox.y), width: Math.ceil(w.bbox.width), height: Math.ceil(w.bbox.height) };
    };
    expect(await meanDifference(plain.image, redacted.image, box(/^password$/i))).toBeLessThan(4);
    expect(await spread(redacted.image, box(/2024/))).toBeLessThanOrEqual(12);
    expect(await spread(plain.image, box(/2024/))).toBeGreaterThan(100);
  }, 400_000);
});
