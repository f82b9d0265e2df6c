/**
 * settle-echo.ts's watch on a real accessibility bus (at-spi-bus-launcher on a private
 * session bus, the AT-SPI registry it starts): what it asks the registry for, which
 * signals it counts as the app's inserts, what one typing's echo reports and when, and
 * the process's one watch per bus (issue 26 item 1; issue 27 item 14, its mutation set).
 * The app here is a D-Bus client sending the TextChanged signals a toolkit's bridge sends
 * (atk-bridge: detail, offset, length, the text as a variant, properties); Chromium
 * itself is settle-echo.desktop.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MessageBus } from 'dbus-next';
import { AtspiBusUnavailable } from '../../src/os-control/accessibility/atspi/bus.js';
import { currentTextEchoWatch, openTextEchoWatch, TextEchoWatch } from '../../src/os-control/settle-echo.js';
import { startAccessibilityBus, type AccessibilityBus } from '../harness/a11y-bus.js';
import { startHalfMuteBus } from '../harness/half-mute-bus.js';
import { serveAccessibleTree } from '../harness/stand-in-accessible.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

type DbusModule = typeof import('dbus-next');
let dbus: DbusModule;
let xvfb: Xvfb;
let a11y: AccessibilityBus;
/** The stand-in app's connection to the accessibility bus. */
let app: MessageBus;
/** Watches opened here, closed after each case. */
const opened: TextEchoWatch[] = [];

beforeAll(async () => {
  const imported = await import('dbus-next');
  dbus = ((imported as { default?: DbusModule }).default ?? imported) as DbusModule;
  xvfb = await startXvfb({ width: 320, height: 240, windowManager: false });
  a11y = await startAccessibilityBus(xvfb);
  app = dbus.sessionBus({ busAddress: a11y.address });
  await new Promise<void>((resolve, reject) => {
    app.on('connect', () => resolve());
    app.on('error', reject);
  });
});
afterEach(() => {
  for (const w of opened.splice(0)) w.close();
});
afterAll(async () => {
  app?.disconnect();
  await a11y?.stop();
  await xvfb?.stop();
});

const EVENT_OBJECT = 'org.a11y.atspi.Event.Object';

/** A TextChanged signal as atk-bridge sends it (or with one part changed). */
function textChanged(detail: string, text: unknown, o: { iface?: string; member?: string; type?: number; destination?: string } = {}): void {
  const value = typeof text === 'string' ? new dbus.Variant('s', text) : new dbus.Variant('i', text);
  app.send(new dbus.Message({
    type: o.type ?? dbus.MessageType.SIGNAL,
    ...(o.destination ? { destination: o.destination } : {}),
    path: '/org/a11y/atspi/accessible/7',
    interface: o.iface ?? EVENT_OBJECT,
    member: o.member ?? 'TextChanged',
    signature: 'siiva{sv}',
    body: [detail, 0, typeof text === 'string' ? [...text].length : 1, value, {}],
    flags: dbus.MessageFlag.NO_REPLY_EXPECTED,
  }));
}

/** An event signal as atk-bridge sends it: detail, detail1, detail2, any data (an int here), properties. */
function bridgeEvent(iface: string, member: string, detail: string, detail1: number): void {
  app.send(new dbus.Message({
    type: dbus.MessageType.SIGNAL,
    path: '/org/a11y/atspi/accessible/7',
    interface: iface,
    member,
    signature: 'siiva{sv}',
    body: [detail, detail1, 0, new dbus.Variant('i', 0), {}],
    flags: dbus.MessageFlag.NO_REPLY_EXPECTED,
  }));
}

const ACCESSIBLE = '/org/a11y/atspi/accessible';
/** AtspiRole numbers (atspi-constants.h). */
const ROLE = { application: 75, frame: 23, entry: 79 } as const;
/** AtspiStateType bits of GetState's first word. */
const STATES = { active: 1 << 1, editable: 1 << 7, focusable: 1 << 11 } as const;
/** A click point inside the stand-in entry. */
const IN_FIELD = { x: 20, y: 20 };

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`waited 20 s for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function open(): Promise<TextEchoWatch> {
  const watch = await TextEchoWatch.open(a11y.env);
  opened.push(watch);
  return watch;
}

/**
 * Sends an insert of `x` (typed by no one; every open echo of the watch gets it) and waits
 * until the watch has handled it: every signal sent before it has been handled too.
 */
async function flush(watch: TextEchoWatch): Promise<void> {
  const probe = watch.begin();
  probe.expect('\u0001never');
  textChanged('insert', 'x');
  await until('the flush insert', () => probe.progress().seen);
  probe.end();
}

async function callBus<T>(member: string, signature: string, body: unknown[], destination = 'org.freedesktop.DBus', path = '/org/freedesktop/DBus', iface = 'org.freedesktop.DBus'): Promise<T> {
  const reply = await app.call(new dbus.Message({ destination, path, interface: iface, member, signature, body }));
  return reply!.body[0] as T;
}

describe('TextEchoWatch on the accessibility bus', () => {
  it('asks the registry for text events: object:text-changed is registered (the registry says Object:TextChanged:) while the watch is open', async () => {
    const registered = async () => (await callBus<Array<[string, string]>>('GetRegisteredEvents', '', [], 'org.a11y.atspi.Registry', '/org/a11y/atspi/registry', 'org.a11y.atspi.Registry')).map(([, event]) => event);
    const watch = await open();
    expect(watch.isOpen).toBe(true);
    expect(await registered()).toContain('Object:TextChanged:');
  });

  it("reports the app's inserts of the typed text: seen at the first, complete (with the time) at the last", async () => {
    const watch = await open();
    const echo = watch.begin();
    echo.expect('Replay ✓\n');
    expect(echo.progress()).toEqual({ seen: false, completeAt: undefined });
    textChanged('insert', 'Re');
    await until('the first insert', () => echo.progress().seen);
    expect(echo.progress().completeAt).toBeUndefined();
    const before = performance.now();
    textChanged('insert:system', 'play ✓');
    await until('the whole text', () => echo.progress().completeAt !== undefined);
    const after = performance.now();
    expect(echo.progress().completeAt).toBeGreaterThanOrEqual(before);
    expect(echo.progress().completeAt).toBeLessThanOrEqual(after);
    // The time stays the first moment all of it was back.
    const at = echo.progress().completeAt;
    await flush(watch);
    expect(echo.progress().completeAt).toBe(at);
  });

  it('more text typed before the settle waits for its own echo; two echoes at once each get every insert', async () => {
    const watch = await open();
    const first = watch.begin();
    const second = watch.begin();
    first.expect('ab');
    second.expect('abc');
    textChanged('insert', 'ab');
    await until('ab', () => first.progress().completeAt !== undefined);
    first.expect('c');
    expect(first.progress().completeAt).toBeUndefined();
    expect(second.progress()).toEqual({ seen: true, completeAt: undefined });
    textChanged('insert', 'c');
    await until('c', () => first.progress().completeAt !== undefined && second.progress().completeAt !== undefined);
  });

  it('counts only inserts of TextChanged signals on Event.Object with a string', async () => {
    const watch = await open();
    const echo = watch.begin();
    echo.expect('ab');
    // Each of these carries the whole typed text; none is an insert the app reports.
    textChanged('delete', 'ab');
    textChanged('insert', 7);
    textChanged('insert', 'ab', { iface: 'org.a11y.atspi.Event.Window' });
    textChanged('insert', 'ab', { member: 'TextCaretMoved' });
    // Addressed to the watch's own connection, which the bus delivers whatever its match rules
    // say: a method call, and signals of another interface or member.
    for (const name of await watchNames()) {
      textChanged('insert', 'ab', { type: dbus.MessageType.METHOD_CALL, destination: name });
      textChanged('insert', 'ab', { iface: 'org.a11y.atspi.Event.Window', destination: name });
      textChanged('insert', 'ab', { member: 'TextCaretMoved', destination: name });
    }
    // The flush's own insert ('x') is all this echo may have seen.
    await flush(watch);
    expect(echo.progress()).toEqual({ seen: true, completeAt: undefined });
    textChanged('insert', 'ab');
    await until('the real insert', () => echo.progress().completeAt !== undefined);
  });

  it('passes over a TextChanged it does not count quietly: its sender gets no error back', async () => {
    const watch = await open();
    const echo = watch.begin();
    echo.expect('ab');
    const errors: string[] = [];
    const onMessage = (m: { type: number; errorName?: string }) => {
      if (m.type === dbus.MessageType.ERROR) errors.push(m.errorName ?? '?');
    };
    app.on('message', onMessage);
    try {
      textChanged('delete', 'ab');
      textChanged('insert', 7);
      // A call the watch's connection cannot answer (UnknownMethod) goes out after anything it
      // sent about the two signals: once its answer is here, so is any error about them.
      const [name] = await watchNames();
      await expect(app.call(new dbus.Message({ destination: name!, path: '/', interface: 'org.example.Probe', member: 'Probe' }))).rejects.toThrow(/Probe/);
      expect(errors).toEqual(['org.freedesktop.DBus.Error.UnknownMethod']);
      expect(echo.progress()).toEqual({ seen: false, completeAt: undefined });
    } finally {
      app.off('message', onMessage);
    }
  });

  it("notes a click's answer the app reports about the clicked object (focus gained, caret moved), asking the reporter where it is once per report; nothing for a closed watch's click", async () => {
    // The stand-in app serves its objects as a bridge does: the reporting object (path 7)
    // is an editable, focusable entry at (10,10) 100x30 in an active frame filling the screen.
    const tree = serveAccessibleTree(app, dbus, {
      [`${ACCESSIBLE}/root`]: { role: ROLE.application, states: 0, extents: [0, 0, 0, 0], children: [`${ACCESSIBLE}/1`] },
      [`${ACCESSIBLE}/1`]: { role: ROLE.frame, states: STATES.active, extents: [0, 0, 320, 240], children: [`${ACCESSIBLE}/7`] },
      [`${ACCESSIBLE}/7`]: { role: ROLE.entry, states: STATES.focusable | STATES.editable, extents: [10, 10, 100, 30] },
    });
    try {
      const watch = await open();
      const appName = (app as unknown as { name: string }).name;
      // Two clicks open at once: each report is asked of its object once, for both.
      const click = watch.beginClick();
      const beside = watch.beginClick();
      click.aim(IN_FIELD);
      beside.aim(IN_FIELD);
      // What the click owes, asked of the app's tree at its point: the focus of editable text.
      expect(await click.owed(appName)).toBe('text-focus');
      tree.calls.length = 0;
      // A focus lost and a state other than focused are no answer, and nothing is asked for them; nor for an insert.
      bridgeEvent(EVENT_OBJECT, 'StateChanged', 'focused', 0);
      bridgeEvent(EVENT_OBJECT, 'StateChanged', 'selected', 1);
      await flush(watch);
      expect([click.answered, click.focused, beside.answered]).toEqual([false, false, false]);
      expect(tree.calls).toEqual([]);
      bridgeEvent(EVENT_OBJECT, 'StateChanged', 'focused', 1);
      await until('the focus gained', () => click.focused && beside.focused);
      expect([click.answered, click.answeredBy, beside.answered]).toEqual([true, appName, true]);
      expect([...tree.calls].sort()).toEqual(['GetExtents', 'GetRole', 'GetState'].map((m) => `${ACCESSIBLE}/7 ${m}`));
      click.end();
      beside.end();

      const caret = watch.beginClick();
      caret.aim(IN_FIELD);
      bridgeEvent(EVENT_OBJECT, 'TextCaretMoved', '', 3);
      await until('the caret moved', () => caret.answered);
      expect(caret.focused).toBe(false);
      caret.end();

      const focus = watch.beginClick();
      focus.aim(undefined);
      bridgeEvent('org.a11y.atspi.Event.Focus', 'Focus', '', 0);
      await until('the focus event', () => focus.focused);
      focus.end();

      // A report about the entry answers no click that landed elsewhere: the point reaches the check.
      const elsewhere = watch.beginClick();
      elsewhere.aim({ x: 200, y: 200 });
      tree.calls.length = 0;
      bridgeEvent(EVENT_OBJECT, 'StateChanged', 'focused', 1);
      await until('the entry asked', () => tree.calls.length === 3);
      await flush(watch);
      expect([elsewhere.answered, elsewhere.focused]).toEqual([false, false]);
      elsewhere.end();

      // Only the matches the watch added bring these signals at all: a second watch shows one was sent and delivered.
      watch.close();
      const late = watch.beginClick();
      late.aim(IN_FIELD);
      bridgeEvent(EVENT_OBJECT, 'StateChanged', 'focused', 1);
      await flush(await open());
      expect([late.answered, late.focused]).toEqual([false, false]);
    } finally {
      tree.stop();
    }
  });

  it('an ended echo and a closed watch hear nothing more; a closed watch collects no new echo', async () => {
    const watch = await open();
    const ended = watch.begin();
    ended.expect('ab');
    ended.end();
    await flush(watch);
    textChanged('insert', 'ab');
    await flush(watch);
    expect(ended.progress()).toEqual({ seen: false, completeAt: undefined });

    const live = watch.begin();
    live.expect('cd');
    watch.close();
    expect(watch.isOpen).toBe(false);
    watch.close();
    const late = watch.begin();
    late.expect('cd');
    textChanged('insert', 'cd');
    // A second watch, open, shows the signal went out and was delivered to listeners.
    const other = await open();
    await flush(other);
    expect(live.progress().seen).toBe(false);
    expect(late.progress().seen).toBe(false);
  });

  it('closes itself when its bus goes away (the bus daemon ends): the process no longer hands out a deaf watch', async () => {
    // A bus of its own, on a display of its own (a bus's socket is named after its display): stopped under the watch.
    const display = await startXvfb({ width: 320, height: 240, windowManager: false });
    const doomed = await startAccessibilityBus(display);
    try {
      const env = { AT_SPI_BUS_ADDRESS: doomed.address };
      const watch = (await openTextEchoWatch(env))!;
      opened.push(watch);
      expect(currentTextEchoWatch(env)).toBe(watch);
      const echo = watch.begin();
      echo.expect('ab');
      await doomed.stop();
      await until('the watch to close', () => !watch.isOpen);
      // The next typing gets none (and starts opening a new one), never the watch of a bus that is gone.
      expect(currentTextEchoWatch(env)).toBeUndefined();
      expect(echo.progress()).toEqual({ seen: false, completeAt: undefined });
    } finally {
      await doomed.stop();
      await display.stop();
    }
  });

  it('refuses to open without a bus, and on a bus that is not there, with the reason', async () => {
    await expect(TextEchoWatch.open({})).rejects.toThrow(AtspiBusUnavailable);
    await expect(TextEchoWatch.open({ AT_SPI_BUS_ADDRESS: 'unix:path=/nonexistent/deskpilot-no-bus' })).rejects.toThrow(/ENOENT|nonexistent/);
  });

  it('a bus that accepts the connection and never answers: refused after 15 s, saying it was the connecting', async () => {
    // A socket that takes the connection and says nothing: dbus-next's handshake never ends.
    const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-mute-bus-'));
    const socketPath = path.join(dir, 'bus');
    const accepted: Socket[] = [];
    const server = createServer((socket) => void accepted.push(socket));
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      await expect(TextEchoWatch.open({ AT_SPI_BUS_ADDRESS: `unix:path=${socketPath}` })).rejects.toThrow('connecting to the accessibility bus took longer than 15 s');
      expect(accepted.length).toBeGreaterThan(0);
    } finally {
      for (const socket of accepted) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a bus that connects but never answers AddMatch, or RegisterEvent: refused after 15 s, naming the call', async () => {
    // Fake buses that answer Hello (the watch connects) and then stay silent on one call:
    // the time limit must say which call it waited for. Both at once: one 15 s wait.
    const noMatch = await startHalfMuteBus('AddMatch');
    const noRegistry = await startHalfMuteBus('RegisterEvent');
    try {
      await Promise.all([
        expect(TextEchoWatch.open({ AT_SPI_BUS_ADDRESS: noMatch.address })).rejects.toThrow('org.freedesktop.DBus.AddMatch took longer than 15 s'),
        expect(TextEchoWatch.open({ AT_SPI_BUS_ADDRESS: noRegistry.address })).rejects.toThrow('org.a11y.atspi.Registry.RegisterEvent took longer than 15 s'),
      ]);
      // Each got as far as the call it never answered, and no further.
      expect(noMatch.calls).toEqual(['org.freedesktop.DBus.Hello', 'org.freedesktop.DBus.AddMatch']);
      expect(noRegistry.calls.at(-1)).toBe('org.a11y.atspi.Registry.RegisterEvent');
      expect(noRegistry.calls.filter((c) => c.endsWith('.RegisterEvent'))).toHaveLength(1);
    } finally {
      await noMatch.stop();
      await noRegistry.stop();
    }
  });

  it('on a bus without the AT-SPI registry, refuses with the registry named and leaves no connection behind', async () => {
    // The private session bus: a real bus (AddMatch answers) where nothing provides the
    // registry, so RegisterEvent fails after the watch's connection is up.
    const sessionBus = a11y.env.DBUS_SESSION_BUS_ADDRESS!;
    await expect(TextEchoWatch.open({ AT_SPI_BUS_ADDRESS: sessionBus })).rejects.toThrow(/org\.a11y\.atspi\.Registry/);
    // The bus daemon drops a name once its socket closes; a watch that failed to open must not keep one.
    await until('the failed watch\'s connection to end', () => namesOfThisProcess(a11y.env).length === 0);
  });
});

/** The unique names of this process on `env`'s session bus, asked by dbus-send (another process, so never one of them). */
function namesOfThisProcess(env: NodeJS.ProcessEnv): string[] {
  const ask = (...args: string[]) => spawnSync('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', ...args], { env, encoding: 'utf8', timeout: 5_000 });
  const listed = ask('org.freedesktop.DBus.ListNames');
  expect(listed.status, listed.stderr).toBe(0);
  const unique = [...listed.stdout.matchAll(/string "(:[^"]+)"/g)].map((m) => m[1]!);
  return unique.filter((name) => /uint32 (\d+)/.exec(ask('org.freedesktop.DBus.GetConnectionUnixProcessID', `string:${name}`).stdout)?.[1] === String(process.pid));
}

/** The unique names on the accessibility bus that belong to this process other than the app's. */
async function watchNames(): Promise<string[]> {
  // The app's own unique name (dbus-next sets `name` once connected; its types leave it out).
  const appName = (app as unknown as { name: string }).name;
  const names = (await callBus<string[]>('ListNames', '', [])).filter((n) => n.startsWith(':') && n !== appName);
  const mine: string[] = [];
  for (const name of names) {
    const pid = await callBus<number>('GetConnectionUnixProcessID', 's', [name]).catch(() => -1);
    if (pid === process.pid) mine.push(name);
  }
  return mine;
}

describe("the process's watch per bus", () => {
  afterEach(() => vi.restoreAllMocks());

  it('has none without a bus address; opens one per bus, shared by every caller, and again once it closed', async () => {
    expect(await openTextEchoWatch({})).toBeUndefined();
    expect(currentTextEchoWatch({})).toBeUndefined();
    const env = { AT_SPI_BUS_ADDRESS: a11y.address };
    const [a, b] = await Promise.all([openTextEchoWatch(env), openTextEchoWatch(env)]);
    expect(a).toBeInstanceOf(TextEchoWatch);
    expect(b).toBe(a);
    expect(await openTextEchoWatch(env)).toBe(a);
    expect(currentTextEchoWatch(env)).toBe(a);
    // Another key (the session bus's address too) is another watch.
    const viaSession = await openTextEchoWatch(a11y.env);
    expect(viaSession).toBeInstanceOf(TextEchoWatch);
    expect(viaSession).not.toBe(a);
    a!.close();
    // Closed: the next typing has none, and its call starts opening a new one.
    expect(currentTextEchoWatch(env)).toBeUndefined();
    const again = await openTextEchoWatch(env);
    expect(again).toBeInstanceOf(TextEchoWatch);
    expect(again).not.toBe(a);
    expect(again!.isOpen).toBe(true);
    again!.close();
    viaSession!.close();
  });

  it('with no bus address in the environment, asks for no watch at all (no opening, no failure to wait out)', async () => {
    const opens = vi.spyOn(TextEchoWatch, 'open');
    expect(await openTextEchoWatch({})).toBeUndefined();
    expect(currentTextEchoWatch({})).toBeUndefined();
    expect(await openTextEchoWatch({ DISPLAY: ':0' })).toBeUndefined();
    expect(opens).not.toHaveBeenCalled();
  });

  it('a typing call never waits: it starts the opening, and the next one has the watch', async () => {
    const env = { AT_SPI_BUS_ADDRESS: a11y.address, DBUS_SESSION_BUS_ADDRESS: 'first-call' };
    expect(currentTextEchoWatch(env)).toBeUndefined();
    const opening = openTextEchoWatch(env);
    const watch = await opening;
    expect(watch).toBeInstanceOf(TextEchoWatch);
    expect(currentTextEchoWatch(env)).toBe(watch);
    watch!.close();
  });

  it('after a failed open, tries again only 10 s later', async () => {
    let now = 1_000_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const missing = `unix:path=/nonexistent/deskpilot-retry-${process.pid}`;
    const env = { AT_SPI_BUS_ADDRESS: missing };
    expect(await openTextEchoWatch(env)).toBeUndefined();
    const opens = vi.spyOn(TextEchoWatch, 'open');
    now += 9_999;
    expect(currentTextEchoWatch(env)).toBeUndefined();
    expect(opens).not.toHaveBeenCalled();
    now += 1;
    expect(currentTextEchoWatch(env)).toBeUndefined();
    expect(opens).toHaveBeenCalledTimes(1);
    // While that opening is under way, no second one.
    expect(currentTextEchoWatch(env)).toBeUndefined();
    expect(opens).toHaveBeenCalledTimes(1);
    expect(await openTextEchoWatch(env)).toBeUndefined();
  });

  it('an open watch does not hold the process open: its socket is unref’d (a CLI ends when its work does)', async () => {
    const watch = await open();
    // The connection's socket (dbus-next keeps it as _connection.stream): a handle that
    // does not keep the event loop alive. A child process that opens a watch and returns
    // showed the same (it exited at once), at ~8 s a run under load: too slow per mutant.
    const socket = (watch as unknown as { bus: { _connection: { stream: { _handle: { hasRef(): boolean } } } } }).bus._connection.stream;
    expect(socket._handle.hasRef()).toBe(false);
  });
});
