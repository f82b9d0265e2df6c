/**
 * Real desktop (Xvfb + openbox): the focused window is read from the X server, and
 * the risk rules judge typing by it — xterm is a terminal, the Chromium probe is not.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { startXterm, type NativeApp } from '../harness/native-apps.js';
import { startProbe, type Probe } from '../harness/probe/probe.js';
import { getActiveWindow, parseXpropWindow } from '../../src/os-control/active-window.js';
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
