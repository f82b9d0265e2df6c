/**
 * What the desktop tests need from the machine, checked before a test uses it: a
 * missing program or font fails with "missing package X (add it to .ci/run)" instead
 * of a wrong pixel later. (A fresh CI machine without xfonts-base had Xvfb draw xcalc
 * in its built-in font; OCR then read "5" as "9)" and clicks missed keys — 4 tests
 * failed with messages about pixels, none about the package.)
 *
 * Every package named here must be in .ci/run's APT_PACKAGES (test/harness/requirements.desktop.test.ts
 * checks that), so "add it to .ci/run" is always the true fix.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';

/** Program → the Debian package that provides it. */
export const PROGRAM_PACKAGES = {
  Xvfb: 'xvfb',
  openbox: 'openbox',
  xdotool: 'xdotool',
  xinput: 'xinput',
  xprop: 'x11-utils',
  xdpyinfo: 'x11-utils',
  xlsfonts: 'x11-utils',
  xset: 'x11-xserver-utils',
  xrandr: 'x11-xserver-utils',
  xmodmap: 'x11-xserver-utils',
  xcalc: 'x11-apps',
  xterm: 'xterm',
  chromium: 'chromium',
  xclip: 'xclip',
  xsel: 'xsel',
  convert: 'imagemagick',
  scrot: 'scrot',
  'fc-list': 'fontconfig',
  mousepad: 'mousepad',
  gedit: 'gedit',
  thunar: 'thunar',
  'gnome-calculator': 'gnome-calculator',
  'gtk3-widget-factory': 'gtk-3-examples',
  'gtk3-demo': 'gtk-3-examples',
  'dbus-launch': 'dbus-x11',
  '/usr/libexec/at-spi-bus-launcher': 'at-spi2-core',
  'dbus-send': 'dbus-x11',
  'dbus-daemon': 'dbus-x11',
  xwininfo: 'x11-utils',
  xev: 'x11-utils',
  xrdb: 'x11-xserver-utils',
  xsetroot: 'x11-xserver-utils',
  xauth: 'xauth',
  import: 'imagemagick',
  setxkbmap: 'x11-xkb-utils',
  '/usr/bin/chromium': 'chromium',
  // The TLS test makes its own certificate (c12-serve-remote); not in Debian's minbase.
  openssl: 'openssl',
  // Process checks in tests (a child's children, a server killed mid-run): procps is not in minbase.
  ps: 'procps',
  pgrep: 'procps',
  // The sandbox (src/main/sandbox): bubblewrap runs every sandboxed command; its tests
  // run a child interpreter inside it and make an unprivileged user to run as.
  bwrap: 'bubblewrap',
  '/usr/bin/python3': 'python3',
  // The code harness's persistent Python session (agent/harness/code/session.ts).
  python3: 'python3',
  useradd: 'passwd',
  userdel: 'passwd',
  'xvfb-run': 'xvfb',
  // The clean-clone and packaging tests clone the repository (test/packaging/clean-clone.ts).
  git: 'git',
  // deskpilot eval's `open` setup step (eval/run/setup-steps.ts) opens a file the way a person would.
  'xdg-open': 'xdg-utils',
  // …and xdg-mime tells the file's type with /usr/bin/file (no perl `mimetype` in a minimal Debian):
  // without it the fresh root's xdg-open found no app for notes.txt (setup-steps.desktop).
  '/usr/bin/file': 'file',
} as const;
export type Program = keyof typeof PROGRAM_PACKAGES;

/**
 * Python module → the Debian package that provides it for /usr/bin/python3. Tkinter is
 * not in the python3 package: in the Debian root of bench/clean-root-ci.sh (no python3-tk)
 * the red-square window's `python3 -c "import tkinter…"` died at once and the two zoom cases
 * of resolve-chain waited for its "ready" line until their 60 s timeout.
 */
export const PYTHON_MODULE_PACKAGES = {
  tkinter: 'python3-tk',
} as const;
export type PythonModule = keyof typeof PYTHON_MODULE_PACKAGES;

/** Throws MissingPackageError for the first module `python3` (on env's PATH) cannot import. */
export function requirePythonModules(modules: readonly PythonModule[], env: NodeJS.ProcessEnv = process.env): void {
  requirePrograms(['python3'], env);
  for (const module of modules) {
    const r = spawnSync('python3', ['-c', `import ${module}`], { env, encoding: 'utf8', timeout: 30_000 });
    if (r.status !== 0) throw new MissingPackageError(PYTHON_MODULE_PACKAGES[module], `python3 cannot import ${module}: ${(r.stderr || String(r.error ?? r.signal)).trim().split('\n').at(-1)}`);
  }
}

/** Font family (as fontconfig names it) → the Debian package that provides it. */
export const FONT_PACKAGES = {
  'DejaVu Sans': 'fonts-dejavu-core',
  'DejaVu Sans Mono': 'fonts-dejavu-core',
  'Noto Sans CJK SC': 'fonts-noto-cjk',
  'Noto Color Emoji': 'fonts-noto-color-emoji',
} as const;
export type FontFamily = keyof typeof FONT_PACKAGES;

export class MissingPackageError extends Error {
  constructor(
    readonly packageName: string,
    what: string,
  ) {
    super(`missing package ${packageName} (add it to .ci/run): ${what}`);
    this.name = 'MissingPackageError';
  }
}

function onPath(program: string, env: NodeJS.ProcessEnv): boolean {
  if (program.includes('/')) return existsSync(program);
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    try {
      accessSync(path.join(dir, program), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

/** Throws MissingPackageError for the first program that is not installed. */
export function requirePrograms(programs: readonly Program[], env: NodeJS.ProcessEnv = process.env): void {
  for (const program of programs) {
    if (!onPath(program, env)) throw new MissingPackageError(PROGRAM_PACKAGES[program], `${program} is not installed (not on PATH)`);
  }
}

/** Throws MissingPackageError for the first font family fontconfig does not have. */
export function requireFonts(families: readonly FontFamily[], env: NodeJS.ProcessEnv = process.env): void {
  requirePrograms(['fc-list'], env);
  const listed = new Set(
    spawnSync('fc-list', [':', 'family'], { env, encoding: 'utf8' })
      .stdout.split('\n')
      .flatMap((line) => line.split(','))
      .map((f) => f.trim()),
  );
  for (const family of families) {
    if (!listed.has(family)) throw new MissingPackageError(FONT_PACKAGES[family], `fontconfig has no "${family}" font`);
  }
}

/**
 * `Xvfb -fp built-ins` lists 6 core fonts ("cursor", "fixed", "6x13" and three
 * semicondensed names); with xfonts-base installed the server lists hundreds (967 here).
 */
const BUILT_IN_CORE_FONTS = 10;

/**
 * Core-font apps (xcalc, xterm without -fa) draw with the X server's core fonts: with
 * only the built-ins they render in a different font at a different size.
 */
export function requireCoreFonts(xvfb: { display: string; env: NodeJS.ProcessEnv }): void {
  requirePrograms(['xlsfonts'], xvfb.env);
  const r = spawnSync('xlsfonts', [], { env: xvfb.env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`xlsfonts on ${xvfb.display} failed (${r.status}): ${r.stderr}`);
  const count = r.stdout.split('\n').filter((l) => l.trim()).length;
  if (count <= BUILT_IN_CORE_FONTS) {
    throw new MissingPackageError(
      'xfonts-base',
      `the X server ${xvfb.display} has only its built-in core fonts (${count}); xcalc and xterm would draw in another font, and OCR and clicks would go wrong`,
    );
  }
}
