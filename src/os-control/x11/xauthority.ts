/**
 * Xauthority files: the one parser and writer of their entries, and the choice of the
 * cookie a connection sends — by Xlib's rules (libxcb get_authptr + libXau
 * XauGetBestAuthByAddr), so a display on another host never gets this host's cookie.
 *
 * An entry is: family (CARD16), address, display number, auth name, auth data — each of
 * the last four a CARD16 length then its bytes, all big-endian (Xauth.h, XauReadAuth).
 *
 * Which entries a connection may use depends on whom the socket reached (its peer):
 *  - a Unix socket, or TCP to 127.0.0.1 / ::1: FamilyLocal (256) with this host's name;
 *  - TCP to any other address: FamilyInternet (0) with its 4 address bytes, or
 *    FamilyInternet6 (6) with 16 (a v4-mapped v6 address counts as v4);
 *  - FamilyWild (65535) entries match any peer.
 * The display number must equal the entry's, unless the entry's is empty. The first
 * matching MIT-MAGIC-COOKIE-1 entry in file order wins; no match sends no cookie (the
 * server then decides, as it does for Xlib).
 */
import { readFileSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';

export const FAMILY = { Internet: 0, Internet6: 6, Local: 256, Wild: 65535 } as const;
export const MIT_MAGIC_COOKIE = 'MIT-MAGIC-COOKIE-1';

export interface XauthEntry {
  family: number;
  address: Buffer;
  number: string;
  name: string;
  data: Buffer;
}

/** Whom a connection reached, as X authorization names it. */
export interface AuthPeer {
  family: number;
  address: Buffer;
}

/** Every whole entry of an Xauthority file's bytes; a truncated last entry is left out (XauReadAuth stops there too). */
export function parseXauthority(bytes: Buffer): XauthEntry[] {
  const entries: XauthEntry[] = [];
  for (let read = readEntry(bytes, 0); read; read = readEntry(bytes, read.next)) entries.push(read.entry);
  return entries;
}

/** The smallest entry: a family and four empty counted fields. */
const MIN_ENTRY_BYTES = 10;

/** The entry at `at` and where the next one begins, or undefined when the bytes end before it does. */
function readEntry(bytes: Buffer, at: number): { entry: XauthEntry; next: number } | undefined {
  if (at + MIN_ENTRY_BYTES > bytes.length) return undefined;
  const family = bytes.readUInt16BE(at);
  let next = at + 2;
  const fields: Buffer[] = [];
  for (let i = 0; i < 4; i++) {
    if (next + 2 > bytes.length) return undefined;
    const end = next + 2 + bytes.readUInt16BE(next);
    if (end > bytes.length) return undefined;
    fields.push(bytes.subarray(next + 2, end));
    next = end;
  }
  const [address, number, name, data] = fields as [Buffer, Buffer, Buffer, Buffer];
  return { entry: { family, address, number: number.toString('latin1'), name: name.toString('latin1'), data }, next };
}

/** The bytes of `entries` as an Xauthority file holds them. */
export function encodeXauthority(entries: readonly XauthEntry[]): Buffer {
  const field = (value: Buffer) => {
    const head = Buffer.alloc(2);
    head.writeUInt16BE(value.length, 0);
    return [head, value];
  };
  return Buffer.concat(
    entries.flatMap((e) => {
      const family = Buffer.alloc(2);
      family.writeUInt16BE(e.family, 0);
      return [family, ...field(e.address), ...field(Buffer.from(e.number, 'latin1')), ...field(Buffer.from(e.name, 'latin1')), ...field(e.data)];
    }),
  );
}

/**
 * The peer as libxcb names it for authorization: `remoteAddress` is the socket's peer
 * address (undefined for a Unix socket). Loopback (exactly 127.0.0.1 or ::1, as libxcb
 * checks) and Unix sockets are this host: FamilyLocal with its name.
 */
export function authPeer(remoteAddress: string | undefined, localName = hostname()): AuthPeer {
  const local = { family: FAMILY.Local, address: Buffer.from(localName) };
  if (!remoteAddress) return local;
  const mapped = remoteAddress.toLowerCase().startsWith(V4_MAPPED) ? remoteAddress.slice(V4_MAPPED.length) : '';
  const v4 = isIPv4(mapped) ? mapped : remoteAddress;
  if (isIPv4(v4)) {
    if (v4 === '127.0.0.1') return local;
    return { family: FAMILY.Internet, address: Buffer.from(v4.split('.').map(Number)) };
  }
  if (!isIPv6(remoteAddress)) throw new Error(`not an IP address: "${remoteAddress}"`);
  const bytes = ipv6Bytes(remoteAddress);
  if (bytes.equals(IPV6_LOOPBACK)) return local;
  return { family: FAMILY.Internet6, address: bytes };
}

/** An IPv4 address inside IPv6 ("::ffff:10.1.2.3"): libxcb treats it as the IPv4 address. */
const V4_MAPPED = '::ffff:';
const IPV6_LOOPBACK = Buffer.from([...Array<number>(15).fill(0), 1]);

/** The 16 bytes of an IPv6 address in hex groups ("fe80::1", "::1"; a zone "%eth0" is dropped). */
function ipv6Bytes(address: string): Buffer {
  const [head, tail] = address.replace(/%.*$/, '').split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // No "::": 8 groups, nothing to fill.
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return Buffer.from(groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]));
}

/** True when `entry` is one Xlib would send to `peer` for display `displayNumber`. */
export function entryMatches(entry: XauthEntry, peer: AuthPeer, displayNumber: number): boolean {
  const host = entry.family === FAMILY.Wild || (entry.family === peer.family && entry.address.equals(peer.address));
  const number = entry.number === '' || entry.number === String(displayNumber);
  return host && number && entry.name === MIT_MAGIC_COOKIE;
}

/** The file Xlib reads: XAUTHORITY, else ~/.Xauthority. */
export function defaultXauthorityFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.XAUTHORITY || join(homedir(), '.Xauthority');
}

/** The MIT-MAGIC-COOKIE-1 Xlib would send to `peer` for `displayNumber`, or undefined (no file, no matching entry). */
export function cookieFor(peer: AuthPeer, displayNumber: number, file = defaultXauthorityFile()): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  return parseXauthority(bytes).find((e) => entryMatches(e, peer, displayNumber))?.data;
}
