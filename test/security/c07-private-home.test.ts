import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Class 7: DESKPILOT_HOME and everything DeskPilot writes into it is private (folders
// 700, files 600) under any umask, and a home an older version left world-readable is
// repaired on start. The writer runs in a child process under `umask 000`, the worst case.

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'dp-sec-c07-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function runWriter(home: string): void {
  const script = path.join(import.meta.dirname, 'c07-writer.ts');
  const out = execFileSync('sh', ['-c', `umask 000; exec "${process.execPath}" --import tsx "${script}" "${home}"`], { encoding: 'utf8' });
  expect(out).toContain('done');
}

/** Every folder and file under dir (links not followed), with its permission bits. */
function modes(dir: string): Array<{ file: string; mode: string; dir: boolean }> {
  const out: Array<{ file: string; mode: string; dir: boolean }> = [];
  const walk = (p: string) => {
    const st = lstatSync(p);
    out.push({ file: path.relative(dir, p) || '.', mode: (st.mode & 0o777).toString(8), dir: st.isDirectory() });
    if (st.isDirectory()) for (const e of readdirSync(p)) walk(path.join(p, e));
  };
  walk(dir);
  return out;
}

describe('a private DESKPILOT_HOME', () => {
  it('a new home: every folder 700, every file 600, even under umask 000', () => {
    const home = path.join(scratch, 'new-home');
    runWriter(home);
    const all = modes(home);
    expect(all.filter((m) => !m.dir).map((m) => m.file)).toEqual(expect.arrayContaining(['config.json', 'exports/run.md']));
    expect(all.some((m) => m.file.endsWith('events.jsonl'))).toBe(true);
    expect(all.some((m) => m.file.endsWith('shots/0.png'))).toBe(true);
    expect(all.some((m) => m.file.endsWith('summary.json'))).toBe(true);
    for (const m of all) expect(m, m.file).toMatchObject({ mode: m.dir ? '700' : '600' });
  });

  it('an old world-readable home is repaired on start', () => {
    const home = path.join(scratch, 'old-home');
    const run = path.join(home, 'sessions', '20250101-000000-abcd');
    mkdirSync(path.join(run, 'shots'), { recursive: true });
    writeFileSync(path.join(home, 'config.json'), '{}\n');
    writeFileSync(path.join(run, 'shots', 'old.png'), 'png');
    writeFileSync(path.join(run, 'summary.json'), '{}');
    for (const d of [home, path.join(home, 'sessions'), run, path.join(run, 'shots')]) chmodSync(d, 0o755);
    for (const f of [path.join(home, 'config.json'), path.join(run, 'shots', 'old.png'), path.join(run, 'summary.json')]) chmodSync(f, 0o644);
    runWriter(home);
    for (const m of modes(home)) expect(m, m.file).toMatchObject({ mode: m.dir ? '700' : '600' });
  });
});
