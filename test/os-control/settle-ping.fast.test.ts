/**
 * settle-ping.ts on a stand-in X connection (fake-x-connection.ts): the requests AppPinger
 * makes and the bytes it sends — the round trip's window, the WM round trip, the pings and
 * whom they go to — and how it reads the answers. settle-ping.desktop.test.ts and
 * settle-new-window.desktop.test.ts show the same on a real server with real apps.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { X11Connection, X11Error } from '../../src/os-control/x11/connection.js';
import { AppPinger, focusedClientWindow, newWindowsWatch, pingInputTargets } from '../../src/os-control/settle-ping.js';
import { ATOMS, DAMAGE_EXT, FakeXConnection, ROOT } from './fake-x-connection.js';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function serve(fake: FakeXConnection) {
  return vi.spyOn(X11Connection, 'open').mockResolvedValue(fake as unknown as X11Connection);
}

async function pingerOn(fake: FakeXConnection): Promise<AppPinger> {
  const open = serve(fake);
  const pinger = await AppPinger.open(':7');
  expect(open).toHaveBeenCalledWith(':7');
  return pinger!;
}

const tick = () => new Promise((r) => setImmediate(r));
/** Turns of the event loop until `done()` (the fake answers on later turns); at most 100. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await tick();
  expect(done()).toBe(true);
}

/** The pings sent: [destination, window, type, data[0], stamp, data[2]], with format and mask checked. */
function pings(fake: FakeXConnection): number[][] {
  return fake.sentEvents
    .filter((e) => e.destination !== ROOT)
    .map(({ destination, mask, event }) => {
      expect([event[0], event[1], mask]).toEqual([33, 32, 0]);
      return [destination, event.readUInt32LE(4), event.readUInt32LE(8), event.readUInt32LE(12), event.readUInt32LE(16), event.readUInt32LE(20)];
    });
}

/** The WM round trips sent: [window, type, format, mask]. */
function trips(fake: FakeXConnection): number[][] {
  return fake.sentEvents.filter((e) => e.destination === ROOT).map(({ event, mask }) => [event[0]!, event.readUInt32LE(4), event.readUInt32LE(8), event[1]!, mask]);
}

function propertyNotify(window: number, atom: number): Buffer {
  const e = Buffer.alloc(32);
  e[0] = 28;
  e.writeUInt32LE(window, 4);
  e.writeUInt32LE(atom, 8);
  return e;
}

/** A core event about `window` on the root's SubstructureNotify: CreateNotify (16), MapNotify (19). */
function rootEvent(type: number, window: number): Buffer {
  const e = Buffer.alloc(32);
  e[0] = type;
  e.writeUInt32LE(ROOT, 4);
  e.writeUInt32LE(window, 8);
  return e;
}

describe('AppPinger.open', () => {
  it('makes the round trip\'s private InputOnly window, selects the root\'s SubstructureNotify, agrees on DAMAGE 1.1, and holds no process open', async () => {
    const fake = new FakeXConnection();
    const pinger = await pingerOn(fake);
    expect(pinger).toBeInstanceOf(AppPinger);
    // InternAtom only-if-exists (minor 1) for the three names.
    const interned = fake.requests.filter(([m]) => m === 16);
    expect(interned.map(([, minor, body]) => [minor, body.subarray(4, 4 + body.readUInt16LE(0)).toString('latin1')])).toEqual([
      [1, 'WM_PROTOCOLS'],
      [1, '_NET_WM_PING'],
      [1, 'WM_STATE'],
    ]);
    const version = fake.requests.find(([m]) => m === DAMAGE_EXT.majorOpcode)!;
    expect([version[1], version[2].readUInt32LE(0), version[2].readUInt32LE(4)]).toEqual([0, 1, 1]);
    const [create] = fake.sent(1);
    const trip = create!.readUInt32LE(0);
    expect(trip).toBe(fake.setup.resourceIdBase + 1);
    // wid, parent; x, y = -200; 1×1; border 0; class InputOnly; visual CopyFromParent; mask event-mask; PropertyChange.
    expect([create!.readUInt32LE(4), create!.readInt16LE(8), create!.readInt16LE(10), create!.readUInt16LE(12), create!.readUInt16LE(14), create!.readUInt16LE(16), create!.readUInt16LE(18)]).toEqual([ROOT, -200, -200, 1, 1, 0, 2]);
    expect([create!.readUInt32LE(20), create!.readUInt32LE(24), create!.readUInt32LE(28), create!.length]).toEqual([0, 1 << 11, 1 << 22, 32]);
    const [select] = fake.sent(2);
    expect([select!.readUInt32LE(0), select!.readUInt32LE(4), select!.readUInt32LE(8), select!.length]).toEqual([ROOT, 1 << 11, 1 << 19, 12]);
    // The window is made before the root is watched, and a sync follows both.
    const order = fake.requests.map(([m]) => m);
    expect(order.slice(order.indexOf(1))).toEqual([1, 2, 43]);
    expect([fake.unrefs, fake.closed]).toEqual([1, false]);
  });

  it('is undefined, its connection closed, where an atom a ping needs was never made', async () => {
    for (const missing of ['WM_PROTOCOLS', '_NET_WM_PING', 'WM_STATE']) {
      const fake = new FakeXConnection();
      fake.atoms.delete(missing);
      serve(fake);
      expect(await AppPinger.open(':7')).toBeUndefined();
      expect(fake.closed).toBe(true);
      expect(fake.sent(1)).toHaveLength(0);
    }
  });

  it('closes its connection and throws when a request fails while opening', async () => {
    const fake = new FakeXConnection();
    fake.failing = { major: 43, error: new X11Error('X connection closed') };
    serve(fake);
    await expect(AppPinger.open(':7')).rejects.toThrow('X connection closed');
    expect(fake.closed).toBe(true);
  });

  it('its new-window watch uses DAMAGE when the server has it, and the map without it', async () => {
    const withDamage = new FakeXConnection();
    const a = await pingerOn(withDamage);
    const create = rootEvent(16, 0x700);
    withDamage.emit(create);
    expect(withDamage.requests.filter(([m, minor]) => m === DAMAGE_EXT.majorOpcode && minor === 1)).toHaveLength(1);
    expect(a.newWindows.progress(0).owed).toBe(true);

    const without = new FakeXConnection();
    without.damage = false;
    const b = await pingerOn(without);
    expect(without.requests.some(([m]) => m === DAMAGE_EXT.majorOpcode)).toBe(false);
    without.emit(create);
    without.emit(rootEvent(19, 0x700));
    expect(b.newWindows.progress(0).owed).toBe(false);
  });
});

describe('AppPinger pings', () => {
  it('pings the client under the pointer that takes pings, once also when it has the focus; the ping carries a fresh stamp and the window', async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210);
    fake.pointerChild = 0x200;
    fake.focus = 0x210;
    const pinger = await pingerOn(fake);
    expect(await pinger.pingInputTargets()).toBe(1);
    expect(await pinger.pingInputTargets()).toBe(1);
    expect(pings(fake)).toEqual([
      [0x210, 0x210, ATOMS.WM_PROTOCOLS, ATOMS._NET_WM_PING, 1, 0x210],
      [0x210, 0x210, ATOMS.WM_PROTOCOLS, ATOMS._NET_WM_PING, 2, 0x210],
    ]);
    expect(fake.sentEvents[0]!.event).toHaveLength(32);
  });

  it('pings both apps when the pointer is over one and the other has the focus; not one that does not list _NET_WM_PING', async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210);
    fake.addClient(0x300, 0x310, [], { depth: 3 });
    fake.addClient(0x400, 0x410, [ATOMS.WM_DELETE_WINDOW]);
    const pinger = await pingerOn(fake);
    fake.pointerChild = 0x200;
    fake.focus = 0x310;
    // 0x310 lists nothing: not pinged.
    expect(await pinger.inputTargets()).toEqual([0x210]);
    fake.windows.get(0x310)!.props.set(ATOMS.WM_PROTOCOLS, [4, Buffer.from([ATOMS._NET_WM_PING, 0, 0, 0])]);
    expect(await pinger.inputTargets()).toEqual([0x210, 0x310]);
    fake.pointerChild = 0x400;
    fake.focus = 0x410;
    expect(await pinger.pingInputTargets()).toBe(0);
  });

  it('finds the client up to 3 levels below a top-level (a frame), not deeper, and none below a top-level without one', async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210, undefined, { depth: 3 });
    fake.addClient(0x300, 0x310, undefined, { depth: 4 });
    const pinger = await pingerOn(fake);
    fake.pointerChild = 0x200;
    expect(await pinger.inputTargets()).toEqual([0x210]);
    fake.pointerChild = 0x300;
    expect(await pinger.inputTargets()).toEqual([]);
    // A window with WM_STATE of another type is no client.
    fake.windows.get(0x210)!.props.set(ATOMS.WM_STATE, [4, Buffer.alloc(8)]);
    fake.pointerChild = 0x200;
    expect(await pinger.inputTargets()).toEqual([]);
  });

  it('the focus: None, PointerRoot and the root are no app; a focus deep in a frame is its top-level\'s client; a window gone is none', async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210, undefined, { depth: 2 });
    const pinger = await pingerOn(fake);
    for (const focus of [0, 1, ROOT]) {
      fake.focus = focus;
      expect(await pinger.focusedClient()).toBe(0);
    }
    // A child of the client (a GTK focus window): climbed to the frame, then down to the client.
    fake.windows.set(0x220, { parent: 0x210, children: [], props: new Map() });
    fake.windows.get(0x210)!.children.push(0x220);
    fake.focus = 0x220;
    expect(await pinger.focusedClient()).toBe(0x210);
    expect(await pinger.inputTargets()).toEqual([0x210]);
    fake.focus = 0x999;
    expect(await pinger.focusedClient()).toBe(0);
    // A parent gone while climbing.
    fake.windows.set(0x230, { parent: 0x998, children: [], props: new Map() });
    fake.focus = 0x230;
    expect(await pinger.focusedClient()).toBe(0);
    // A window whose parent is 0 (not under the root) counts as the top-level.
    fake.windows.set(0x240, { parent: 0, children: [0x210], props: new Map() });
    fake.focus = 0x240;
    expect(await pinger.focusedClient()).toBe(0x210);
  });

  it('a focus chain deeper than 32 windows is no app', async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210);
    let parent = 0x210;
    for (let i = 1; i <= 32; i++) {
      fake.windows.set(0x1000 + i, { parent, children: [], props: new Map() });
      parent = 0x1000 + i;
    }
    const pinger = await pingerOn(fake);
    // From 0x1000 + k to the frame takes k + 2 QueryTree reads: 32 are read, no more.
    fake.focus = 0x1000 + 30;
    expect(await pinger.focusedClient()).toBe(0x210);
    fake.focus = 0x1000 + 31;
    expect(await pinger.focusedClient()).toBe(0);
  });

  it('a client gone while its properties are read is no target; any other error is thrown', async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210);
    fake.pointerChild = 0x200;
    const pinger = await pingerOn(fake);
    // Gone between the WM_STATE read and the WM_PROTOCOLS read.
    let reads = 0;
    fake.beforePropertyRead = (_window, atom) => {
      if (atom === ATOMS.WM_PROTOCOLS && ++reads === 1) fake.windows.delete(0x210);
    };
    expect(await pinger.inputTargets()).toEqual([]);
    // A frame gone before its tree is read.
    fake.windows.get(ROOT)!.children.push(0x500);
    fake.pointerChild = 0x500;
    expect(await pinger.inputTargets()).toEqual([]);
    // The frame still there, its client gone: its tree is read, and that read fails otherwise.
    fake.pointerChild = 0x200;
    fake.failing = { major: 15, error: new X11Error('X error 8', 8) };
    await expect(pinger.inputTargets()).rejects.toThrow('X error 8');
    fake.failing = { major: 20, error: new X11Error('X error 8', 8) };
    fake.addClient(0x600, 0x610);
    fake.pointerChild = 0x610;
    await expect(pinger.inputTargets()).rejects.toThrow('X error 8');
    fake.failing = { major: 43, error: new X11Error('X error 8', 8) };
    fake.pointerChild = 0;
    await expect(pinger.focusedClient()).rejects.toThrow('X error 8');
  });

  it('a takes-ping read fails with another error: thrown', async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210);
    fake.pointerChild = 0x200;
    const pinger = await pingerOn(fake);
    fake.beforePropertyRead = (_window, atom) => {
      if (atom === ATOMS.WM_PROTOCOLS) throw new X11Error('X error 10', 10);
    };
    await expect(pinger.inputTargets()).rejects.toThrow('X error 10');
  });

  it('a ping resolves on its own answer only: not on another stamp, another message or another protocol; an unsent answer counts too', async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210, undefined, { answers: false });
    const pinger = await pingerOn(fake);
    let done = false;
    const ping = pinger.ping([0x210]).then(() => (done = true));
    const answer = (stamp: number, type: number = ATOMS.WM_PROTOCOLS, protocol: number = ATOMS._NET_WM_PING, code = 33 | 0x80) => {
      const e = Buffer.alloc(32);
      e[0] = code;
      e.writeUInt32LE(type, 8);
      e.writeUInt32LE(protocol, 12);
      e.writeUInt32LE(stamp, 16);
      fake.emit(e);
    };
    answer(2);
    answer(1, ATOMS.WM_STATE);
    answer(1, ATOMS.WM_PROTOCOLS, ATOMS.WM_DELETE_WINDOW);
    answer(1, ATOMS.WM_PROTOCOLS, ATOMS._NET_WM_PING, 28);
    await tick();
    expect(done).toBe(false);
    answer(1, ATOMS.WM_PROTOCOLS, ATOMS._NET_WM_PING, 33);
    await ping;
    expect(done).toBe(true);
    // Answered once: the same stamp again resolves nothing and throws nothing.
    answer(1);
  });

  it('pinging no window resolves at once; close() ends every ping and round trip still out, and the connection', async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210, undefined, { answers: false });
    fake.supports(ATOMS._NET_REQUEST_FRAME_EXTENTS);
    const pinger = await pingerOn(fake);
    await pinger.ping([]);
    const ping = pinger.ping([0x210]);
    fake.wmAnswers = false;
    const trip = pinger.throughWindowManager();
    await tick();
    await tick();
    pinger.close();
    await Promise.all([ping, trip]);
    expect(fake.closed).toBe(true);
  });
});

describe('AppPinger: what stryker showed untested', () => {
  it("its new-window watch takes damage ids from the connection's own ids", async () => {
    const fake = new FakeXConnection();
    await pingerOn(fake);
    const create = rootEvent(16, 0x700);
    fake.emit(create);
    const damageCreate = fake.requests.find(([m, minor]) => m === DAMAGE_EXT.majorOpcode && minor === 1)![2];
    // The round trip's window took the first id, the damage object the second.
    expect([damageCreate.readUInt32LE(0), damageCreate.readUInt32LE(4)]).toEqual([fake.setup.resourceIdBase + 2, 0x700]);
  });

  it("a ping's answer counts whatever window it names, the round trip's own included; a PropertyNotify before any WM atom was read throws nothing", async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210, undefined, { answers: false });
    const pinger = await pingerOn(fake);
    const trip = fake.sent(1)[0]!.readUInt32LE(0);
    fake.emit(propertyNotify(trip, ATOMS._NET_FRAME_EXTENTS));
    const ping = pinger.ping([0x210]);
    const answer = Buffer.from(fake.sentEvents[0]!.event);
    answer[0] = 33 | 0x80;
    answer.writeUInt32LE(trip, 4);
    fake.emit(answer);
    await ping;
  });

  it('no QueryTree is asked for a focus of None or PointerRoot', async () => {
    const fake = new FakeXConnection();
    const pinger = await pingerOn(fake);
    for (const focus of [0, 1]) {
      fake.focus = focus;
      expect(await pinger.focusedClient()).toBe(0);
    }
    expect(fake.sent(15)).toEqual([]);
  });

  it("climbing from the focus, an error other than BadWindow is thrown", async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210);
    fake.focus = 0x210;
    const pinger = await pingerOn(fake);
    fake.failing = { major: 15, error: new X11Error('X error 8', 8) };
    await expect(pinger.focusedClient()).rejects.toThrow('X error 8');
  });

  it("a frame's client is found after a sibling that holds none (a decoration window first)", async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210);
    fake.windows.set(0x205, { parent: 0x200, children: [], props: new Map() });
    fake.windows.get(0x200)!.children.unshift(0x205);
    fake.pointerChild = 0x200;
    const pinger = await pingerOn(fake);
    expect(await pinger.inputTargets()).toEqual([0x210]);
  });

  it('the WM atoms are interned once for every round trip after', async () => {
    const fake = new FakeXConnection();
    fake.supports(ATOMS._NET_REQUEST_FRAME_EXTENTS);
    const pinger = await pingerOn(fake);
    await pinger.throughWindowManager();
    await pinger.throughWindowManager();
    expect(trips(fake)).toHaveLength(2);
    expect(fake.requests.filter(([m]) => m === 16)).toHaveLength(6);
  });
});

describe('AppPinger through the window manager', () => {
  it('asks a frame-extents request for its private window where the WM lists it, and goes on once the WM set _NET_FRAME_EXTENTS', async () => {
    const fake = new FakeXConnection();
    fake.supports(ATOMS._NET_WM_PING, ATOMS._NET_REQUEST_FRAME_EXTENTS);
    fake.addClient(0x200, 0x210);
    fake.pointerChild = 0x200;
    const pinger = await pingerOn(fake);
    const trip = fake.sent(1)[0]!.readUInt32LE(0);
    expect(await pinger.pingInputTargets()).toBe(1);
    expect(trips(fake)).toEqual([[33, trip, ATOMS._NET_REQUEST_FRAME_EXTENTS, 32, (1 << 19) | (1 << 20)]]);
    // The trip came before the ping.
    expect(fake.sentEvents.map((e) => e.destination)).toEqual([ROOT, 0x210]);
    await pinger.throughWindowManager();
    expect(trips(fake)).toHaveLength(2);
    // _NET_SUPPORTED read once: the WM's support is kept.
    expect(fake.sent(20).filter((b) => b.readUInt32LE(4) === ATOMS._NET_SUPPORTED)).toHaveLength(1);
    expect(fake.sent(20).find((b) => b.readUInt32LE(4) === ATOMS._NET_SUPPORTED)!.readUInt32LE(8)).toBe(4);
  });

  it('waits for the PropertyNotify of _NET_FRAME_EXTENTS on its own window, in order, and for nothing else', async () => {
    const fake = new FakeXConnection();
    fake.supports(ATOMS._NET_REQUEST_FRAME_EXTENTS);
    fake.wmAnswers = false;
    const pinger = await pingerOn(fake);
    const trip = fake.sent(1)[0]!.readUInt32LE(0);
    const done: number[] = [];
    const first = pinger.throughWindowManager().then(() => done.push(1));
    await tick();
    await tick();
    const second = pinger.throughWindowManager().then(() => done.push(2));
    await tick();
    await tick();
    expect(trips(fake)).toHaveLength(2);
    fake.emit(propertyNotify(trip, ATOMS.WM_STATE));
    fake.emit(propertyNotify(0x999, ATOMS._NET_FRAME_EXTENTS));
    await tick();
    expect(done).toEqual([]);
    fake.emit(propertyNotify(trip, ATOMS._NET_FRAME_EXTENTS));
    await first;
    expect(done).toEqual([1]);
    fake.emit(propertyNotify(trip, ATOMS._NET_FRAME_EXTENTS));
    await second;
    expect(done).toEqual([1, 2]);
    // A PropertyNotify of the trip's window is not read as anything else (the new-window watch does not see it).
    expect(pinger.newWindows.progress(0)).toEqual({ owed: false, drawnAt: undefined });
  });

  it('asks nothing where the WM does not list the request (read again next time), or where the atoms were never made', async () => {
    const fake = new FakeXConnection();
    fake.supports(ATOMS._NET_WM_PING);
    const pinger = await pingerOn(fake);
    await pinger.throughWindowManager();
    await pinger.throughWindowManager();
    expect(trips(fake)).toEqual([]);
    expect(fake.sent(20)).toHaveLength(2);
    fake.windows.get(ROOT)!.props.delete(ATOMS._NET_SUPPORTED);
    await pinger.throughWindowManager();
    expect(trips(fake)).toEqual([]);
    fake.supports(ATOMS._NET_REQUEST_FRAME_EXTENTS);
    await pinger.throughWindowManager();
    expect(trips(fake)).toHaveLength(1);

    for (const missing of ['_NET_SUPPORTED', '_NET_REQUEST_FRAME_EXTENTS', '_NET_FRAME_EXTENTS']) {
      const other = new FakeXConnection();
      other.supports(ATOMS._NET_REQUEST_FRAME_EXTENTS);
      other.atoms.delete(missing);
      const p = await pingerOn(other);
      await p.throughWindowManager();
      expect(trips(other)).toEqual([]);
      expect(other.sent(20)).toHaveLength(0);
      // The atoms are asked again next time (a WM may start later), only-if-exists.
      other.atoms.set(missing, ATOMS[missing as keyof typeof ATOMS]);
      await p.throughWindowManager();
      expect(trips(other)).toHaveLength(1);
      expect(other.requests.filter(([m, minor]) => m === 16 && minor === 1)).toHaveLength(9);
    }
  });

  it('a WM that leaves a round trip unanswered 2 s is not asked again; the atoms are read once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fake = new FakeXConnection();
    fake.supports(ATOMS._NET_REQUEST_FRAME_EXTENTS);
    fake.wmAnswers = false;
    const pinger = await pingerOn(fake);
    let done = false;
    const trip = pinger.throughWindowManager().then(() => (done = true));
    for (let i = 0; i < 4; i++) await tick();
    expect(trips(fake)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await trip;
    await pinger.throughWindowManager();
    expect(trips(fake)).toHaveLength(1);
    // A late answer of the given-up trip resolves nothing and throws nothing.
    fake.emit(propertyNotify(fake.sent(1)[0]!.readUInt32LE(0), ATOMS._NET_FRAME_EXTENTS));
    expect(fake.requests.filter(([m]) => m === 16)).toHaveLength(6);
  });

  it('an answered round trip clears its limit: a WM that answers in time is asked again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fake = new FakeXConnection();
    fake.supports(ATOMS._NET_REQUEST_FRAME_EXTENTS);
    const pinger = await pingerOn(fake);
    const first = pinger.throughWindowManager();
    for (let i = 0; i < 6; i++) await tick();
    await first;
    expect(vi.getTimerCount()).toBe(0);
    fake.wmAnswers = false;
    // A second trip left out: the first one's limit, had it stayed, would not end it.
    const second = pinger.throughWindowManager();
    for (let i = 0; i < 4; i++) await tick();
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000);
    await second;
    await pinger.throughWindowManager();
    expect(trips(fake)).toHaveLength(2);
  });
});

describe("AppPinger.loopWentRound (the new-window watch's ask about a window not shown)", () => {
  it('pings the window itself, then goes through the WM: true once both answered', async () => {
    const fake = new FakeXConnection();
    fake.supports(ATOMS._NET_WM_PING, ATOMS._NET_REQUEST_FRAME_EXTENTS);
    fake.addClient(0x200, 0x210);
    const pinger = await pingerOn(fake);
    const trip = fake.sent(1)[0]!.readUInt32LE(0);
    expect(await pinger.loopWentRound(0x210)).toBe(true);
    expect(pings(fake)).toEqual([[0x210, 0x210, ATOMS.WM_PROTOCOLS, ATOMS._NET_WM_PING, 1, 0x210]]);
    // The WM round trip after the app's answer: a map the app asked before it is handled by then.
    expect(fake.sentEvents.map((e) => e.destination)).toEqual([0x210, ROOT]);
    expect(trips(fake)).toEqual([[33, trip, ATOMS._NET_REQUEST_FRAME_EXTENTS, 32, (1 << 19) | (1 << 20)]]);
  });

  it('false, nothing sent, for a window that does not list _NET_WM_PING or is gone', async () => {
    const fake = new FakeXConnection();
    fake.supports(ATOMS._NET_WM_PING, ATOMS._NET_REQUEST_FRAME_EXTENTS);
    fake.addClient(0x200, 0x210, [ATOMS.WM_DELETE_WINDOW]);
    const pinger = await pingerOn(fake);
    expect(await pinger.loopWentRound(0x210)).toBe(false);
    expect(await pinger.loopWentRound(0x999)).toBe(false);
    expect(fake.sentEvents).toEqual([]);
  });

  it('false after 8 s without an answer, the ping forgotten (a late answer resolves nothing); no WM round trip', async () => {
    const fake = new FakeXConnection();
    fake.supports(ATOMS._NET_WM_PING, ATOMS._NET_REQUEST_FRAME_EXTENTS);
    fake.addClient(0x200, 0x210, undefined, { answers: false });
    const pinger = await pingerOn(fake);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let said: boolean | undefined;
    void pinger.loopWentRound(0x210).then((r) => (said = r));
    await until(() => pings(fake).length === 1);
    await vi.advanceTimersByTimeAsync(7_999);
    expect(said).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(said).toBe(false);
    expect(trips(fake)).toEqual([]);
    // The app answers now: the forgotten stamp finds nothing, and a later ping is still its own.
    const late = Buffer.alloc(32);
    late[0] = 33 | 0x80;
    late.writeUInt32LE(ROOT, 4);
    late.writeUInt32LE(ATOMS.WM_PROTOCOLS, 8);
    late.writeUInt32LE(ATOMS._NET_WM_PING, 12);
    late.writeUInt32LE(1, 16);
    fake.emit(late);
    fake.windows.get(0x210)!.answers = true;
    vi.useRealTimers();
    expect(await pinger.loopWentRound(0x210)).toBe(true);
  });

  it("the input targets' pings stay unbounded (settle bounds that wait): an app that never answers leaves ping() pending, no timer set", async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210, undefined, { answers: false });
    const pinger = await pingerOn(fake);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let done = false;
    void pinger.ping([0x210]).then(() => (done = true));
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(done).toBe(false);
  });

  it('an answer in time clears its limit: nothing fires 8 s later', async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210);
    const pinger = await pingerOn(fake);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    expect(await pinger.loopWentRound(0x210)).toBe(true);
    expect(cleared).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("the watch on the pinger's connection asks it: a new window whose app answered, never mapped, owes nothing", async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210);
    const pinger = await pingerOn(fake);
    const create = rootEvent(16, 0x210);
    fake.emit(create);
    expect(pinger.newWindows.progress(0).owed).toBe(true);
    await until(() => !pinger.newWindows.progress(0).owed);
    expect(pings(fake)).toEqual([[0x210, 0x210, ATOMS.WM_PROTOCOLS, ATOMS._NET_WM_PING, 1, 0x210]]);
  });
});

describe('AppPinger.sync', () => {
  it('ignores errors of the new-window watch\'s DAMAGE requests, throws any other', async () => {
    const fake = new FakeXConnection();
    const pinger = await pingerOn(fake);
    for (const code of [3, 8, 9, 150]) {
      fake.voidErrors = [new X11Error(`X error ${code}`, code, DAMAGE_EXT.majorOpcode)];
      await pinger.sync();
    }
    fake.voidErrors = [new X11Error('X error 3', 3, 25)];
    await expect(pinger.sync()).rejects.toThrow('X error 3');
    fake.voidErrors = [new Error('plain')];
    await expect(pinger.sync()).rejects.toThrow('plain');
  });

  it('without DAMAGE, no error is ignored', async () => {
    const fake = new FakeXConnection();
    fake.damage = false;
    const pinger = await pingerOn(fake);
    fake.voidErrors = [new X11Error('X error 3', 3, DAMAGE_EXT.majorOpcode)];
    await expect(pinger.sync()).rejects.toThrow('X error 3');
  });
});

describe('the per-display pinger', () => {
  const display = process.env.DISPLAY;
  afterEach(() => {
    if (display === undefined) delete process.env.DISPLAY;
    else process.env.DISPLAY = display;
  });

  it('off X11 (no DISPLAY) asks nothing: no targets, no focus, no watch', async () => {
    const open = vi.spyOn(X11Connection, 'open');
    delete process.env.DISPLAY;
    expect(await pingInputTargets()).toBe(0);
    expect(await focusedClientWindow()).toBe(0);
    expect(await newWindowsWatch()).toBeUndefined();
    process.env.DISPLAY = '';
    expect(await pingInputTargets()).toBe(0);
    expect(open).not.toHaveBeenCalled();
  });

  it('opens one pinger per display and keeps it; a failure closes it and the next call opens afresh', async () => {
    const fake = new FakeXConnection();
    fake.addClient(0x200, 0x210);
    fake.pointerChild = 0x200;
    fake.focus = 0x210;
    const open = serve(fake);
    process.env.DISPLAY = ':41';
    expect(await pingInputTargets()).toBe(1);
    expect(await focusedClientWindow()).toBe(0x210);
    const watch = await newWindowsWatch();
    expect(watch?.progress(0)).toEqual({ owed: false, drawnAt: undefined });
    expect(open).toHaveBeenCalledTimes(1);
    expect(open).toHaveBeenCalledWith(':41');
    fake.failing = { major: 38, error: new X11Error('X connection closed') };
    await expect(pingInputTargets()).rejects.toThrow('X connection closed');
    await tick();
    expect(fake.closed).toBe(true);
    const next = new FakeXConnection();
    open.mockResolvedValue(next as unknown as X11Connection);
    expect(await pingInputTargets()).toBe(0);
    expect(open).toHaveBeenCalledTimes(2);
  });

  it('where no window can take pings (the atoms were never made): none, nothing kept open', async () => {
    const fake = new FakeXConnection();
    fake.atoms.delete('_NET_WM_PING');
    serve(fake);
    process.env.DISPLAY = ':42';
    expect(await pingInputTargets()).toBe(0);
    expect(await focusedClientWindow()).toBe(0);
    expect(await newWindowsWatch()).toBeUndefined();
    expect(fake.closed).toBe(true);
  });

  it('off Linux asks nothing, DISPLAY or not', async () => {
    const open = vi.spyOn(X11Connection, 'open');
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
    Object.defineProperty(process, 'platform', { value: 'darwin' });
    try {
      process.env.DISPLAY = ':44';
      expect(await pingInputTargets()).toBe(0);
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
    expect(open).not.toHaveBeenCalled();
  });

  it("a failure of a pinger already replaced leaves its successor in place", async () => {
    const a = new FakeXConnection();
    const open = serve(a);
    process.env.DISPLAY = ':45';
    expect(await pingInputTargets()).toBe(0);
    // Two calls out on pinger A, each failing when the test says.
    const failures: (() => void)[] = [];
    vi.spyOn(a, 'request').mockImplementation((major) =>
      major === 38 ? new Promise<Buffer>((_, reject) => failures.push(() => reject(new X11Error('X connection closed')))) : Promise.resolve(Buffer.alloc(32)),
    );
    const first = pingInputTargets();
    const second = pingInputTargets();
    await until(() => failures.length === 2);
    failures[0]!();
    await expect(first).rejects.toThrow('X connection closed');
    // A call after the first failure opens pinger B.
    const b = new FakeXConnection();
    open.mockResolvedValue(b as unknown as X11Connection);
    expect(await pingInputTargets()).toBe(0);
    failures[1]!();
    await expect(second).rejects.toThrow('X connection closed');
    // B is kept: no third open.
    expect(await pingInputTargets()).toBe(0);
    expect(open).toHaveBeenCalledTimes(2);
  });

  it('a pinger that failed to open is asked afresh next time, the old one left closed', async () => {
    const open = vi.spyOn(X11Connection, 'open').mockRejectedValueOnce(new X11Error('no X server'));
    process.env.DISPLAY = ':43';
    await expect(pingInputTargets()).rejects.toThrow('no X server');
    const fake = new FakeXConnection();
    open.mockResolvedValue(fake as unknown as X11Connection);
    expect(await pingInputTargets()).toBe(0);
    expect(open).toHaveBeenCalledTimes(2);
  });
});
