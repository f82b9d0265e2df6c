import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerSessionsCommand } from '../../src/main/cli/sessions-command.js';
import { SessionSummarySchema } from '../../src/shared/bridge.js';
import { tempHome, writeSampleRun } from './fixture.js';

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

/** Runs `deskpilot sessions …` in process with the real command tree; returns what it printed and its exit code. */
async function cli(args: string[], resume?: (runId: string) => Promise<number>) {
  const out: string[] = [];
  const err: string[] = [];
  let code = -1;
  const program = new Command('deskpilot').exitOverride();
  program.configureOutput({ writeOut: (s) => out.push(s), writeErr: (s) => err.push(s) });
  registerSessionsCommand(program, { home: () => home, out: (s) => out.push(s), err: (s) => err.push(s), setExitCode: (c) => (code = c), resume });
  try {
    await program.parseAsync(['node', 'deskpilot', 'sessions', ...args]);
  } catch (e) {
    code = (e as { exitCode?: number }).exitCode ?? 1;
  }
  return { out: out.join('\n'), err: err.join('\n'), code };
}

describe('deskpilot sessions', () => {
  it('list, --json, --search, --status', async () => {
    const { log: a } = await writeSampleRun({ home, steps: 2, runId: '20261101-090000-aaaa', task: 'compute 2+3 in xcalc' });
    const { log: b } = await writeSampleRun({ home, steps: 1, runId: '20261102-090000-bbbb', task: 'rename files', end: false });
    await b.close();
    const plain = await cli(['list']);
    expect(plain.code).toBe(0);
    const lines = plain.out.split('\n');
    expect(lines[0]).toContain(b.runId);
    expect(lines[0]).toContain('interrupted');
    expect(lines[1]).toContain(a.runId);
    expect(lines[1]).toContain('done');
    const json = await cli(['list', '--json']);
    const parsed = SessionSummarySchema.array().parse(JSON.parse(json.out));
    expect(parsed.map((s) => s.runId)).toEqual([b.runId, a.runId]);
    expect((await cli(['list', '--search', 'xcalc'])).out).not.toContain(b.runId);
    expect((await cli(['list', '--status', 'interrupted', '--json'])).out).toContain(b.runId);
    expect((await cli(['list', '--status', 'interrupted', '--json'])).out).not.toContain(a.runId);
  });

  it('show prints the timeline; an unknown or malformed id is a usage error', async () => {
    const { log } = await writeSampleRun({ home, steps: 2 });
    const shown = await cli(['show', log.runId]);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('proposed: click left at (60, 70)');
    expect(shown.out).toContain('answered: approve by person cli');
    expect(shown.out).toMatch(/ended: done after 2 steps/);
    const json = await cli(['show', log.runId, '--json']);
    expect(json.out.split('\n').map((l) => JSON.parse(l).seq)).toEqual(Array.from({ length: json.out.split('\n').length }, (_, i) => i));
    const missing = await cli(['show', '20261130-000000-ffff']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no run matches "20261130-000000-ffff"/);
    expect((await cli(['show', '../../etc'])).code).not.toBe(0);
  });

  it('export writes each format to --out', async () => {
    const { log } = await writeSampleRun({ home, steps: 2 });
    for (const format of ['md', 'html', 'json', 'webp', 'gif']) {
      const out = path.join(home, 'x', `r.${format}`);
      const r = await cli(['export', log.runId, '--format', format, '--out', out]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toBe(out);
      expect((await fsp.stat(out)).size).toBeGreaterThan(100);
    }
    const md = await fsp.readFile(path.join(home, 'x', 'r.md'), 'utf8');
    // Attachable: every image link points into r-images/ next to the file, never into the data folder, and each file is there.
    const links = [...md.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(links).toHaveLength(2);
    for (const link of links) {
      expect(link.startsWith('r-images/')).toBe(true);
      const copy = await fsp.readFile(path.resolve(home, 'x', link));
      expect(copy.equals(await fsp.readFile(path.join(log.dir, link.slice('r-images/'.length))))).toBe(true);
    }
    expect(md).not.toContain(log.dir);
    const json = JSON.parse(await fsp.readFile(path.join(home, 'x', 'r.json'), 'utf8'));
    expect(json).toMatchObject({ format: 'deskpilot-run', schema: 1, runId: log.runId, summary: { status: 'done', steps: 2 } });
    expect(json.events.length).toBeGreaterThan(10);
    expect((await cli(['export', log.runId, '--format', 'pdf'])).code).not.toBe(0);
  });

  it('resume hands the run to the runner; a running run is refused', async () => {
    const { log } = await writeSampleRun({ home, steps: 1, end: false });
    const asked: string[] = [];
    const running = await cli(['resume', log.runId], async (id) => (asked.push(id), 0));
    expect(running.code).toBe(2);
    expect(running.err).toMatch(/still running/);
    await log.close();
    const r = await cli(['resume', log.runId], async (id) => (asked.push(id), 0));
    expect(r.code).toBe(0);
    expect(asked).toEqual([log.runId]);
    expect((await cli(['resume', log.runId])).err).toMatch(/resume is not available/);
  });

  it('show, export, rm and resume take a unique prefix or "last"; an ambiguous prefix names the candidates', async () => {
    const a = await writeSampleRun({ home, steps: 1, screenshots: false, runId: '20261201-031500-aaaa', task: 'first' });
    await a.log.close();
    const b = await writeSampleRun({ home, steps: 1, screenshots: false, runId: '20261201-031600-bbbb', task: 'second' });
    await b.log.close();
    expect((await cli(['show', 'last'])).out).toMatch(/^20261201-031600-bbbb/);
    expect((await cli(['show', '20261201-0315'])).out).toMatch(/^20261201-031500-aaaa/);
    const ambiguous = await cli(['show', '20261201-03']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.err).toContain('"20261201-03" matches 2 runs (20261201-031600-bbbb, 20261201-031500-aaaa); give more of the id');
    const resumed: string[] = [];
    expect((await cli(['resume', '20261201-0315'], async (id) => (resumed.push(id), 0))).code).toBe(0);
    expect(resumed).toEqual(['20261201-031500-aaaa']);
    // One reference that matches nothing: nothing at all is deleted.
    const typo = await cli(['rm', 'last', 'nope']);
    expect(typo.code).toBe(2);
    await expect(fsp.access(b.log.dir)).resolves.toBeUndefined();
    expect((await cli(['rm', 'last'])).out).toBe('deleted 20261201-031600-bbbb');
    expect((await cli(['list'])).out).toMatch(/^20261201-031500-aaaa/);
  });

  it('export infers the format from --out, and says what to do when it cannot', async () => {
    const { log } = await writeSampleRun({ home, steps: 1 });
    const out = path.join(home, 'report.html');
    const r = await cli(['export', 'last', '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(await fsp.readFile(out, 'utf8')).toMatch(/^<!doctype html>/i);
    const md = path.join(home, 'notes.markdown');
    expect((await cli(['export', log.runId, '--out', md])).code).toBe(0);
    expect(await fsp.readFile(md, 'utf8')).toContain('# ');
    const unknown = await cli(['export', log.runId, '--out', path.join(home, 'report.pdf')]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('give --format (md, html, json, webp, gif, animation, trajectory) or an --out file ending in one of them');
    expect((await cli(['export', log.runId])).code).toBe(2);
  });

  it('export --format animation writes the animated WebP; the old name "replay" still does, and says it is deprecated', async () => {
    const { log } = await writeSampleRun({ home, steps: 2 });
    const current = path.join(home, 'a.webp');
    const r = await cli(['export', log.runId, '--format', 'animation', '--out', current]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe('');
    const old = path.join(home, 'b.webp');
    const deprecated = await cli(['export', log.runId, '--format', 'replay', '--out', old]);
    expect(deprecated.code, deprecated.err).toBe(0);
    expect(deprecated.err).toContain('--format replay is deprecated: it is now --format animation');
    const [a, b] = await Promise.all([fsp.readFile(current), fsp.readFile(old)]);
    expect(a.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(b.equals(a)).toBe(true);
  });

  it('lists a QA case by its plan and case name, not its long QA prompt', async () => {
    const { log } = await writeSampleRun({
      home,
      steps: 1,
      screenshots: false,
      task: 'You are a QA tester. '.repeat(40),
      labels: { qaSuite: 's1', qaCase: 'adds two numbers', qaAttempt: '1', qaPlan: 'Calculator' },
    });
    await log.close();
    const line = (await cli(['list'])).out;
    expect(line).toMatch(/QA Calculator › adds two numbers$/);
    expect(line).not.toContain('You are a QA tester');
  });

  it('rm deletes runs', async () => {
    const { log } = await writeSampleRun({ home, steps: 1, screenshots: false });
    const r = await cli(['rm', log.runId]);
    expect(r.code).toBe(0);
    await expect(fsp.access(log.dir)).rejects.toThrow();
    const again = await cli(['rm', log.runId]);
    expect(again.code).toBe(2);
    expect((await cli(['list'])).out).toBe('no runs');
  });
});
