/**
 * The X windows with a given title, read over our own X connection (connection.ts): for
 * each, its classes (WM_CLASS), size and absolute position on the root window — what
 * `xwininfo -root -tree` printed, without starting a process, over the display's session
 * (session.ts: the connection kept, the atoms looked up once) (that process cost ~150 of
 * the 322 ms a gnome-calculator tree read took at load 18 on 2 cores; bench/accessibility).
 *
 * Every level of the window tree is asked for in one batch (QueryTree of all windows of
 * a level, then every title at once): requests are pipelined on the socket, so the walk
 * is a few round trips, not one per window. Window managers reparent clients into frames,
 * so the walk goes MAX_DEPTH levels down (root → frame → client → GTK's inner windows).
 *
 * Protocol: X11 core requests QueryTree (15), InternAtom (16), GetProperty (20),
 * GetGeometry (14), TranslateCoordinates (40); little-endian, as connection.ts speaks.
 */
import type { X11Connection } from './connection.js';
import { ATOM, gone, property, queryTree, u32 } from './properties.js';
import { x11Session, type X11Session } from './session.js';
import { readTitle } from './window-title.js';

export interface TitledWindow {
  id: number;
  title: string;
  classes: string[];
  width: number;
  height: number;
  /** Absolute position of the window's inside on the root window. */
  x: number;
  y: number;
}

const MAX_DEPTH = 4;

const children = async (conn: X11Connection, window: number): Promise<number[]> => (await queryTree(conn, window)).children;


/** Each half — the connect, the walk — may take 2 s (a walk is a few round trips of ~1 ms); `signal` stops waiting. */
export function windowsTitled(title: string, display: string, signal?: AbortSignal): Promise<TitledWindow[]> {
  const session = x11Session(display);
  return session.ask(`the windows titled ${JSON.stringify(title)}`, (conn) => walkForTitle(conn, session, title), { timeoutMs: 2_000, ...(signal ? { signal } : {}) });
}

async function walkForTitle(conn: X11Connection, session: X11Session, title: string): Promise<TitledWindow[]> {
  const [netWmName, utf8] = await Promise.all([session.atom(conn, '_NET_WM_NAME'), session.atom(conn, 'UTF8_STRING')]);
  const all: number[] = [];
  let level = [conn.setup.root];
  for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
    level = (await Promise.all(level.map((w) => children(conn, w).catch(gone([]))))).flat();
    all.push(...level);
  }
  const titles = await Promise.all(
    all.map((w) => readTitle(conn, w, { netWmName, utf8 }).catch(gone(undefined))),
  );
  const named = all.filter((_, i) => titles[i] === title);
  const out = await Promise.all(
    named.map(async (id): Promise<TitledWindow | undefined> => {
      try {
        const [cls, geometry, where] = await Promise.all([
          property(conn, id, ATOM.WM_CLASS, ATOM.STRING),
          conn.request(14, 0, u32(id)),
          conn.request(40, 0, Buffer.concat([u32(id, conn.setup.root), Buffer.alloc(4)])),
        ]);
        return {
          id,
          title,
          classes: cls ? cls.toString('latin1').split('\0').filter(Boolean) : [],
          width: geometry.readUInt16LE(16),
          height: geometry.readUInt16LE(18),
          x: where.readInt16LE(12),
          y: where.readInt16LE(14),
        };
      } catch {
        return undefined; // closed while we asked
      }
    }),
  );
  return out.filter((w): w is TitledWindow => w !== undefined);
}
