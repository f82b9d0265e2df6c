/**
 * Issue 27 item 8: the typist's spare keycodes are back to NoSymbol when the process that
 * typed exits — also within RESTORE_IDLE_MS (3 s) of typing a character outside the
 * layout, where the idle restore never ran and the character stayed on the person's X
 * server (`xmodmap -pke` showed it until the server restarted).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { X11Connection } from '../../src/os-control/x11/connection.js';
import { restoreLeftovers } from '../../src/os-control/x11/spare-record.js';
import { X11Typist } from '../../src/os-control/x11/typist.js';
import { keymapText } from '../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

let xvfb: Xvfb;
beforeAll(async () => {
  xvfb = await startXvfb({ width: 640, height: 480, windowManager: false });
}, 60_000);
afterAll(async () => {
  await xvfb?.stop();
});

const fixture = fileURLToPath(new URL('./fixtures/type-then-exit.ts', import.meta.url));

/** The keymap once it equals `expected`, or the last one seen after 10 s (the server applies a closed client's last requests soon after). */
async function keymapOnceIs(expected: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  let now = keymapText(xvfb);
  while (now !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    now = keymapText(xvfb);
  }
  return now;
}

describe('spare keycodes when the typing process exits', () => {
  it('a process that exits right after typing ü✓ leaves the keymap as it found it', async () => {
    const before = keymapText(xvfb);
    const child = spawnSync(process.execPath, ['--import', 'tsx', fixture, 'ü✓ Grüße'], { env: xvfb.env, encoding: 'utf8', timeout: 60_000 });
    expect(child.status, child.stderr).toBe(0);
    // It did map characters (so there was something to restore) …
    expect(child.stdout).toMatch(/^typed [1-9]/);
    // … and nothing of them is left: every keycode as before.
    const after = await keymapOnceIs(before);
    const changed = after.split('\n').filter((line, i) => line !== before.split('\n')[i]);
    expect(changed).toEqual([]);
  }, 90_000);

  // The exit handler's own work, in this process (under mutation a child's code is not the mutant's).
  it('restoreBeforeExit puts every held keycode back and deletes the record at once; the exit handler then has nothing left', async () => {
    const before = keymapText(xvfb);
    const records = () => spawnSync('xprop', ['-root'], { env: xvfb.env, encoding: 'utf8' }).stdout.split('\n').filter((l) => l.startsWith('_DESKPILOT_SPARES_'));
    const typist = await X11Typist.open(xvfb.display);
    try {
      await typist.type('ü✓ß');
      expect([...typist.mappedSpares().values()].sort((a, b) => a - b)).toEqual([0xdf, 0xfc, 0x1002713]);
      expect(keymapText(xvfb)).toContain('U2713');
      expect(records()).toHaveLength(1);
      typist.restoreBeforeExit();
      expect(typist.mappedSpares().size).toBe(0);
      const after = await keymapOnceIs(before);
      expect(after.split('\n').filter((line, i) => line !== before.split('\n')[i])).toEqual([]);
      expect(records()).toEqual([]);
      // Nothing is held any more: the process's exit handler sends nothing (a second call is a no-op).
      typist.restoreBeforeExit();
      expect(keymapText(xvfb)).toBe(before);
    } finally {
      await typist.close();
    }
  }, 90_000);

  it('restoreNow gives the keycodes back and deletes the record of them', async () => {
    const before = keymapText(xvfb);
    const records = () => spawnSync('xprop', ['-root'], { env: xvfb.env, encoding: 'utf8' }).stdout.split('\n').filter((l) => l.startsWith('_DESKPILOT_SPARES_'));
    const typist = await X11Typist.open(xvfb.display);
    try {
      await typist.type('✓');
      expect(records()).toHaveLength(1);
      await typist.restoreNow();
      expect(typist.mappedSpares().size).toBe(0);
      expect(keymapText(xvfb)).toBe(before);
      // Nothing left for the next DeskPilot to restore: the record is gone with the keycodes.
      expect(records()).toEqual([]);
    } finally {
      await typist.close();
    }
  }, 90_000);

  it('an exit restore that cannot write (its connection is gone) says so and leaves the record for the next DeskPilot', async () => {
    const records = () => spawnSync('xprop', ['-root'], { env: xvfb.env, encoding: 'utf8' }).stdout.split('\n').filter((l) => l.startsWith('_DESKPILOT_SPARES_'));
    const typist = await X11Typist.open(xvfb.display);
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await typist.type('ü✓');
      const spares = [...typist.mappedSpares().keys()].sort((a, b) => a - b);
      expect(spares).toHaveLength(2);
      // The X connection fails under it (a server that dropped the client): nothing can be written.
      (typist as unknown as { conn: X11Connection }).conn.close();
      typist.restoreBeforeExit();
      expect(said.mock.calls).toEqual([[`deskpilot: could not restore the keyboard mapping while exiting; spare keycode ${spares[0]} may still type its last character`]]);
      expect(typist.mappedSpares().size).toBe(0);
      // The characters are still mapped, and the record says so for the next DeskPilot on this display.
      expect(keymapText(xvfb)).toContain('U2713');
      expect(records()).toHaveLength(1);
    } finally {
      said.mockRestore();
      await typist.close();
      // This process is alive, so no typist takes its record as a leftover: restored here as if it had died.
      const conn = await X11Connection.open(xvfb.display);
      try {
        expect(await restoreLeftovers(conn, { alive: () => false })).toHaveLength(2);
      } finally {
        conn.close();
      }
      expect(records()).toEqual([]);
    }
  }, 90_000);

  it("the process's one exit handler restores every typist still holding keycodes", async () => {
    const before = keymapText(xvfb);
    const [first, second, done] = await Promise.all([X11Typist.open(xvfb.display), X11Typist.open(xvfb.display), X11Typist.open(xvfb.display)]);
    try {
      await first.type('ü');
      await second.type('✓');
      await done.type('ß');
      await done.restoreNow();
      // restoreNow gave its keycode back at once, and nothing else.
      expect(done.mappedSpares().size).toBe(0);
      expect(keymapText(xvfb)).not.toContain('ssharp');
      expect(keymapText(xvfb)).toContain('udiaeresis');
      // Installed once however many typists hold keycodes (an 'exit' listener each would pass Node's limit of 10).
      const hooks = process.listeners('exit').filter((l) => l.name === 'restoreAllBeforeExit');
      expect(hooks).toHaveLength(1);
      expect(keymapText(xvfb)).toContain('U2713');
      // What 'exit' runs, called here: under mutation only this process runs the mutant.
      (hooks[0] as () => void)();
      expect(first.mappedSpares().size).toBe(0);
      expect(second.mappedSpares().size).toBe(0);
      const after = await keymapOnceIs(before);
      expect(after.split('\n').filter((line, i) => line !== before.split('\n')[i])).toEqual([]);
    } finally {
      await Promise.all([first.close(), second.close(), done.close()]);
    }
  }, 90_000);
});
