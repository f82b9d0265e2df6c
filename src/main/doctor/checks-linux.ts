import type { CheckOutcome, DoctorCheck, DoctorProbes } from './types.js';

/**
 * The Linux (X11) prerequisites. Fix texts name the Debian/Ubuntu package, which is
 * what .ci/run installs; other distributions use the same package names for these.
 */

const apt = (...packages: string[]) => `sudo apt-get install ${packages.join(' ')}`;

const linuxOnly = (id: string): CheckOutcome => ({ id, status: 'skip', detail: 'not needed on this OS' });

/** ":1", ":1.0", "unix/:1" → the local socket /tmp/.X11-unix/X1; a remote display (host:1) → undefined. */
export function localDisplaySocket(display: string): string | undefined {
  const m = /^(?:unix\/)?:(\d+)(?:\.\d+)?$/.exec(display.trim());
  return m ? `/tmp/.X11-unix/X${m[1]}` : undefined;
}

/** 1. An X display this process can talk to (nut.js aborts the whole process without one). */
export const displayCheck: DoctorCheck = {
  id: 'display',
  required: true,
  async run(p) {
    if (p.platform !== 'linux') return linuxOnly('display');
    const display = p.env.DISPLAY?.trim();
    if (!display) {
      return {
        id: 'display',
        status: 'fail',
        detail: p.env.WAYLAND_DISPLAY ? 'Wayland session without DISPLAY (no XWayland)' : 'DISPLAY is not set',
        fix: p.env.WAYLAND_DISPLAY
          ? 'run DeskPilot in an X11 session, or enable XWayland so DISPLAY is set'
          : 'run inside a desktop session, or start a virtual one: Xvfb :99 & export DISPLAY=:99',
      };
    }
    // xset ships with xrandr (x11-xserver-utils); it is the cheapest "does the server answer".
    if (await p.which('xset')) {
      const r = await p.run('xset', ['q'], 5_000);
      if (r.code === 0) return { id: 'display', status: 'ok', detail: `X display ${display} answers` };
      return {
        id: 'display',
        status: 'fail',
        detail: `X display ${display} does not answer: ${firstLine(r.stderr) || `xset exited ${r.code}`}`,
        fix: 'check DISPLAY and XAUTHORITY (xhost/xauth), or start the X server',
      };
    }
    const socket = localDisplaySocket(display);
    if (socket && (await p.unixConnect(socket, 2_000))) return { id: 'display', status: 'ok', detail: `X display ${display} accepts connections` };
    if (!socket) return { id: 'display', status: 'warn', detail: `remote display ${display} not probed (no xset)`, fix: apt('x11-xserver-utils') };
    return { id: 'display', status: 'fail', detail: `nothing listens on ${socket} (DISPLAY=${display})`, fix: 'start the X server, or set DISPLAY to a running one' };
  },
};

/** A required command-line tool: present on PATH, and (optionally) answering. */
function toolCheck(id: string, command: string, pkg: string, why: string, probe?: readonly string[]): DoctorCheck {
  return {
    id,
    required: true,
    async run(p) {
      if (p.platform !== 'linux') return linuxOnly(id);
      const where = await p.which(command);
      if (!where) return { id, status: 'fail', detail: `${command} not found on PATH (${why})`, fix: apt(pkg) };
      if (probe && p.env.DISPLAY?.trim()) {
        const r = await p.run(command, probe, 5_000);
        if (r.code !== 0) {
          return { id, status: 'fail', detail: `${command} ${probe.join(' ')} failed: ${firstLine(r.stderr) || `exit ${r.code}`}`, fix: 'see the display check; the X server must answer' };
        }
      }
      return { id, status: 'ok', detail: `${where}` };
    },
  };
}

/** 2. Display layout and scale. */
export const xrandrCheck = toolCheck('xrandr', 'xrandr', 'x11-xserver-utils', 'display detection', ['--query']);
/** 3. Window detection and exact typing of characters outside the keymap. */
export const xdotoolCheck = toolCheck('xdotool', 'xdotool', 'xdotool', 'window detection and Unicode typing');

/** 4. The clipboard tool typing falls back to: either one will do. */
export const clipboardCheck: DoctorCheck = {
  id: 'clipboard',
  required: true,
  async run(p) {
    if (p.platform !== 'linux') return linuxOnly('clipboard');
    const found = [];
    for (const tool of ['xclip', 'xsel']) if (await p.which(tool)) found.push(tool);
    if (found.length) return { id: 'clipboard', status: 'ok', detail: found.join(' and ') };
    return { id: 'clipboard', status: 'fail', detail: 'neither xclip nor xsel is on PATH (exact typing of text outside the keymap)', fix: apt('xclip') };
  },
};

/**
 * 5. Fonts. With no fontconfig fonts, GTK/Qt apps draw boxes; with only the X server's
 * built-in core fonts ("fixed" and "cursor", no xfonts-base), core-font apps such as
 * xcalc and xterm draw in a different font and OCR misreads them (CI read "5" as "9)").
 */
/** How long fc-list may take: a warm cache answers in ~0.2 s, a first run that rebuilds one took over 10 s at load ~34. */
const FC_LIST_MS = 30_000;

export const fontsCheck: DoctorCheck = {
  id: 'fonts',
  required: true,
  async run(p) {
    if (p.platform !== 'linux') return linuxOnly('fonts');
    if (!(await p.which('fc-list'))) return { id: 'fonts', status: 'fail', detail: 'fc-list not found: no fontconfig', fix: apt('fontconfig', 'fonts-dejavu-core') };
    const listed = await p.run('fc-list', [':', 'family'], FC_LIST_MS);
    // No answer is not "no fonts": the first fc-list after fonts are installed may rebuild a cache
    // (the clean-root CI's did, 167 KB for the CJK fonts, and passed 10 s at load ~34, niced).
    if (listed.code === null) return { id: 'fonts', status: 'warn', detail: `fc-list did not answer within ${FC_LIST_MS / 1000} s: fonts not checked`, fix: 'run fc-cache once (it builds the font cache), then deskpilot doctor again' };
    const families = listed.stdout.split('\n').filter((l) => l.trim()).length;
    if (families === 0) return { id: 'fonts', status: 'fail', detail: 'fontconfig lists no fonts: apps will draw empty boxes', fix: apt('fonts-dejavu-core') };
    const core = await coreFontCount(p);
    if (core === undefined) return { id: 'fonts', status: 'ok', detail: `${families} fontconfig fonts (X core fonts not checked: no display or no xlsfonts)` };
    if (core <= BUILT_IN_CORE_FONTS) {
      return {
        id: 'fonts',
        status: 'warn',
        detail: `${families} fontconfig fonts, but the X server has only its built-in core fonts: xcalc, xterm and other core-font apps render differently and read worse`,
        fix: `${apt('xfonts-base')}, then restart the X server`,
      };
    }
    return { id: 'fonts', status: 'ok', detail: `${families} fontconfig fonts, ${core} X core fonts` };
  },
};

/**
 * `Xvfb -fp built-ins` lists 6 core fonts ("cursor", "fixed", its "6x13" alias and
 * three semicondensed names); with xfonts-base the server lists thousands.
 */
export const BUILT_IN_CORE_FONTS = 10;

async function coreFontCount(p: DoctorProbes): Promise<number | undefined> {
  if (!p.env.DISPLAY?.trim() || !(await p.which('xlsfonts'))) return undefined;
  const r = await p.run('xlsfonts', [], 10_000);
  return r.code === 0 ? r.stdout.split('\n').filter((l) => l.trim()).length : undefined;
}

/**
 * 6. The accessibility bus (warn only: reading apps through their accessibility tree is
 * an extra, OCR works without it). GTK apps publish their tree on the AT-SPI bus, whose
 * address the session bus hands out.
 */
export const accessibilityBusCheck: DoctorCheck = {
  id: 'accessibility-bus',
  required: false,
  async run(p) {
    if (p.platform !== 'linux') return linuxOnly('accessibility-bus');
    const fix = `${apt('at-spi2-core', 'dbus-x11')}; run the desktop inside a D-Bus session (dbus-run-session, or dbus-launch)`;
    if (!p.env.DBUS_SESSION_BUS_ADDRESS?.trim()) return { id: 'accessibility-bus', status: 'warn', detail: 'no session bus (DBUS_SESSION_BUS_ADDRESS is not set)', fix };
    if (!(await p.which('dbus-send'))) return { id: 'accessibility-bus', status: 'warn', detail: 'dbus-send not found, bus not probed', fix: apt('dbus-bin') };
    const session = await p.run('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.GetId'], 5_000);
    if (session.code !== 0) return { id: 'accessibility-bus', status: 'warn', detail: `the session bus does not answer: ${firstLine(session.stderr)}`, fix };
    const a11y = await p.run('dbus-send', ['--session', '--print-reply', '--dest=org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus.GetAddress'], 5_000);
    const address = /string "([^"]+)"/.exec(a11y.stdout)?.[1];
    if (a11y.code !== 0 || !address) return { id: 'accessibility-bus', status: 'warn', detail: `session bus answers, the accessibility bus does not: ${firstLine(a11y.stderr) || 'no address'}`, fix };
    return { id: 'accessibility-bus', status: 'ok', detail: `session bus and accessibility bus (${address.split(',')[0]})` };
  },
};

/**
 * 7. Which windows publish a tree (warn only, like the bus): an app started before the
 * bus, or with NO_AT_BRIDGE=1 / GTK_A11Y=none, or a Chromium without
 * --force-renderer-accessibility, is missing here while its window is on screen.
 */
export const accessibleWindowsCheck: DoctorCheck = {
  id: 'accessible-windows',
  required: false,
  async run(p) {
    const id = 'accessible-windows';
    if (p.platform !== 'linux') return linuxOnly(id);
    const r = await p.accessibleWindows();
    const fix = 'start the apps after the accessibility bus runs; Chromium/Electron apps need --force-renderer-accessibility; Qt apps QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1';
    if (r.kind === 'none') return { id, status: 'warn', detail: `no window exposes an accessibility tree (${r.reason}: ${r.detail})`, fix };
    const names = r.windows.map((w) => `${w.app} ${JSON.stringify(w.root.name)}`);
    const shown = names.slice(0, 8).join(', ') + (names.length > 8 ? `, … (${names.length - 8} more)` : '');
    return { id, status: 'ok', detail: `${names.length === 1 ? '1 window exposes' : `${names.length} windows expose`} a tree: ${shown}` };
  },
};

export function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
}
