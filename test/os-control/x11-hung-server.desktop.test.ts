/**
 * Issue 27 item 8: every request on our X connections has a time limit and honours
 * abort. A server that never answers — a fake one on a real socket that accepts and
 * stays silent, and a real Xvfb stopped with SIGSTOP — must end each wait in words
 * within its limit, or at once on abort; before, a request (and the keymap-fetch
 * watch's start, which waits for RECORD's stream) waited forever.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeWindowOverSocket } from '../../src/os-control/x11/active-window.js';
import { X11Connection } from '../../src/os-control/x11/connection.js';
import { X11ImageGrabber } from '../../src/os-control/x11/image-grab.js';
import { KeymapFetchWatch } from '../../src/os-control/x11/keymap-fetch-watch.js';
import { readMonitors } from '../../src/os-control/x11/monitors.js';
import { windowsTitled } from '../../src/os-control/x11/window-list.js';
import { x11Session } from '../../src/os-control/x11/session.js';
import { until } from '../e2e/support.js';
import { startXvfb, xServerPid, type Xvfb } from '../harness/xvfb.js';
import { startFakeXServer, type FakeXServer } from './fake-x-server.js';

const stopped = (reason: string) => {
  const c = new AbortController();
  return { controller: c, signal: c.signal, abort: () => c.abort(new Error(reason)) };
};

describe('a fake X server that never answers', () => {
  let silent: FakeXServer;
  let mute: FakeXServer;
  beforeAll(async () => {
    silent = await startFakeXServer('127.0.0.1', { answerSetup: false });
    mute = await startFakeXServer('127.0.0.1', { answerSetup: true });
  });
  afterAll(async () => {
    await silent?.close();
    await mute?.close();
  });

  it('no setup reply: opening ends in words at its limit, or at once on abort', async () => {
    await expect(X11Connection.open(silent.display, { timeoutMs: 300 })).rejects.toThrow(`X server ${silent.display} did not answer within 300 ms`);
    await expect(X11ImageGrabber.open(silent.display, { timeoutMs: 300 })).rejects.toThrow(/did not answer within 300 ms/);
    const stop = stopped('the run was stopped');
    const opening = X11Connection.open(silent.display, { timeoutMs: 60_000, signal: stop.signal });
    await silent.setupsSeen(3);
    stop.abort();
    await expect(opening).rejects.toMatchObject({ name: 'AbortError', message: 'the run was stopped' });
    const grabStop = stopped('grabber stopped');
    const grabbing = X11ImageGrabber.open(silent.display, { timeoutMs: 60_000, signal: grabStop.signal });
    await silent.setupsSeen(4);
    grabStop.abort();
    await expect(grabbing).rejects.toMatchObject({ name: 'AbortError', message: 'grabber stopped' });
  });

  it('no reply to a request: it fails at the limit and so does the connection; an abort gives up that request only', async () => {
    const conn = await X11Connection.open(mute.display, { requestTimeoutMs: 300 });
    const stop = stopped('not needed any more');
    const asked = conn.request(43, 0, Buffer.alloc(0), { signal: stop.signal, timeoutMs: 60_000 });
    stop.abort();
    await expect(asked).rejects.toMatchObject({ name: 'AbortError', message: 'not needed any more' });
    // The connection is still open: the next request waits its own limit, then fails it and the connection.
    await expect(conn.sync()).rejects.toThrow(`X server ${mute.display} did not answer request 43.0 within 300 ms`);
    await expect(conn.request(43, 0, Buffer.alloc(0))).rejects.toThrow(/did not answer request 43\.0 within 300 ms/);
    expect(mute.requestBytes()).toBeGreaterThanOrEqual(8); // both requests reached the server
  });

  it('monitors, window list and active window end at their limit or on abort', async () => {
    // One session per display (x11/session.ts): a question past its limit closes its
    // connection (the server hangs), and the next question opens a new one.
    const before = mute.setups.length;
    await expect(readMonitors(mute.display, 300)).rejects.toThrow(`X server ${mute.display} did not answer within 300 ms (the monitor list)`);
    await expect(activeWindowOverSocket(x11Session(mute.display), { timeoutMs: 300 })).rejects.toThrow(/did not answer within 300 ms \(the focused window\)/);
    expect(mute.setups.length).toBe(before + 2);
    const stop = stopped('window walk stopped');
    const walking = windowsTitled('Anything', mute.display, stop.signal);
    await mute.setupsSeen(before + 3);
    stop.abort();
    await expect(walking).rejects.toMatchObject({ name: 'AbortError', message: 'window walk stopped' });
    // An abort stops only its caller: the walk's connection stays, and the monitor list asks on it.
    const sent = mute.requestBytes();
    const monitorStop = stopped('monitors stopped');
    const listing = readMonitors(mute.display, 60_000, monitorStop.signal);
    await until(() => mute.requestBytes() > sent, 10_000, 'the monitor list to reach the server');
    monitorStop.abort();
    await expect(listing).rejects.toMatchObject({ name: 'AbortError', message: 'monitors stopped' });
    expect(mute.setups.length).toBe(before + 3);
  });

  it('the keymap-fetch watch does not wait forever for a server that never starts its stream', async () => {
    const typist = await X11Connection.open(mute.display, { requestTimeoutMs: 300 });
    try {
      await expect(KeymapFetchWatch.start(typist, mute.display)).rejects.toThrow(/did not answer request 98\.0 within 300 ms/);
    } finally {
      typist.close();
    }
  });
});

describe('a real Xvfb that stops answering (SIGSTOP)', () => {
  let xvfb: Xvfb;
  let pid: number;
  beforeAll(async () => {
    xvfb = await startXvfb({ width: 320, height: 240, windowManager: false });
    const found = xServerPid(xvfb.display);
    if (!found) throw new Error(`no X server process found for ${xvfb.display}`);
    pid = found;
  });
  afterAll(async () => {
    if (pid) process.kill(pid, 'SIGCONT');
    await xvfb?.stop();
  });

  it('requests, grabs and openings end within their limits or on abort; after SIGCONT a new connection works', async () => {
    const conn = await X11Connection.open(xvfb.display, { requestTimeoutMs: 500 });
    const grabber = await X11ImageGrabber.open(xvfb.display);
    await conn.sync();
    expect((await grabber.grab({ x: 0, y: 0, width: 4, height: 4 })).data.length).toBe(64);
    process.kill(pid, 'SIGSTOP');
    try {
      await expect(conn.sync()).rejects.toThrow(`X server ${xvfb.display} did not answer request 43.0 within 500 ms`);
      // Aborted while waiting its turn: dropped, never sent.
      const early = stopped('grab not wanted');
      const queued = grabber.grab({ x: 0, y: 0, width: 4, height: 4 }, undefined, early.signal);
      early.abort();
      await expect(queued).rejects.toMatchObject({ name: 'AbortError', message: 'grab not wanted' });
      // Aborted in flight (sent, the stopped server never answers): it ends at once, and so does the grabber.
      const stop = stopped('grab stopped');
      const grab = grabber.grab({ x: 0, y: 0, width: 4, height: 4 }, undefined, stop.signal);
      await new Promise((resolve) => setImmediate(resolve));
      stop.abort();
      await expect(grab).rejects.toMatchObject({ name: 'AbortError', message: 'grab stopped' });
      await expect(grabber.grab({ x: 0, y: 0, width: 4, height: 4 })).rejects.toMatchObject({ name: 'AbortError', message: 'grab stopped' });
      await expect(X11Connection.open(xvfb.display, { timeoutMs: 500 })).rejects.toThrow(`X server ${xvfb.display} did not answer within 500 ms`);
      await expect(readMonitors(xvfb.display, 500)).rejects.toThrow(/did not answer within 500 ms/);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const fresh = await X11Connection.open(xvfb.display);
    await fresh.sync();
    fresh.close();
    grabber.close();
  });
});
