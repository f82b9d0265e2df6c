import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileTooLargeError, formatBytes, readCapped, readCappedText } from '../../src/main/read-capped.js';
import { MAX_PLAN_BYTES, readPlanFile } from '../../src/main/qa/parse-plan.js';
import { loadTrajectoryFile } from '../../src/main/agent/replay/index.js';
import { loadConfig, MAX_CONFIG_BYTES } from '../../src/main/config/load-config.js';
import { loadSkillDir } from '../../src/main/agent/skills/discover-skills.js';

// Issue 27 item 10: a file a person points DeskPilot at gets a clear error past its
// documented limit, whatever the path is — a stat() size says 0 for a FIFO or /dev/zero,
// which then read without end. Real FIFOs and devices, no mocked fs.

const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-capped-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A FIFO with a writer (`head -c N /dev/zero` or `yes`) feeding it; the writer is killed afterwards. */
function fifoFed(name: string, command: string): { file: string; stop: () => void } {
  const file = path.join(dir, name);
  expect(spawnSync('mkfifo', [file]).status).toBe(0);
  const writer = spawn('sh', ['-c', `${command} > '${file}'`], { stdio: 'ignore' });
  return { file, stop: () => writer.kill('SIGKILL') };
}

describe('readCapped', () => {
  it('reads a regular file under the limit whole, byte for byte', async () => {
    const file = path.join(dir, 'small.bin');
    const bytes = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));
    writeFileSync(file, bytes);
    expect((await readCapped(file, { maxBytes: 200_000, what: 'a test file' })).equals(bytes)).toBe(true);
  });

  it('refuses a regular file over the limit from its size, naming size, kind and limit', async () => {
    const file = path.join(dir, 'big.md');
    writeFileSync(file, '');
    truncateSync(file, 3 * 1024 * 1024 + 512 * 1024);
    const error = await readCapped(file, { maxBytes: 1024 * 1024, what: 'a plan' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileTooLargeError);
    expect((error as Error).message).toBe('it is 3.5 MiB; a plan may be at most 1 MiB');
  });

  it('a FIFO that stays under the limit is read whole', async () => {
    const { file, stop } = fifoFed('under.fifo', "printf 'hello through a pipe'");
    try {
      expect(await readCappedText(file, { maxBytes: 1024, what: 'a plan' })).toBe('hello through a pipe');
    } finally {
      stop();
    }
  });

  it('an endless FIFO is cut at the limit with a clear error (stat says 0 bytes for it)', async () => {
    const { file, stop } = fifoFed('endless.fifo', 'yes');
    try {
      const error = await readCapped(file, { maxBytes: 256 * 1024, what: 'a plan' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FileTooLargeError);
      expect((error as Error).message).toBe('it goes on past 256 KiB; a plan may be at most 256 KiB');
    } finally {
      stop();
    }
  });

  it('/dev/zero is cut at the limit too', async () => {
    await expect(readCapped('/dev/zero', { maxBytes: 100_000, what: 'a trajectory file' })).rejects.toThrow(
      /^it goes on past 97\.7 KiB; a trajectory file may be at most 97\.7 KiB$/,
    );
  });

  it('a folder is refused by name; a missing file keeps its ENOENT', async () => {
    const folder = path.join(dir, 'a-folder');
    mkdirSync(folder, { recursive: true });
    await expect(readCapped(folder, { maxBytes: 10, what: 'a plan' })).rejects.toMatchObject({ message: 'it is a folder, not a plan', code: 'EISDIR' });
    await expect(readCapped(path.join(dir, 'nope'), { maxBytes: 10, what: 'a plan' })).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a FIFO read in short pieces gives exactly its bytes (a piece is kept only as long as what was read)', async () => {
    // Two writes with a pause between: the first read returns only the first (a pipe read
    // returns what is there), a short piece in the middle of the data.
    const { file, stop } = fifoFed('pieces.fifo', "{ printf 'first|'; sleep 0.3; printf 'second|'; sleep 0.3; printf 'third'; }");
    try {
      expect(await readCappedText(file, { maxBytes: 1024, what: 'a plan' })).toBe('first|second|third');
    } finally {
      stop();
    }
  });

  it('closes the file whatever the outcome: read, refused for its size, refused as a folder', async () => {
    const small = path.join(dir, 'closed-small.txt');
    const big = path.join(dir, 'closed-big.txt');
    const folder = path.join(dir, 'closed-folder');
    writeFileSync(small, 'hello');
    writeFileSync(big, 'x'.repeat(100));
    mkdirSync(folder, { recursive: true });
    const openOn = (target: string) => readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === target;
      } catch {
        return false; // closed while listed (the listing's own fd)
      }
    });
    expect(await readCappedText(small, { maxBytes: 10, what: 'a plan' })).toBe('hello');
    await expect(readCapped(big, { maxBytes: 10, what: 'a plan' })).rejects.toThrow(FileTooLargeError);
    await expect(readCapped(folder, { maxBytes: 10, what: 'a plan' })).rejects.toThrow('it is a folder');
    expect([small, big, folder].flatMap(openOn)).toEqual([]);
  });

  it('the error is a FileTooLargeError by name, with the file, the limit and the size it knew', async () => {
    const file = path.join(dir, 'named.bin');
    writeFileSync(file, 'x'.repeat(30));
    const error = (await readCapped(file, { maxBytes: 20, what: 'a plan' }).catch((e: unknown) => e)) as FileTooLargeError;
    expect({ name: error.name, file: error.file, maxBytes: error.maxBytes, size: error.size }).toEqual({ name: 'FileTooLargeError', file, maxBytes: 20, size: 30 });
    expect(error.message).toBe('it is 30 bytes; a plan may be at most 20 bytes');
    const endless = (await readCapped('/dev/zero', { maxBytes: 20, what: 'a plan' }).catch((e: unknown) => e)) as FileTooLargeError;
    expect({ name: endless.name, size: endless.size }).toEqual({ name: 'FileTooLargeError', size: undefined });
  });

  it('says limits in the unit a person reads', () => {
    expect([0, 20, 1024, 1536, 1024 * 1024, 64 * 1024 * 1024, 1.25 * 1024 * 1024].map(formatBytes)).toEqual([
      '0 bytes', '20 bytes', '1 KiB', '1.5 KiB', '1 MiB', '64 MiB', '1.3 MiB',
    ]);
  });
});

describe('the files people point DeskPilot at, through their own readers', () => {
  it('a QA plan from an endless pipe: a PlanError naming the file and the 1 MiB limit', async () => {
    const { file, stop } = fifoFed('plan.fifo', 'yes "## Case: again"');
    try {
      await expect(readPlanFile(file)).rejects.toThrow(`it goes on past 1 MiB; a plan may be at most ${formatBytes(MAX_PLAN_BYTES)}`);
    } finally {
      stop();
    }
  });

  it('a trajectory file from /dev/zero: names the file and the limit', async () => {
    await expect(loadTrajectoryFile('/dev/zero')).rejects.toThrow(/^\/dev\/zero is not a trajectory file: it goes on past 64 MiB; a trajectory file may be at most 64 MiB$/);
  });

  it('a config.json over 4 MiB is a config error, not a crash', async () => {
    const home = path.join(dir, 'home-big-config');
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(home, 'config.json'), '');
    truncateSync(path.join(home, 'config.json'), MAX_CONFIG_BYTES + 1);
    await expect(loadConfig(home)).rejects.toThrow(/it is 4\.0 MiB; a config file may be at most 4 MiB/);
  });

  it('a SKILL.md that is a FIFO without end is a skill error naming it', async () => {
    const skill = path.join(dir, 'skills', 'endless');
    mkdirSync(skill, { recursive: true });
    const { stop } = fifoFed(path.join('skills', 'endless', 'SKILL.md'), 'yes');
    try {
      await expect(loadSkillDir(skill, 'user')).rejects.toThrow(/SKILL\.md.*it goes on past 1 MiB; a SKILL\.md may be at most 1 MiB/);
    } finally {
      stop();
    }
  });
});
