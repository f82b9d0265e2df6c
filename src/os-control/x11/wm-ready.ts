/**
 * A freshly started window manager is ready when it answers from its event loop, not when
 * it has named itself. openbox sets _NET_SUPPORTING_WM_CHECK early in its start-up; a
 * window mapped right then was never managed — its MapRequest lost, the window never shown,
 * openbox idle (4 of 12 new displays at load ~6 with two busy loops, 12-05; a QA worker's
 * app window would then never appear). Proof of the loop: an EWMH _NET_REQUEST_FRAME_EXTENTS
 * about a private window of ours, answered by setting _NET_FRAME_EXTENTS on it (the round
 * trip x11/press-passed.ts uses per click). A request sent during start-up may be lost the
 * same way, so it is sent again every RESEND_MS until one is answered.
 */
import { abortError } from '../../shared/abort.js';
import { X11Connection, type OpenOptions } from './connection.js';
import { askWindowManager, createPrivateWindow } from './private-window.js';
import { internAtom } from './properties.js';

const PROPERTY_NOTIFY = 28;
const PROPERTY_CHANGE = 1 << 22;
/** openbox answers in ~1-5 ms once running; a request lost in its start-up is asked again after this. */
const RESEND_MS = 250;

/**
 * Resolves once the window manager on `display` answered a frame-extents request; rejects
 * after `limitMs`, on abort, or when the server lacks the atoms (no EWMH window manager
 * ever ran there). Opens and closes a connection of its own.
 */
export async function windowManagerAnswers(display: string, options: OpenOptions & { limitMs: number }): Promise<void> {
  const { limitMs, ...open } = options;
  const conn = await X11Connection.open(display, open);
  try {
    const [request, extents] = await Promise.all([internAtom(conn, '_NET_REQUEST_FRAME_EXTENTS'), internAtom(conn, '_NET_FRAME_EXTENTS')]);
    if (!request || !extents) throw new Error(`the window manager on ${display} does not speak EWMH (no _NET_REQUEST_FRAME_EXTENTS)`);
    const window = createPrivateWindow(conn, PROPERTY_CHANGE);
    const ask = () => askWindowManager(conn, window, request);
    await new Promise<void>((resolve, reject) => {
      let done = false;
      const end = (error?: Error) => {
        if (done) return; // the close in `finally` tells its listener too
        done = true;
        clearInterval(resend);
        clearTimeout(limit);
        options.signal?.removeEventListener('abort', onAbort);
        stopEvents();
        if (error) reject(error);
        else resolve();
      };
      const onAbort = () => end(abortError(options.signal));
      const stopEvents = conn.onEvent((event) => {
        if ((event[0]! & 0x7f) === PROPERTY_NOTIFY && event.readUInt32LE(4) === window && event.readUInt32LE(8) === extents) end();
      });
      conn.onClose(() => end(new Error(`the X connection to ${display} closed while waiting for its window manager`)));
      const resend = setInterval(ask, RESEND_MS);
      const limit = setTimeout(() => end(new Error(`the window manager on ${display} did not answer within ${limitMs / 1000} s`)), limitMs);
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      ask();
    });
  } finally {
    conn.close();
  }
}
