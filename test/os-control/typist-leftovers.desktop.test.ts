/**
 * Issue 27 item 8, the typist's spare keycodes on a real Xvfb:
 *  - a DeskPilot process killed with SIGKILL right after typing ü✓ (no exit handler
 *    runs) leaves them mapped; the next typist that opens on that display puts them back
 *    (spare-record.ts: a record on the server, written before the remap). Before, they
 *    stayed until the server restarted;
 *  - the keycodes of a DeskPilot process that is still running are left alone;
 *  - a Stop while the server is hung (SIGSTOP) ends the typing call at once, its clean-up
 *    queued rather than waited for — with a 10-minute request limit, so only the abort can
 *    end it (the old clean-up sync waited for the limit) — and once the server runs again
 *    the keymap is as it was;
 *  - the same for a Stop during a round trip inside the call: the catch-up's before the
 *    first key, and the one every `chunk` strokes (each sync there carries the call's
 *    signal; without it the call waited for the request limit and failed with that).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { X11Connection } from '../../src/os-control/x11/connection.js';
import { X11Typist } from '../../src/os-control/x11/typist.js';
import { keymapText } from '../harness/native-apps.js';
import { startXvfb, xServerPid, type Xvfb } from '../harness/xvfb.js';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

let xvfb: Xvfb;
let pid: number;
beforeAll(async () => {
  xvfb = await startXvfb({ width: 640, height: 480, windowManager: false });
  const found = xServerPid(xvfb.display);
  if (!found) throw new Error(`no X server process found for ${xvfb.display}`);
  pid = found;
});
afterAll(async () => {
  if (pid) process.kill(pid, 'SIGCONT');
  await xvfb?.stop();
});

const fixture = fileURLToPath(new URL('./fixtures/type-then-die.ts', import.meta.url));
const TEXT = 'ü✓ Grüße';

/** The keymap once it equals `expected`, or the last one seen after 10 s (a closed client's last requests are applied soon after). */
async function keymapOnceIs(expected: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  let now = keymapText(xvfb);
  while (now !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    now = keymapText(xvfb);
  }
  return now;
}

const changedLines = (a: string, b: string) => a.split('\n').filter((line, i) => line !== b.split('\n')[i]);

describe('spare keycodes a typist leaves behind', () => {
  it('after a SIGKILL right after typing, the next typist on the display restores them', async () => {
    const before = keymapText(xvfb);
    const child = spawnSync(process.execPath, ['--import', 'tsx', fixture, 'kill', TEXT], { env: xvfb.env, encoding: 'utf8', timeout: 60_000 });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    expect(child.stdout).toMatch(/^typed [1-9]/);
    // Killed: nothing put them back.
    expect(keymapText(xvfb)).toContain('U2713');
    const next = await X11Typist.open(xvfb.display);
    try {
      expect(changedLines(keymapText(xvfb), before)).toEqual([]);
    } finally {
      await next.close();
    }
  });

  it('a running DeskPilot keeps its keycodes when another typist opens; they go back when it exits', async () => {
    const before = keymapText(xvfb);
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, 'hold', TEXT], { env: xvfb.env, stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          if (/typed [1-9]/.test(out)) resolve();
        });
        child.once('exit', (code) => reject(new Error(`the holding process exited (${code}) before typing`)));
      });
      const other = await X11Typist.open(xvfb.display);
      try {
        expect(keymapText(xvfb)).toContain('U2713');
      } finally {
        await other.close();
      }
      child.stdin!.end();
      await new Promise((resolve) => child.once('exit', resolve));
      expect(changedLines(await keymapOnceIs(before), before)).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it('a Stop while the X server is hung ends the typing call, and the keymap is restored once it runs again', async () => {
    const before = keymapText(xvfb);
    const typist = await X11Typist.open(xvfb.display, { requestTimeoutMs: 600_000 });
    const stop = new AbortController();
    try {
      const typing = typist.type(TEXT, {
        signal: stop.signal,
        // The spare keycodes are mapped by now; the server stops, then the person presses Stop.
        beforeKeys: async () => {
          process.kill(pid, 'SIGSTOP');
          stop.abort(new Error('stopped by the person'));
        },
      });
      await expect(typing).rejects.toMatchObject({ message: 'stopped by the person' });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(changedLines(await keymapOnceIs(before), before)).toEqual([]);
    await typist.close();
  });

  /** Sends SIGSTOP and returns once the kernel shows the server stopped (state T in /proc/<pid>/stat). */
  function stopServer(): void {
    process.kill(pid, 'SIGSTOP');
    // A few ms at most: the signal is delivered at the server's next return to user space.
    while (!/^\d+ \(.*\) T /.test(readFileSync(`/proc/${pid}/stat`, 'utf8')));
  }

  /**
   * At the typist's first round trip (a sync) of the next call: stops the server before the request goes out (so no
   * reply can come: stopped after it, the server answered first in 1 run of 2), then presses Stop. Only the call's
   * signal can end that wait.
   */
  function stopAtFirstSync(typist: X11Typist, stop: AbortController): void {
    const conn = (typist as unknown as { conn: X11Connection }).conn;
    const sync = conn.sync.bind(conn);
    let done = false;
    vi.spyOn(conn, 'sync').mockImplementation((options) => {
      if (done) return sync(options);
      done = true;
      stopServer();
      const waiting = sync(options);
      stop.abort(new Error('stopped by the person'));
      return waiting;
    });
  }

  it('a Stop while the server is hung in the catch-up before the first key ends the call at once, not at the request limit', async () => {
    const before = keymapText(xvfb);
    // 5 s: the limit a call that did not honour its signal would wait, then fail with (not the Stop's words).
    const typist = await X11Typist.open(xvfb.display, { requestTimeoutMs: 5_000 });
    const stop = new AbortController();
    try {
      stopAtFirstSync(typist, stop);
      await expect(typist.type(TEXT, { signal: stop.signal })).rejects.toMatchObject({ message: 'stopped by the person' });
      // Only that round trip was given up: the connection still serves.
      expect(typist.isOpen).toBe(true);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(changedLines(await keymapOnceIs(before), before)).toEqual([]);
    await typist.close();
  });

  it('a Stop while the server is hung in a chunk\'s round trip ends the call at once, not at the request limit', async () => {
    const typist = await X11Typist.open(xvfb.display, { requestTimeoutMs: 5_000 });
    const stop = new AbortController();
    try {
      stopAtFirstSync(typist, stop);
      // Layout characters only: no catch-up, so the first round trip is the one after 4 strokes.
      await expect(typist.type('abcdefghij', { signal: stop.signal, chunk: 4 })).rejects.toMatchObject({ message: 'stopped by the person' });
      expect(typist.isOpen).toBe(true);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await typist.close();
  });
});
