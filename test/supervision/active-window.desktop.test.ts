/**
 * Real desktop (Xvfb + openbox): the focused window is read from the X server, and
 * the risk rules judge typing by it — xterm is a terminal, the Chromium probe is not.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { startXterm, type NativeApp } from '../harness/native-apps.js';
import { startProbe, type Probe } from '../harness/probe/probe.js';
import { getActiveWindow, parseXpropWindow, x11ActiveWindowByXprop } from '../../src/os-control/active-window.js';
import { activeWindowOverSocket } from '../../src/os-control/x11/active-window.js';
import { x11Session } from '../../src/os-control/x11/session.js';
import { findRisk } from '../../src/main/agent/supervision/risk-rules.js';

let xvfb: Xvfb;
let xterm: NativeApp;
let probe: Probe;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  probe = await startProbe(xvfb, { x: 0, y: 0, width: 700, height: 500 });
  xterm = await startXterm(xvfb, { cols: 60, rows: 10, x: 760, y: 300 });
});
afterAll(async () => {
  await xterm?.stop();
  await probe?.close();
  await xvfb?.stop();
});

function activate(windowId: string): void {
  const r = spawnSync('xdotool', ['windowactivate', '--sync', windowId], { env: xvfb.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
}

async function activeAfter(windowId: string) {
  activate(windowId);
  // The WM updates _NET_ACTIVE_WINDOW asynchronously after the activation request.
  for (let i = 0; i < 50; i++) {
    const w = await getActiveWindow({ env: xvfb.env });
    if (w?.windowId === windowId) return w;
    await new Promise((r) => setTimeout(r, 50));
  }
  return getActiveWindow({ env: xvfb.env });
}

describe('active window on X11', () => {
  it('reports xterm with its class and title when xterm has the focus', async () => {
    const w = await activeAfter(xterm.windowId);
    expect(w).toMatchObject({ app: 'XTerm', instance: 'xterm', windowId: xterm.windowId, pid: xterm.pid });
    expect(w!.title).toMatch(/^deskpilot-xterm-/);
    expect(findRisk({ type: 'type', text: 'ls -la' }, { step: 0, activeWindow: w })?.rule).toBe('risk:terminal-type');
    expect(findRisk({ type: 'key', keys: 'Return', repeat: 1 }, { step: 0, activeWindow: w })?.rule).toBe('risk:terminal-enter');
  });

  it('reports Chromium for the probe, where typing is not a terminal risk', async () => {
    const w = await activeAfter(probe.windowId);
    expect(w?.windowId).toBe(probe.windowId);
    expect(w?.app).toMatch(/chromium/i);
    expect(findRisk({ type: 'type', text: 'ls -la' }, { step: 0, activeWindow: w })).toBeUndefined();
  });

  it('our X connection answers exactly what xprop answers: xterm, Chromium, a UTF-8 title', async () => {
    const utf8 = await startXterm(xvfb, { cols: 30, rows: 4, x: 100, y: 600 });
    try {
      spawnSync('xdotool', ['set_window', '--name', 'Grüße — 終わり 👋', utf8.windowId], { env: xvfb.env });
      for (const id of [xterm.windowId, probe.windowId, utf8.windowId]) {
        await activeAfter(id);
        const bySocket = await activeWindowOverSocket(x11Session(xvfb.display), { timeoutMs: 2_000 });
        const byXprop = await x11ActiveWindowByXprop(xvfb.env, 2_000);
        expect(bySocket?.windowId).toBe(id);
        expect(bySocket).toEqual(byXprop);
      }
      expect((await activeWindowOverSocket(x11Session(xvfb.display), { timeoutMs: 2_000 }))?.title).toBe('Grüße — 終わり 👋');
    } finally {
      await utf8.stop();
    }
  });

  it('without a window manager, both read the input focus walked up to the client window', async () => {
    const bare = await startXvfb({ width: 800, height: 600, windowManager: false });
    const app = await startXterm(bare, { cols: 30, rows: 4, x: 10, y: 10 });
    try {
      spawnSync('xdotool', ['windowfocus', '--sync', app.windowId], { env: bare.env });
      const bySocket = await activeWindowOverSocket(x11Session(bare.display), { timeoutMs: 2_000 });
      expect(bySocket).toMatchObject({ app: 'XTerm', instance: 'xterm', windowId: app.windowId, pid: app.pid });
      expect(bySocket).toEqual(await x11ActiveWindowByXprop(bare.env, 2_000));
    } finally {
      await app.stop();
      await bare.stop();
    }
  });

  it('fails soft: no display, no answer, no exception', async () => {
    expect(await getActiveWindow({ env: { PATH: process.env.PATH } })).toBeUndefined();
    expect(await getActiveWindow({ env: { PATH: process.env.PATH, DISPLAY: ':9999' }, timeoutMs: 500 })).toBeUndefined();
    expect(await getActiveWindow({ platform: 'darwin', env: { PATH: '/nonexistent' } })).toBeUndefined();
    expect(await getActiveWindow({ platform: 'win32', env: { PATH: '/nonexistent' } })).toBeUndefined();
  });

  it('decodes xprop escapes (UTF-8 octal, quotes)', () => {
    const out = 'WM_CLASS = "gnome-terminal-server", "Gnome-terminal"\n_NET_WM_NAME = "Gr\\303\\274\\303\\237e \\"x\\""\n_NET_WM_PID = 42\n';
    expect(parseXpropWindow(out, '7')).toEqual({ title: 'Grüße "x"', app: 'Gnome-terminal', instance: 'gnome-terminal-server', windowId: '7', pid: 42 });
  });
});
