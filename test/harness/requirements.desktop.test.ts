/**
 * The harness refuses a machine that lacks a package the tests need, naming the
 * package and .ci/run, before any pixel is compared. The font case is shown for real:
 * an Xvfb started with `-fp built-ins` (what a machine without xfonts-base has).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXcalc } from './native-apps.js';
import { FONT_PACKAGES, MissingPackageError, PROGRAM_PACKAGES, PYTHON_MODULE_PACKAGES, requireCoreFonts, requireFonts, requirePrograms, requirePythonModules } from './requirements.js';
import { startXvfb, type Xvfb } from './xvfb.js';

const root = path.resolve(import.meta.dirname, '../..');
let builtIns: Xvfb;
let scratch: string;

beforeAll(async () => {
  builtIns = await startXvfb({ width: 640, height: 480, windowManager: false, fontPath: 'built-ins' });
  scratch = mkdtempSync(path.join(tmpdir(), 'deskpilot-req-'));
});

afterAll(async () => {
  await builtIns?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('harness requirements', () => {
  it('every package the harness may ask for is one .ci/run installs', () => {
    const ciRun = readFileSync(path.join(root, '.ci/run'), 'utf8');
    const list = /APT_PACKAGES=\(([^)]*)\)/.exec(ciRun)?.[1]?.split(/\s+/).filter(Boolean) ?? [];
    expect(list.length).toBeGreaterThan(10);
    const needed = new Set<string>([...Object.values(PROGRAM_PACKAGES), ...Object.values(FONT_PACKAGES), ...Object.values(PYTHON_MODULE_PACKAGES)]);
    expect([...needed].filter((p) => !list.includes(p))).toEqual([]);
  });

  it('every program the code and the tests start is in the table above, or part of every Debian system', () => {
    // The class of the xfonts-base and openssl misses: a program used straight through
    // spawn/execFile with no requirement behind it works on the machine that happens to
    // have it and fails on a fresh one (openssl: the TLS test's beforeAll on a minimal
    // Debian 12 root). Each literal program name started anywhere must be known here.
    // Debian's Essential packages (coreutils, tar, bash, util-linux) are on every system, and npm comes with node.
    const ESSENTIAL = new Set(['sh', '/bin/sh', 'bash', 'true', 'mkdir', 'nproc', 'script', 'npm', 'sleep', 'cp', 'id', 'tar', 'mkfifo', 'setsid', 'stat', 'unshare', 'seq']);
    /** Installed by the test that starts it (the npm package test installs `deskpilot` with npm -g first). */
    const INSTALLED_BY_TEST = new Set(['deskpilot']);
    /** Started only on their own platform (never by the Linux tests): the macOS keychain and AppleScript, Windows PowerShell. */
    const OTHER_PLATFORMS = new Set(['security', 'osascript', 'powershell.exe']);
    const started = new Map<string, string>();
    const call = /(?:(?:spawnSync|execFileSync|execFile|spawn)\(\s*'([\w./-]+)'|\brun\((?:[\w.]+, )?'([\w./-]+)', \[)/g;
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? (e.name === 'node_modules' ? [] : walk(path.join(dir, e.name))) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
      );
    for (const top of ['src', 'test', 'bench', 'scripts']) {
      for (const file of walk(path.join(root, top))) {
        for (const m of readFileSync(file, 'utf8').matchAll(call)) started.set(m[1] ?? m[2]!, path.relative(root, file));
      }
    }
    expect(started.size).toBeGreaterThan(20);
    const unknown = [...started].filter(([program]) => !(program in PROGRAM_PACKAGES) && !ESSENTIAL.has(program) && !OTHER_PLATFORMS.has(program) && !INSTALLED_BY_TEST.has(program));
    expect(unknown.map(([program, file]) => `${program} (${file})`)).toEqual([]);
  });

  it('xcalc on an X server with only the built-in font: refused with "missing package xfonts-base", and no xcalc is started', async () => {
    const error = await startXcalc(builtIns).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MissingPackageError);
    expect((error as Error).message).toMatch(/^missing package xfonts-base \(add it to \.ci\/run\): the X server :\d+ has only its built-in core fonts \(6\)/);
    const search = spawnSync('xdotool', ['search', '--class', 'xcalc'], { env: builtIns.env, encoding: 'utf8' });
    expect(search.stdout.trim()).toBe('');
  });

  it('a test that wants the built-in font says so and gets xcalc', async () => {
    const xcalc = await startXcalc(builtIns, undefined, { builtInFontsOnPurpose: true });
    try {
      expect(xcalc.geometry().width).toBeGreaterThan(0);
    } finally {
      await xcalc.stop();
    }
  });

  it('a program missing from PATH names its package', () => {
    expect(() => requirePrograms(['xcalc', 'xdotool'], { PATH: '/nonexistent' })).toThrow(
      'missing package x11-apps (add it to .ci/run): xcalc is not installed (not on PATH)',
    );
    expect(() => requirePrograms(['xdotool'], process.env)).not.toThrow();
  });

  it('a font fontconfig does not have names its package (fontconfig pointed at an empty font set)', () => {
    const conf = path.join(scratch, 'fonts.conf');
    writeFileSync(conf, `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><cachedir>${scratch}/cache</cachedir></fontconfig>\n`);
    expect(() => requireFonts(['DejaVu Sans'], { ...process.env, FONTCONFIG_FILE: conf })).toThrow(
      'missing package fonts-dejavu-core (add it to .ci/run): fontconfig has no "DejaVu Sans" font',
    );
    expect(() => requireFonts(['DejaVu Sans', 'DejaVu Sans Mono'])).not.toThrow();
  });

  it('a Python module python3 cannot import names its package (tkinter shadowed by one that fails as a python3 without python3-tk does)', () => {
    const shadow = path.join(scratch, 'no-tk');
    mkdirSync(path.join(shadow, 'tkinter'), { recursive: true });
    writeFileSync(path.join(shadow, 'tkinter', '__init__.py'), "raise ModuleNotFoundError(\"No module named 'tkinter'\")\n");
    expect(() => requirePythonModules(['tkinter'], { ...process.env, PYTHONPATH: shadow })).toThrow(
      "missing package python3-tk (add it to .ci/run): python3 cannot import tkinter: ModuleNotFoundError: No module named 'tkinter'",
    );
    expect(() => requirePythonModules(['tkinter'])).not.toThrow();
  });

  it('an X server with xfonts-base passes the core font check', async () => {
    const full = await startXvfb({ width: 640, height: 480, windowManager: false });
    try {
      expect(() => requireCoreFonts(full)).not.toThrow();
    } finally {
      await full.stop();
    }
  });
});
