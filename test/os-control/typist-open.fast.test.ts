/**
 * X11Typist.open on a server it cannot type on: a fake X server (a real socket) that
 * answers QueryExtension "XTEST" with "not present". The typist must refuse in words and
 * close the connection it opened (before, open's failure path was never run: issue 27.14's
 * gaps "a server without XTEST" and "open's conn.close() on failure"). And a server where the
 * leftovers of an ended DeskPilot cannot be read (an X error): said in words, the typist opens.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { X11Typist } from '../../src/os-control/x11/typist.js';
import { shortReply, startFakeXServer, type FakeXServer, type XRequestSeen } from './fake-x-server.js';

/** QueryExtension (core request 98): the name asked, from its body (length at 0, the name from byte 4). */
const extensionName = (request: XRequestSeen) => request.body.subarray(4, 4 + request.body.readUInt16LE(0)).toString('latin1');

let server: FakeXServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('opening a typist on an X server without XTEST', () => {
  it('refuses in words, having asked for XTEST, and closes its connection', async () => {
    const asked: string[] = [];
    server = await startFakeXServer('127.0.0.1', {
      answerSetup: true,
      answer: (request) => {
        if (request.major !== 98) return undefined;
        asked.push(extensionName(request));
        return shortReply(request, [0, 0, 0, 0]); // present: false
      },
    });
    // A request the fake leaves unanswered fails at this limit, not at the default 5 s.
    await expect(X11Typist.open(server.display, { requestTimeoutMs: 2_000 })).rejects.toThrow(/^the X server has no XTEST extension$/);
    expect(asked).toEqual(['XTEST']);
    // The connection the typist opened is closed, not left to the process's end.
    await server.closedSeen(1);
  });
});

describe('opening a typist where an ended DeskPilot left a record it cannot read', () => {
  it('says so in words and opens all the same (typing goes on; the record stays for the next typist)', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      server = await startFakeXServer('127.0.0.1', {
        answerSetup: true,
        answer: (request) => {
          // QueryExtension: XTEST present at 130, nothing else (no RECORD, no X-Resource).
          if (request.major === 98) return shortReply(request, extensionName(request) === 'XTEST' ? [1, 130, 0, 0] : [0, 0, 0, 0]);
          // InternAtom (the typist's own record name): atom 300.
          if (request.major === 16) return shortReply(request, [44, 1, 0, 0]);
          // ListProperties of the root (restoreLeftovers' first read): BadWindow.
          if (request.major === 21) return xError(request, 3);
          return undefined;
        },
      });
      const typist = await X11Typist.open(server.display, { requestTimeoutMs: 2_000 });
      try {
        expect(typist.isOpen).toBe(true);
        const said = errors.mock.calls.map((c) => String(c[0]));
        expect(said).toEqual([expect.stringMatching(/^deskpilot: could not restore spare keycodes left by an ended DeskPilot process \(X error 3 \(request 21\.0, value 0\)\)$/)]);
      } finally {
        await typist.close();
      }
    } finally {
      errors.mockRestore();
    }
  });
});

/** An X error for `request`: code 0, the error code, its sequence number, its major opcode at byte 10. */
function xError(request: XRequestSeen, code: number): Buffer {
  const error = Buffer.alloc(32);
  error[1] = code;
  error.writeUInt16LE(request.sequence, 2);
  error[10] = request.major;
  return error;
}
