/**
 * Issue 27 item 8: the X cookie is chosen for the host the connection reached, by Xlib's
 * rules (libxcb get_authptr + libXau XauGetBestAuthByAddr): FamilyLocal with this host's
 * name for a Unix socket or loopback TCP, FamilyInternet/Internet6 with the peer's
 * address otherwise, FamilyWild for any. `DISPLAY=otherhost:0` used to get the local
 * :0 cookie (the old reader fell back to any entry with the display's number).
 *
 * The rules are checked on the parsed entries, and end to end: our connection to a
 * fake X server listening on 127.0.0.2 (a peer that is not this host by those rules)
 * and on 127.0.0.1 records the cookie the client actually sent.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { X11Connection } from '../../src/os-control/x11/connection.js';
import { X11ImageGrabber } from '../../src/os-control/x11/image-grab.js';
import { authPeer, cookieFor, defaultXauthorityFile, encodeXauthority, entryMatches, FAMILY, parseXauthority, type XauthEntry } from '../../src/os-control/x11/xauthority.js';
import { requirePrograms } from '../harness/requirements.js';
import { startFakeXServer, type FakeXServer } from './fake-x-server.js';

const ME = hostname();
const entry = (family: number, address: Buffer | string, number: string, data: number[], name = 'MIT-MAGIC-COOKIE-1'): XauthEntry => ({
  family,
  address: typeof address === 'string' ? Buffer.from(address, 'latin1') : address,
  number,
  name,
  data: Buffer.from(data),
});

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'deskpilot-xauth-test-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function authFile(name: string, entries: XauthEntry[]): string {
  const file = join(dir, name);
  writeFileSync(file, encodeXauthority(entries));
  chmodSync(file, 0o600);
  return file;
}

describe('Xauthority entries', () => {
  it('reads back what it writes, field by field (Latin-1 text), and stops at a truncated entry', () => {
    const entries = [entry(FAMILY.Local, ME, '5', [1, 2]), entry(FAMILY.Internet, Buffer.from([10, 0, 0, 7]), '', [3]), entry(FAMILY.Wild, '', '12', [9, 9, 9], 'XDM-AUTHORIZATION-1'), entry(7, 'x', 'é1', [4], 'NAMÉ')];
    const bytes = encodeXauthority(entries);
    expect(bytes.subarray(bytes.length - 13, bytes.length - 5)).toEqual(Buffer.from([0, 2, 0xe9, 0x31, 0, 4, 0x4e, 0x41]));
    expect(parseXauthority(bytes)).toEqual(entries);
    expect(parseXauthority(bytes.subarray(0, bytes.length - 1))).toEqual(entries.slice(0, 3));
    expect(parseXauthority(Buffer.alloc(0))).toEqual([]);
  });

  it('every cut inside the last entry leaves exactly the whole entries before it, never an error', () => {
    const first = encodeXauthority([entry(FAMILY.Local, 'ab', '1', [5, 6])]);
    const last = encodeXauthority([entry(FAMILY.Internet, Buffer.from([1, 2, 3, 4]), '22', [7, 8, 9])]);
    const both = Buffer.concat([first, last]);
    for (let cut = first.length; cut < both.length; cut++) expect(parseXauthority(both.subarray(0, cut)), `cut at ${cut}`).toHaveLength(1);
    expect(parseXauthority(both)).toHaveLength(2);
  });

  it('reads the smallest entries: every field empty, and an empty cookie as the last bytes of the file', () => {
    const empty = entry(FAMILY.Wild, '', '', [], '');
    expect(encodeXauthority([empty])).toHaveLength(10);
    expect(parseXauthority(encodeXauthority([empty]))).toEqual([empty]);
    const emptyCookie = entry(FAMILY.Local, ME, '3', []);
    expect(parseXauthority(encodeXauthority([entry(FAMILY.Local, ME, '2', [1]), emptyCookie]))).toEqual([entry(FAMILY.Local, ME, '2', [1]), emptyCookie]);
  });

  it("is XAUTHORITY's file, else ~/.Xauthority", () => {
    expect(defaultXauthorityFile({ XAUTHORITY: '/run/user/1000/xauth_abc' })).toBe('/run/user/1000/xauth_abc');
    expect(defaultXauthorityFile({})).toBe(join(homedir(), '.Xauthority'));
    expect(defaultXauthorityFile({ XAUTHORITY: '' })).toBe(join(homedir(), '.Xauthority'));
  });

  it('is the format xauth writes: xauth -f lists our entry', async () => {
    requirePrograms(['xauth']);
    const { spawnSync } = await import('node:child_process');
    const file = authFile('for-xauth', [entry(FAMILY.Local, ME, '42', [0xab, 0xcd])]);
    const listed = spawnSync('xauth', ['-f', file, 'list'], { encoding: 'utf8' });
    expect(listed.stdout.trim()).toBe(`${ME}/unix:42  MIT-MAGIC-COOKIE-1  abcd`);
  });
});

describe('whom a socket reached', () => {
  it('a Unix socket and exactly 127.0.0.1 or ::1 are this host; other addresses are themselves', () => {
    const local = { family: FAMILY.Local, address: Buffer.from('box') };
    expect(authPeer(undefined, 'box')).toEqual(local);
    expect(authPeer('127.0.0.1', 'box')).toEqual(local);
    expect(authPeer('::1', 'box')).toEqual(local);
    expect(authPeer('::ffff:127.0.0.1', 'box')).toEqual(local);
    expect(authPeer('127.0.0.2', 'box')).toEqual({ family: FAMILY.Internet, address: Buffer.from([127, 0, 0, 2]) });
    expect(authPeer('192.168.1.20', 'box')).toEqual({ family: FAMILY.Internet, address: Buffer.from([192, 168, 1, 20]) });
    expect(authPeer('::ffff:10.1.2.3', 'box')).toEqual({ family: FAMILY.Internet, address: Buffer.from([10, 1, 2, 3]) });
    expect(authPeer('::FFFF:192.168.100.200', 'box')).toEqual({ family: FAMILY.Internet, address: Buffer.from([192, 168, 100, 200]) });
    expect(authPeer('::ffff:a01:203', 'box')).toEqual({ family: FAMILY.Internet6, address: Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0x0a, 0x01, 0x02, 0x03]) });
    expect(authPeer('1::ffff:10.1.2.3', 'box').family).toBe(FAMILY.Internet6);
    expect(authPeer('fe80:1:2:3:4:5:6:7', 'box').address).toEqual(Buffer.from([0xfe, 0x80, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7]));
    expect(authPeer('fe80::1%eth0', 'box').address).toEqual(Buffer.from([0xfe, 0x80, ...Array<number>(13).fill(0), 1]));
    expect(authPeer(undefined, 'hôte')).toEqual({ family: FAMILY.Local, address: Buffer.from('hôte', 'utf8') });
    expect(authPeer('fe80::1:2', 'box')).toEqual({ family: FAMILY.Internet6, address: Buffer.from([0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2]) });
    expect(authPeer('2001:db8::', 'box').address).toEqual(Buffer.from([0x20, 0x01, 0x0d, 0xb8, ...Array<number>(12).fill(0)]));
    expect(() => authPeer('not-an-address', 'box')).toThrow(/not an IP address/);
  });
});

describe('the cookie for a display', () => {
  const here = authPeer(undefined);
  const other = authPeer('192.168.1.20');

  it('matches family and address, or FamilyWild; the number, or an empty one; MIT-MAGIC-COOKIE-1 only', () => {
    expect(entryMatches(entry(FAMILY.Local, ME, '0', [1]), here, 0)).toBe(true);
    expect(entryMatches(entry(FAMILY.Local, ME, '0', [1]), here, 1)).toBe(false);
    expect(entryMatches(entry(FAMILY.Local, 'otherbox', '0', [1]), here, 0)).toBe(false);
    expect(entryMatches(entry(FAMILY.Local, ME, '0', [1]), other, 0)).toBe(false);
    expect(entryMatches(entry(FAMILY.Internet, Buffer.from([192, 168, 1, 20]), '0', [1]), other, 0)).toBe(true);
    expect(entryMatches(entry(FAMILY.Internet, Buffer.from([192, 168, 1, 21]), '0', [1]), other, 0)).toBe(false);
    expect(entryMatches(entry(FAMILY.Wild, '', '0', [1]), other, 0)).toBe(true);
    expect(entryMatches(entry(FAMILY.Wild, '', '', [1]), here, 77)).toBe(true);
    expect(entryMatches(entry(FAMILY.Local, ME, '', [1]), here, 3)).toBe(true);
    expect(entryMatches(entry(FAMILY.Local, ME, '0', [1], 'XDM-AUTHORIZATION-1'), here, 0)).toBe(false);
    // Same address bytes, another family: not a match (an Internet entry for a host named by 4 bytes).
    expect(entryMatches(entry(FAMILY.Internet, Buffer.from('abcd'), '0', [1]), { family: FAMILY.Local, address: Buffer.from('abcd') }, 0)).toBe(false);
  });

  it('never hands this host\'s cookie to another host; the first match in file order wins', () => {
    const file = authFile('mixed', [entry(FAMILY.Local, ME, '0', [1]), entry(FAMILY.Local, ME, '7', [2]), entry(FAMILY.Internet, Buffer.from([192, 168, 1, 20]), '7', [3]), entry(FAMILY.Wild, '', '9', [4])]);
    expect([...cookieFor(here, 0, file)!]).toEqual([1]);
    expect([...cookieFor(here, 7, file)!]).toEqual([2]);
    expect([...cookieFor(other, 7, file)!]).toEqual([3]);
    // otherhost:0 — only this host's :0 entry has that number: no cookie at all.
    expect(cookieFor(other, 0, file)).toBeUndefined();
    expect([...cookieFor(other, 9, file)!]).toEqual([4]);
    expect(cookieFor(here, 8, file)).toBeUndefined();
    expect(cookieFor(here, 0, join(dir, 'no-such-file'))).toBeUndefined();
  });
});

describe('the cookie our connections send (a fake X server on a real socket)', () => {
  let remote: FakeXServer;
  let loopback: FakeXServer;
  beforeAll(async () => {
    // 127.0.0.2 is loopback to the kernel but not "this host" to Xlib: libxcb names only 127.0.0.1 local.
    remote = await startFakeXServer('127.0.0.2', { answerSetup: true });
    loopback = await startFakeXServer('127.0.0.1', { answerSetup: true });
  });
  afterAll(async () => {
    await remote?.close();
    await loopback?.close();
  });
  const numberOf = (display: string) => Number(display.split(':')[1]);

  it('another host gets its own entry, or none — never the local one of the same number', async () => {
    const n = numberOf(remote.display);
    const onlyLocal = authFile('only-local', [entry(FAMILY.Local, ME, String(n), [0x11, 0x22])]);
    const conn = await X11Connection.open(remote.display, { xauthority: onlyLocal, timeoutMs: 5_000 });
    conn.close();
    expect(remote.setups.at(-1)).toEqual({ authName: '', authData: Buffer.alloc(0) });

    const both = authFile('both', [entry(FAMILY.Local, ME, String(n), [0x11, 0x22]), entry(FAMILY.Internet, Buffer.from([127, 0, 0, 2]), String(n), [0x33, 0x44])]);
    const again = await X11Connection.open(remote.display, { xauthority: both, timeoutMs: 5_000 });
    again.close();
    expect(remote.setups.at(-1)).toEqual({ authName: 'MIT-MAGIC-COOKIE-1', authData: Buffer.from([0x33, 0x44]) });
  });

  it('loopback TCP (127.0.0.1, as ssh -X forwards) is this host: the FamilyLocal entry', async () => {
    const n = numberOf(loopback.display);
    const file = authFile('forwarded', [entry(FAMILY.Internet, Buffer.from([127, 0, 0, 1]), String(n), [0x55]), entry(FAMILY.Local, ME, String(n), [0x66])]);
    const conn = await X11Connection.open(loopback.display, { xauthority: file, timeoutMs: 5_000 });
    conn.close();
    expect(loopback.setups.at(-1)).toEqual({ authName: 'MIT-MAGIC-COOKIE-1', authData: Buffer.from([0x66]) });
  });

  it('the screen grabber chooses the same way (XAUTHORITY of this process)', async () => {
    const n = numberOf(remote.display);
    const saved = process.env.XAUTHORITY;
    process.env.XAUTHORITY = authFile('grabber', [entry(FAMILY.Local, ME, String(n), [0x77])]);
    try {
      const grabber = await X11ImageGrabber.open(remote.display);
      grabber.close();
    } finally {
      if (saved === undefined) delete process.env.XAUTHORITY;
      else process.env.XAUTHORITY = saved;
    }
    expect(remote.setups.at(-1)).toEqual({ authName: '', authData: Buffer.alloc(0) });
  });
});
