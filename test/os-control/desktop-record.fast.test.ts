/**
 * Issue 27 item 7: the record of a virtual desktop's processes, and reaping what a
 * DeskPilot killed outright (SIGKILL) left running — by pid AND start time, so a reused
 * pid is never killed, and never a live DeskPilot's desktop. Real processes (`sleep`)
 * stand in for Xvfb, openbox and dbus-daemon; the folders are real ones in a temp root.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeDesktopCookie } from '../../src/os-control/desktop-auth.js';
import { DESKTOP_DIR_PREFIX, DesktopRecord, judge, processStartTime, reapOrphanedDesktops, startTimeFromStat, stillRunning, stopProcesses, type FolderFacts } from '../../src/os-control/desktop-record.js';

const UID = process.getuid!();
let root: string;
const started: ChildProcess[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'dp-record-test-'));
});
afterEach(() => {
  for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A live stand-in process (in a group of its own, as the desktop's are). */
function standIn(): { pid: number; start: string } {
  const child = spawn('sleep', ['300'], { stdio: 'ignore', detached: true });
  started.push(child);
  const start = processStartTime(child.pid!);
  if (!start) throw new Error('the stand-in ended at once');
  return { pid: child.pid!, start };
}

/** A process that has ended, named by the pid and start time it had. */
async function endedProcess(): Promise<{ pid: number; start: string }> {
  const child = spawn('sleep', ['300'], { stdio: 'ignore' });
  const start = processStartTime(child.pid!)!;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
  return { pid: child.pid!, start };
}

function folder(record: unknown, mode = 0o700): string {
  const dir = mkdtempSync(join(root, DESKTOP_DIR_PREFIX));
  chmodSync(dir, mode);
  writeFileSync(join(dir, 'processes.json'), JSON.stringify(record), { mode: 0o600 });
  return dir;
}

const alive = (pid: number) => processStartTime(pid) !== undefined;

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('start times from /proc/<pid>/stat', () => {
  it('reads field 22, counting after the last ")" (a command name may hold spaces and parentheses)', () => {
    const rest = (state: string) => `${state} 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 987654 20 21`;
    expect(startTimeFromStat(`123 (Xvfb) ${rest('S')}`)).toBe('987654');
    expect(startTimeFromStat(`123 (a) b) (c ) ${rest('R')}`)).toBe('987654');
    expect(startTimeFromStat(`123 (zombie) ${rest('Z')}`)).toBeUndefined();
    expect(startTimeFromStat(`123 (dead) ${rest('X')}`)).toBeUndefined();
    expect(startTimeFromStat('123 no parenthesis')).toBeUndefined();
    expect(startTimeFromStat('123 (short) S 1 2')).toBeUndefined();
    expect(startTimeFromStat(`123 (odd) ${rest('S').replace('987654', '98x')}`)).toBeUndefined();
    expect(startTimeFromStat(`(x) ${rest('S')}`)).toBe('987654');
    expect(startTimeFromStat(`123 (Xvfb) ${rest('S')}\n`)).toBe('987654');
    expect(startTimeFromStat(`123 (odd) ${rest('S').replace('987654', 'x98')}`)).toBeUndefined();
    expect(startTimeFromStat(`) ${rest('S')}`)).toBe('987654');
    expect(startTimeFromStat(`123 (x)   ${rest('S').replaceAll(' ', '  ')}`)).toBe('987654');
    // No ')' at all: not a stat line, even when it has enough fields.
    expect(startTimeFromStat(`123 (Xvfb S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 987654 20 21`)).toBeUndefined();
  });

  it("is this process's own, stable, and gone with the process", async () => {
    const mine = processStartTime(process.pid);
    expect(mine).toMatch(/^\d+$/);
    expect(processStartTime(process.pid)).toBe(mine);
    const ended = await endedProcess();
    expect(processStartTime(ended.pid)).toBeUndefined();
    expect(stillRunning({ pid: process.pid, start: mine! })).toBe(true);
    expect(stillRunning({ pid: process.pid, start: String(Number(mine) + 1) })).toBe(false);
  });
});

describe('judge: the numbered checks', () => {
  const owner = { name: 'deskpilot', pid: 100, start: '5000' };
  const xvfb = { name: 'Xvfb', pid: 101, start: '5001' };
  const wm = { name: 'openbox', pid: 102, start: '5002' };
  const record = JSON.stringify({ version: 1, owner, processes: [xvfb, wm] });
  const facts = (over: Partial<FolderFacts> = {}): FolderFacts => ({ isDirectory: true, uid: UID, mode: 0o40700, record, ...over });
  const running = (table: Record<number, string>) => (pid: number) => table[pid];

  it('1: only a private folder of this user', () => {
    const all = running({ 101: '5001', 102: '5002' });
    expect(judge(facts({ isDirectory: false }), UID, all)).toEqual({ verdict: 'leave', check: 'not-a-private-folder' });
    expect(judge(facts({ uid: UID + 1 }), UID, all)).toEqual({ verdict: 'leave', check: 'not-a-private-folder' });
    expect(judge(facts({ mode: 0o40750 }), UID, all)).toEqual({ verdict: 'leave', check: 'not-a-private-folder' });
    expect(judge(facts({ mode: 0o40702 }), UID, all)).toEqual({ verdict: 'leave', check: 'not-a-private-folder' });
  });

  it('2: only a record that parses', () => {
    const all = running({ 101: '5001' });
    const bads = [
      undefined,
      '',
      '{',
      JSON.stringify({ version: 2, owner, processes: [] }),
      JSON.stringify({ version: 1, owner: { ...owner, pid: 1 }, processes: [] }),
      JSON.stringify({ version: 1, owner: { ...owner, pid: 100.5 }, processes: [] }),
      JSON.stringify({ version: 1, owner, processes: [{ ...xvfb, start: '12x' }] }),
      JSON.stringify({ version: 1, owner, processes: [{ ...xvfb, start: '' }] }),
      JSON.stringify({ version: 1, owner, processes: [{ ...xvfb, start: '1'.repeat(21) }] }),
      JSON.stringify({ version: 1, owner, processes: [{ ...xvfb, name: '' }] }),
      JSON.stringify({ version: 1, owner, processes: [{ ...xvfb, name: 'x'.repeat(65) }] }),
      JSON.stringify({ version: 1, owner, processes: Array.from({ length: 17 }, () => xvfb) }),
      JSON.stringify({ version: 1, owner, processes: [], extra: true }),
      JSON.stringify({ version: 1, owner: { ...owner, extra: 1 }, processes: [] }),
    ];
    // The limits themselves are accepted.
    expect(judge(facts({ record: JSON.stringify({ version: 1, owner, processes: [{ ...xvfb, name: 'x'.repeat(64), start: '1'.repeat(20) }, ...Array.from({ length: 15 }, () => wm)] }) }), UID, all).verdict).toBe('reap');
    for (const bad of bads) {
      expect(judge(facts({ record: bad }), UID, all), String(bad)).toEqual({ verdict: 'leave', check: 'unreadable-record' });
    }
  });

  it('3: a live owner keeps its desktop; 4: a dead one (or its pid reused) has it reaped, only what still runs as recorded', () => {
    expect(judge(facts(), UID, running({ 100: '5000', 101: '5001', 102: '5002' }))).toEqual({ verdict: 'leave', check: 'owner-running' });
    expect(judge(facts(), UID, running({ 101: '5001', 102: '5002' }))).toEqual({ verdict: 'reap', check: 'owner-gone', stop: [xvfb, wm] });
    // The owner's pid now names a later process; openbox's pid too; Xvfb still runs.
    expect(judge(facts(), UID, running({ 100: '9000', 101: '5001', 102: '9100' }))).toEqual({ verdict: 'reap', check: 'owner-gone', stop: [xvfb] });
    expect(judge(facts(), UID, running({}))).toEqual({ verdict: 'reap', check: 'owner-gone', stop: [] });
  });
});

describe('DesktopRecord', () => {
  it('does not record a process that has already ended', async () => {
    const record = DesktopRecord.create(root);
    const ended = await endedProcess();
    record.add('Xvfb', ended.pid);
    expect(record.processes).toEqual([]);
    expect(JSON.parse(readFileSync(join(record.dir, 'processes.json'), 'utf8'))).toMatchObject({ processes: [] });
    expect(existsSync(join(record.dir, 'processes.json.new'))).toBe(false);
    record.remove();
  });

  it('makes a private folder naming this process as owner, records processes with their start times, and removes it', () => {
    const record = DesktopRecord.create(root);
    expect(statSync(record.dir).mode & 0o777).toBe(0o700);
    const p = standIn();
    record.add('Xvfb', p.pid);
    record.add('never-started', undefined);
    expect(record.processes).toEqual([{ name: 'Xvfb', pid: p.pid, start: p.start }]);
    const onDisk = JSON.parse(readFileSync(join(record.dir, 'processes.json'), 'utf8')) as unknown;
    expect(onDisk).toEqual({ version: 1, owner: { name: 'deskpilot', pid: process.pid, start: processStartTime(process.pid) }, processes: [{ name: 'Xvfb', pid: p.pid, start: p.start }] });
    expect(statSync(join(record.dir, 'processes.json')).mode & 0o777).toBe(0o600);
    record.remove();
    expect(existsSync(record.dir)).toBe(false);
    record.remove(); // twice: nothing left to remove is not an error
  });
});

describe("a desktop's cookie file", () => {
  it('holds one fresh FamilyWild MIT-MAGIC-COOKIE-1 of 16 bytes for any display number, 0600, and never reuses a planted file', async () => {
    const { parseXauthority } = await import('../../src/os-control/x11/xauthority.js');
    const a = mkdtempSync(join(root, 'cookie-'));
    const b = mkdtempSync(join(root, 'cookie-'));
    const fileA = writeDesktopCookie(a);
    expect(fileA).toBe(join(a, 'Xauthority'));
    expect(statSync(fileA).mode & 0o777).toBe(0o600);
    const entries = parseXauthority(readFileSync(fileA));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ family: 65535, address: Buffer.alloc(0), number: '', name: 'MIT-MAGIC-COOKIE-1' });
    expect(entries[0]!.data).toHaveLength(16);
    const other = parseXauthority(readFileSync(writeDesktopCookie(b)))[0]!;
    expect(other.data.equals(entries[0]!.data)).toBe(false);
    // A file already there (planted, or a second call) is an error, not a cookie someone else knows.
    expect(() => writeDesktopCookie(a)).toThrow(/EEXIST/);
    expect(parseXauthority(readFileSync(fileA))[0]!.data.equals(entries[0]!.data)).toBe(true);
  });
});

describe('reapOrphanedDesktops', () => {
  it("stops an orphaned desktop's processes and removes its folder; leaves a live owner's desktop, a reused pid and foreign folders alone", async () => {
    const deadOwner = await endedProcess();
    const orphanA = standIn();
    const orphanB = standIn();
    const orphaned = folder({ version: 1, owner: { name: 'deskpilot', ...deadOwner }, processes: [{ name: 'Xvfb', ...orphanA }, { name: 'openbox', ...orphanB }] });

    // A live DeskPilot (this process) owns this one.
    const liveOwner = { name: 'deskpilot', pid: process.pid, start: processStartTime(process.pid)! };
    const keptProcess = standIn();
    const kept = folder({ version: 1, owner: liveOwner, processes: [{ name: 'Xvfb', ...keptProcess }] });

    // A dead owner whose record names a pid that now belongs to another process (a later start time).
    const reused = standIn();
    const reusedFolder = folder({ version: 1, owner: { name: 'deskpilot', ...deadOwner }, processes: [{ name: 'Xvfb', pid: reused.pid, start: String(Number(reused.start) - 1) }] });

    // Folders not ours to judge: open to others, another user's, a plain file.
    const openToAll = standIn();
    const open = folder({ version: 1, owner: { name: 'deskpilot', ...deadOwner }, processes: [{ name: 'Xvfb', ...openToAll }] }, 0o755);
    const foreignProcess = standIn();
    const foreign = folder({ version: 1, owner: { name: 'deskpilot', ...deadOwner }, processes: [{ name: 'Xvfb', ...foreignProcess }] });
    chownSync(foreign, 65534, 65534);
    writeFileSync(join(root, `${DESKTOP_DIR_PREFIX}plainfile`), 'x');
    mkdirSync(join(root, `${DESKTOP_DIR_PREFIX}norecord`), { mode: 0o700 });

    const reaped = await reapOrphanedDesktops(root, UID, 2_000);
    expect(reaped.map((r) => r.dir).sort()).toEqual([orphaned, reusedFolder].sort());
    expect(reaped.find((r) => r.dir === orphaned)?.stopped.map((p) => p.pid)).toEqual([orphanA.pid, orphanB.pid]);
    expect(reaped.find((r) => r.dir === reusedFolder)?.stopped).toEqual([]);
    await until(() => !alive(orphanA.pid) && !alive(orphanB.pid), 'the orphans to end');
    expect(existsSync(orphaned)).toBe(false);
    expect(existsSync(reusedFolder)).toBe(false);

    for (const p of [keptProcess, reused, openToAll, foreignProcess]) expect(stillRunning(p), `pid ${p.pid}`).toBe(true);
    for (const d of [kept, open, foreign, join(root, `${DESKTOP_DIR_PREFIX}norecord`)]) expect(existsSync(d), d).toBe(true);
  });

  it('asks with SIGTERM and waits for the process to finish its own clean-up before any SIGKILL', async () => {
    // Like Xvfb removing its lock and socket: on SIGTERM it takes a moment, then exits 0.
    const polite = spawn('sh', ['-c', 'trap "sleep 0.3; exit 0" TERM; echo ready; while :; do sleep 0.05; done'], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    started.push(polite);
    await new Promise((resolve) => polite.stdout.once('data', resolve));
    const entry = { name: 'Xvfb', pid: polite.pid!, start: processStartTime(polite.pid!)! };
    const how = new Promise((resolve) => polite.once('exit', (code, signal) => resolve({ code, signal })));
    await stopProcesses([entry], 10_000);
    expect(await how).toEqual({ code: 0, signal: null });
  });

  it('never signals a pid whose start time differs: that is another process now', async () => {
    const other = spawn('sleep', ['300'], { stdio: 'ignore', detached: true });
    started.push(other);
    const start = processStartTime(other.pid!)!;
    const how = new Promise((resolve) => other.once('exit', (_code, signal) => resolve(signal)));
    await stopProcesses([{ name: 'openbox', pid: other.pid!, start: String(Number(start) + 1) }], 300);
    // Had SIGTERM or SIGKILL been sent, it would be pending now and taken before this
    // later, higher-numbered one (Linux delivers the lowest pending signal first).
    other.kill('SIGXCPU');
    expect(await how).toBe('SIGXCPU');
  });

  it('two DeskPilots reaping at once: each orphan stopped, no error (the defaults: the temp folder given, this user)', async () => {
    const deadOwner = await endedProcess();
    const orphan = standIn();
    const dir = folder({ version: 1, owner: { name: 'deskpilot', ...deadOwner }, processes: [{ name: 'Xvfb', ...orphan }] });
    const [one, two] = await Promise.all([reapOrphanedDesktops(root), reapOrphanedDesktops(root)]);
    expect([...one, ...two].filter((r) => r.dir === dir).length).toBeGreaterThanOrEqual(1);
    expect(existsSync(dir)).toBe(false);
    await until(() => !alive(orphan.pid), 'the orphan to end');
  });

  it('reads only folders named as ours, in a temp folder that exists; a record that is a link or another user\'s names nothing', async () => {
    expect(await reapOrphanedDesktops(join(root, 'no-such-folder'), UID, 300)).toEqual([]);
    const deadOwner = await endedProcess();
    const a = standIn();
    const b = standIn();
    const c = standIn();
    const unnamed = mkdtempSync(join(root, 'not-a-desktop-'));
    writeFileSync(join(unnamed, 'processes.json'), JSON.stringify({ version: 1, owner: { name: 'deskpilot', ...deadOwner }, processes: [{ name: 'Xvfb', ...a }] }));
    const linked = folder({});
    const target = join(root, 'elsewhere.json');
    writeFileSync(target, JSON.stringify({ version: 1, owner: { name: 'deskpilot', ...deadOwner }, processes: [{ name: 'Xvfb', ...b }] }));
    rmSync(join(linked, 'processes.json'));
    symlinkSync(target, join(linked, 'processes.json'));
    const foreignRecord = folder({ version: 1, owner: { name: 'deskpilot', ...deadOwner }, processes: [{ name: 'Xvfb', ...c }] });
    chownSync(join(foreignRecord, 'processes.json'), 65534, 65534);
    expect(await reapOrphanedDesktops(root, UID, 300)).toEqual([]);
    for (const p of [a, b, c]) expect(stillRunning(p)).toBe(true);
    for (const d of [unnamed, linked, foreignRecord]) rmSync(d, { recursive: true, force: true });
  });

  it('an orphan that ignores SIGTERM is killed after the grace time', async () => {
    const deadOwner = await endedProcess();
    const stubborn = spawn('sh', ['-c', 'trap "" TERM; echo ready; while :; do sleep 1; done'], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    started.push(stubborn);
    // Its trap is set once it says so (a SIGTERM before that would end it).
    await new Promise((resolve) => stubborn.stdout.once('data', resolve));
    const entry = { name: 'Xvfb', pid: stubborn.pid!, start: processStartTime(stubborn.pid!)! };
    folder({ version: 1, owner: { name: 'deskpilot', ...deadOwner }, processes: [entry] });
    const gone = new Promise((resolve) => stubborn.once('exit', (_code, signal) => resolve(signal)));
    await reapOrphanedDesktops(root, UID, 300);
    expect(await gone).toBe('SIGKILL');
  });
});
