/**
 * client-pids.ts against a real X server: the X-Resource extension tells which
 * connections belong to one process (the typist's proof that "the application" caught
 * up with a keymap change covers every connection of the focused window's process).
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientPids, parseClientIds, sameProcess } from '../../src/os-control/x11/client-pids.js';
import { X11Connection } from '../../src/os-control/x11/connection.js';
import { queryExtension } from '../../src/os-control/x11/keyboard.js';
import { requirePrograms } from '../harness/requirements.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

let xvfb: Xvfb;
beforeAll(async () => {
  xvfb = await startXvfb({ width: 640, height: 480 });
});
afterAll(async () => {
  await xvfb?.stop();
});

it('maps each connection to its process: two of ours share this PID, an xterm has its own', async () => {
  requirePrograms(['xterm', 'xdotool'], xvfb.env);
  const a = await X11Connection.open(xvfb.display);
  const b = await X11Connection.open(xvfb.display);
  const xterm = spawn('xterm', ['-geometry', '20x4+0+0'], { env: { ...process.env, ...xvfb.env }, stdio: 'ignore' });
  try {
    const xres = await queryExtension(a, 'X-Resource');
    expect(xres.present).toBe(true);
    let pids = await clientPids(a, xres.majorOpcode);
    for (let i = 0; i < 100 && ![...pids.values()].includes(xterm.pid!); i++) {
      await new Promise((r) => setTimeout(r, 100));
      pids = await clientPids(a, xres.majorOpcode);
    }
    const baseA = a.setup.resourceIdBase;
    const baseB = b.setup.resourceIdBase;
    expect(pids.get(baseA)).toBe(process.pid);
    expect(pids.get(baseB)).toBe(process.pid);
    const xtermClients = [...pids].filter(([, pid]) => pid === xterm.pid).map(([c]) => c);
    expect(xtermClients.length).toBeGreaterThan(0);
    expect(sameProcess(pids, baseA)).toEqual(new Set([baseA, baseB]));
    expect(sameProcess(pids, xtermClients[0]!)).toEqual(new Set(xtermClients));
    // A client the server has no PID for is its own process.
    expect(sameProcess(pids, 0x7fe00000)).toEqual(new Set([0x7fe00000]));
  } finally {
    xterm.kill('SIGKILL');
    a.close();
    b.close();
  }
});

it('parses a reply, skipping values that are not a 4-byte PID', () => {
  const reply = Buffer.alloc(32 + 16 + 12 + 16);
  reply.writeUInt32LE(3, 8);
  let at = 32;
  const put = (client: number, mask: number, value: number[]) => {
    reply.writeUInt32LE(client, at);
    reply.writeUInt32LE(mask, at + 4);
    reply.writeUInt32LE(value.length * 4, at + 8);
    value.forEach((v, i) => reply.writeUInt32LE(v, at + 12 + i * 4));
    at += 12 + value.length * 4;
  };
  put(0x200000, 2, [4242]);
  put(0x400000, 1, []); // client XID mask: no value we use
  put(0x600000, 2, [4243]);
  expect(parseClientIds(reply)).toEqual(new Map([[0x200000, 4242], [0x600000, 4243]]));
});
