/**
 * Real X applications at known geometry, and the X server's own view of which keys
 * and mouse buttons are held (for "nothing left held" tests).
 *
 * Held state comes from `xinput query-state` on the server's slave devices: the XTEST
 * devices receive everything injected through XTest (nut.js/libnut and xdotool both
 * inject that way), the Xvfb devices anything else. The master devices cannot be
 * queried this way, so we take the union of the slaves.
 * Needs the Debian package `xinput`.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { requireCoreFonts, requireFonts, requirePrograms } from './requirements.js';
import type { Xvfb } from './xvfb.js';

export interface Geometry {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface NativeApp {
  /** X window id (decimal, as xdotool prints it). */
  windowId: string;
  pid: number;
  /** The client area's measured screen geometry now (the WM frame shifts it from the asked position). */
  geometry(): Geometry;
  stop(): Promise<void>;
}

function run(env: NodeJS.ProcessEnv, cmd: string, args: string[], timeoutMs = 15_000): string {
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', timeout: timeoutMs });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout.trim();
}

/** Any X application: started with xvfb.env (+ env), resolved once a window matching `search` (xdotool search args) is visible. */
export async function startApp(xvfb: Xvfb, cmd: string, args: string[], search: string[], env: NodeJS.ProcessEnv = {}): Promise<NativeApp> {
  const child: ChildProcess = spawn(cmd, args, { env: { ...xvfb.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', kill);
  let windowId: string;
  try {
    // --sync waits until such a window is mapped (visible); generous on a loaded machine.
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`${cmd} exited (${code}) before its window appeared: ${stderr.slice(-300)}`))),
    );
    // xdotool search dies with BadWindow when some other window disappears while it walks
    // the tree (an app of the previous test closing): search again then.
    const searchOnce = () =>
      new Promise<string>((resolve, reject) => {
        execFile('xdotool', ['search', '--sync', '--onlyvisible', ...search], { env: xvfb.env, timeout: 45_000 }, (err, stdout) => {
          if (err) reject(new Error(`no ${cmd} window within 45 s: ${err.message}`));
          else resolve(stdout.trim().split('\n')[0]!);
        });
      });
    const found = (async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await searchOnce();
        } catch (err) {
          if (attempt >= 5 || !/BadWindow/.test(String(err))) throw err;
        }
      }
    })();
    windowId = await Promise.race([found, exited]);
  } catch (err) {
    kill();
    throw err;
  }
  return {
    windowId,
    pid: child.pid!,
    geometry: () => windowGeometry(xvfb, windowId),
    async stop() {
      process.removeListener('exit', kill);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 2_000))]);
      kill();
    },
  };
}

/**
 * xcalc with its window at `g` (X geometry of the client area; the WM adds its frame
 * around it). It draws with core fonts: without xfonts-base it would render in the
 * built-in font, so that is refused unless the test asks for it (`builtInFontsOnPurpose`:
 * an Xvfb started with fontPath "built-ins" to see what such a machine shows).
 */
export async function startXcalc(
  xvfb: Xvfb,
  g: Geometry = { x: 100, y: 100, width: 240, height: 320 },
  options: { builtInFontsOnPurpose?: boolean } = {},
): Promise<NativeApp> {
  requirePrograms(['xcalc', 'xdotool'], xvfb.env);
  if (!(options.builtInFontsOnPurpose && xvfb.fontPath === 'built-ins')) requireCoreFonts(xvfb);
  return startApp(xvfb, 'xcalc', ['-geometry', `${g.width}x${g.height}+${g.x}+${g.y}`], ['--class', 'xcalc']);
}

let xtermCounter = 0;
/** xterm at `g` in pixels-ish (xterm geometry is in character cells: cols×rows). */
export async function startXterm(
  xvfb: Xvfb,
  options: { cols?: number; rows?: number; x?: number; y?: number; command?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<NativeApp> {
  requirePrograms(['xterm', 'xdotool'], xvfb.env);
  requireFonts(['DejaVu Sans Mono'], xvfb.env); // -fa Monospace
  const title = `deskpilot-xterm-${process.pid}-${xtermCounter++}`;
  const args = [
    '-geometry', `${options.cols ?? 80}x${options.rows ?? 24}+${options.x ?? 100}+${options.y ?? 100}`,
    '-title', title,
    '-fa', 'Monospace', '-fs', '11',
    // UTF-8 in and out, so non-ASCII text reaches the program inside exactly.
    '-u8',
    ...(options.command ? ['-e', ...options.command] : []),
  ];
  return startApp(xvfb, 'xterm', args, ['--name', title], { LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8', ...options.env });
}

/** Where a window is on screen right now (client area, as xdotool reports it). */
export function windowGeometry(xvfb: Xvfb, windowId: string): Geometry {
  const out = run(xvfb.env, 'xdotool', ['getwindowgeometry', '--shell', windowId]);
  const v = (k: string) => Number(new RegExp(`^${k}=(-?\\d+)`, 'm').exec(out)?.[1] ?? NaN);
  return { x: v('X'), y: v('Y'), width: v('WIDTH'), height: v('HEIGHT') };
}

export interface HeldState {
  /** Keysym names (first keysym of each held keycode), e.g. "Shift_L". */
  keys: string[];
  keycodes: number[];
  /** X button numbers held (1 left, 2 middle, 3 right, 8 back, 9 forward). */
  buttons: number[];
}

const SLAVES = ['Virtual core XTEST keyboard', 'Virtual core XTEST pointer', 'Xvfb keyboard', 'Xvfb mouse'];

function keycodeNames(env: NodeJS.ProcessEnv): Map<number, string> {
  const map = new Map<number, string>();
  for (const line of run(env, 'xmodmap', ['-pke']).split('\n')) {
    const m = /^keycode\s+(\d+)\s*=\s*(\S+)?/.exec(line);
    if (m) map.set(Number(m[1]), m[2] ?? `keycode${m[1]}`);
  }
  return map;
}

/** The keys and buttons the X server considers held right now. */
export function heldState(xvfb: Xvfb): HeldState {
  requirePrograms(['xinput', 'xmodmap'], xvfb.env);
  const keycodes = new Set<number>();
  const buttons = new Set<number>();
  for (const device of SLAVES) {
    const r = spawnSync('xinput', ['query-state', device], { env: xvfb.env, encoding: 'utf8' });
    if (r.status !== 0) {
      if (/unable to find device/.test(r.stderr)) continue;
      throw new Error(`xinput query-state ${device} failed: ${r.stderr}`);
    }
    for (const m of r.stdout.matchAll(/key\[(\d+)\]=down/g)) keycodes.add(Number(m[1]));
    for (const m of r.stdout.matchAll(/button\[(\d+)\]=down/g)) buttons.add(Number(m[1]));
  }
  const names = keycodes.size ? keycodeNames(xvfb.env) : new Map<number, string>();
  const codes = [...keycodes].sort((a, b) => a - b);
  return { keycodes: codes, keys: codes.map((c) => names.get(c) ?? `keycode${c}`), buttons: [...buttons].sort((a, b) => a - b) };
}

/** Pointer position as the X server sees it. */
export function pointerPosition(xvfb: Xvfb): { x: number; y: number } {
  const out = run(xvfb.env, 'xdotool', ['getmouselocation', '--shell']);
  return { x: Number(/^X=(\d+)/m.exec(out)?.[1]), y: Number(/^Y=(\d+)/m.exec(out)?.[1]) };
}

/**
 * A GTK 3 text editor (mousepad or gedit) editing `file`, which must exist (an existing
 * file saves with ctrl+s, no Save As dialog). GSETTINGS_BACKEND=memory: the editors'
 * defaults, nothing read from or written to the user's dconf.
 */
export function startEditor(xvfb: Xvfb, editor: 'mousepad' | 'gedit', file: string): Promise<NativeApp> {
  const args = editor === 'gedit' ? ['--standalone', file] : [file];
  return startApp(xvfb, editor, args, ['--class', editor], { GSETTINGS_BACKEND: 'memory', NO_AT_BRIDGE: '1', LC_ALL: 'C.UTF-8' });
}

/** Two busy-looping processes (a 2-core machine under full load) until the returned stop() is called. */
export function startCpuLoad(count = 2): () => void {
  const children = Array.from({ length: count }, () => spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
  const stop = () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  };
  process.once('exit', stop);
  return () => {
    process.removeListener('exit', stop);
    stop();
  };
}

/** Sets the X keyboard layout of this server (`setxkbmap de`); "us" to go back. */
export function setLayout(xvfb: Xvfb, layout: string): void {
  run(xvfb.env, 'setxkbmap', ['-layout', layout]);
}

/** The server's whole keyboard mapping as `xmodmap -pke` prints it. */
export function keymapText(xvfb: Xvfb): string {
  return run(xvfb.env, 'xmodmap', ['-pke']);
}

/**
 * The window that has the X input focus (decimal id, as xdotool prints it), or
 * "pointer-root" / "none" while the focus is not on a window. xdotool fails then ("the
 * focused window of 1"): a poll that waits for a window to take the focus read that
 * failure as an error (one clean-clone CI run), though it only means "not yet".
 */
export function focusedWindow(xvfb: Xvfb): string {
  const r = spawnSync('xdotool', ['getwindowfocus'], { env: xvfb.env, encoding: 'utf8', timeout: 10_000 });
  if (r.error) throw r.error;
  if (r.status === 0) return r.stdout.trim();
  const special = /returned the focused window of ([01])\b/.exec(r.stderr);
  if (special) return special[1] === '1' ? 'pointer-root' : 'none';
  throw new Error(`xdotool getwindowfocus failed (${r.status}): ${r.stderr}`);
}

/**
 * A GTK app for the accessibility tests, on the bus of `xvfb.env` (startAccessibilityBus).
 * GSETTINGS_BACKEND=memory: defaults, nothing read from or written to the user's dconf.
 */
export function startGtkApp(xvfb: Xvfb, app: 'gtk3-widget-factory' | 'gtk3-demo' | 'gnome-calculator' | 'mousepad', args: string[] = []): Promise<NativeApp> {
  requirePrograms([app, 'xdotool'], xvfb.env);
  const search: Record<typeof app, string[]> = {
    'gtk3-widget-factory': ['--class', 'gtk3-widget-factory'],
    // One demo at a time (`--run=entry_buffer`: a plain entry and a password entry).
    'gtk3-demo': ['--class', 'gtk3-demo'],
    'gnome-calculator': ['--name', '^Calculator$'],
    mousepad: ['--class', 'mousepad'],
  };
  return startApp(xvfb, app, args, search[app], { GSETTINGS_BACKEND: 'memory', LC_ALL: 'C.UTF-8' });
}
