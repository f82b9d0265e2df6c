/**
 * X11Typist.open on a server it cannot type on: a fake X server (a real socket) that
 * answers QueryExtension "XTEST" with "not present". The typist must refuse in words and
 * close the connection it opened (before, open's failure path was never run: issue 27.14's
 * gaps "a server without XTEST" and "open's conn.close() on failure").
 */
import { afterEach, describe, expect, it } from 'vitest';
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
