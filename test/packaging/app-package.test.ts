import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanClone, REPO, run } from './clean-clone.js';
import { bareImportsOf, installedClosure, packageDirsIn, unresolvedIn, type Manifest } from './package-closure.js';

// Issue 27.13: the desktop package held the whole repository (src/, test/, docs/, bench/,
// .ci/, out/web: ~900 files outside node_modules) because each OS's `files` list, all
// exclusions, replaced the global one and became "**/*" minus them. This runs the real
// `npm run dist` steps (electron-vite build, then electron-builder --dir for this OS) in a
// clean clone and reads the app.asar it wrote. Two stand-ins, both outside what is
// judged: the Electron binary cannot be downloaded here, so `electronDist` is an empty
// skeleton (electron-builder copies it and puts resources/app.asar in it), and
// `npmRebuild: false` skips rebuilding native modules, which needs Node >= 22.12 (the
// prebuilt sharp and libnut binaries are packed as installed).

const asar = createRequire(import.meta.url)('@electron/asar') as {
  listPackage(archive: string, options: { isPack: boolean }): string[];
  statFile(archive: string, file: string): { files?: unknown; size?: number; unpacked?: boolean };
  extractFile(archive: string, file: string): Buffer;
};

type Os = 'linux' | 'mac' | 'win';
const OS: Os = process.platform === 'darwin' ? 'mac' : process.platform === 'win32' ? 'win' : 'linux';
const LIBNUT: Record<Os, string> = { linux: 'libnut-linux', mac: 'libnut-darwin', win: 'libnut-win32' };
/** The folders of out/ the app loads: main process, preload, renderer (not out/web, the browser build, nor out/cli). */
const APP_OUT = ['out/main', 'out/preload', 'out/renderer'];

let clone: { dir: string; cleanup(): void };
let packed: string[] = [];
let resources = '';
const archive = () => path.join(resources, 'app.asar');

beforeAll(() => {
  clone = cleanClone();
  run(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build'], clone.dir);
  const skeleton = path.join(path.dirname(clone.dir), 'electron-skeleton');
  mkdirSync(path.join(skeleton, 'resources'), { recursive: true });
  writeFileSync(path.join(skeleton, OS === 'win' ? 'electron.exe' : 'electron'), '');
  const output = path.join(path.dirname(clone.dir), 'release');
  run(process.execPath, ['node_modules/electron-builder/cli.js', '--dir', `--${OS}`, `--${process.arch}`, '--publish', 'never', '-c.npmRebuild=false', `-c.electronDist=${skeleton}`, `-c.directories.output=${output}`], clone.dir, {
    ...process.env,
    CSC_IDENTITY_AUTO_DISCOVERY: 'false',
  });
  const unpackedDir = readdirSync(output).find((d) => d.endsWith('-unpacked'));
  if (!unpackedDir) throw new Error(`electron-builder wrote no *-unpacked folder in ${output}: ${readdirSync(output).join(', ')}`);
  resources = path.join(output, unpackedDir, 'resources');
  // Files only (a folder's entry has `files`), as paths relative to the app root.
  packed = asar
    .listPackage(archive(), { isPack: false })
    .map((p) => p.replace(/^[\\/]/, '').split(path.sep).join('/'))
    .filter((p) => asar.statFile(archive(), p).files === undefined);
}, 600_000);

// Removing ~37k hard links takes a while on a busy machine.
afterAll(() => clone?.cleanup(), 300_000);

const filesUnder = (root: string, rel: string): string[] =>
  readdirSync(path.join(root, rel), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(root, `${rel}/${e.name}`) : [`${rel}/${e.name}`]));

describe('the desktop package ships the product, all of it, and nothing else (issue 27.13)', () => {
  it('outside node_modules: exactly the built main, preload and renderer and package.json', () => {
    const app = packed.filter((p) => !p.startsWith('node_modules/'));
    const built = APP_OUT.flatMap((d) => filesUnder(clone.dir, d)).filter((p) => !p.endsWith('.map'));
    expect(built.length).toBeGreaterThan(3);
    expect(app.sort()).toEqual([...built, 'package.json'].sort());
    const manifest = JSON.parse(readFileSync(path.join(clone.dir, 'package.json'), 'utf8')) as { main: string };
    expect(app).toContain(path.posix.normalize(manifest.main));
  });

  it('in node_modules: exactly the packages the built main process imports, with what they depend on', () => {
    const imports = [...bareImportsOf(path.join(clone.dir, 'out/main'))].filter((n) => n !== 'electron');
    expect(imports).toContain('@nut-tree-fork/nut-js');
    // nut.js's libnut lists every OS's binary package and loads only its own.
    const otherLibnut = (name: string) => Object.entries(LIBNUT).some(([os, dir]) => os !== OS && name.startsWith(`@nut-tree-fork/${dir}`));
    const needed = [...installedClosure(clone.dir, imports)].filter((p) => !otherLibnut(p));
    const shipped = new Map([...packageDirsIn(packed)].map((dir) => [dir, JSON.parse(asar.extractFile(archive(), `${dir}/package.json`).toString('utf8')) as Manifest]));
    const versions = [...new Set([...shipped.values()].map((m) => `${m.name}@${m.version}`))];
    expect({ missing: needed.filter((p) => !versions.includes(p)), unused: versions.filter((p) => !needed.includes(p)) }).toEqual({ missing: [], unused: [] });
    // electron-builder lays node_modules out again (it hoists other versions than npm did): everything still loads.
    expect(unresolvedIn(shipped, imports).filter((miss) => !otherLibnut(miss.split(' → ')[1]!))).toEqual([]);
  });

  it('the app bundle loads no OCR, so tesseract (~58 MB, the CLI’s QA and replay) is not shipped', () => {
    expect([...bareImportsOf(path.join(clone.dir, 'out/main'))].filter((n) => n.includes('tesseract'))).toEqual([]);
    expect(packed.filter((p) => /tesseract|traineddata/.test(p))).toEqual([]);
  });

  it('native addons are unpacked next to the asar, only this OS’s libnut', () => {
    const unpacked = path.join(resources, 'app.asar.unpacked');
    const natives = filesUnder(unpacked, 'node_modules').filter((p) => p.endsWith('.node'));
    expect(natives.some((p) => p.startsWith(`node_modules/@nut-tree-fork/${LIBNUT[OS]}/`))).toBe(true);
    expect(natives.some((p) => p.startsWith('node_modules/@img/'))).toBe(true);
    expect(natives.filter((p) => /libnut-(darwin|linux|win32)\//.test(p) && !p.includes(LIBNUT[OS]))).toEqual([]);
    for (const p of natives) expect(packed, p).toContain(p);
  });

  it('the icons and built-in skills are resources beside the asar', () => {
    for (const file of ['icon.png', 'icon-tray.png', 'skills']) expect(existsSync(path.join(resources, file)), file).toBe(true);
    const size = statSync(path.join(resources, 'app.asar')).size;
    console.log(`packed: ${packed.length} files, app.asar ${(size / 1e6).toFixed(1)} MB, ${packed.filter((p) => !p.startsWith('node_modules/')).length} outside node_modules`);
  });
});

describe('the three OS file lists of electron-builder.yml', () => {
  const config = parseYaml(readFileSync(path.join(REPO, 'electron-builder.yml'), 'utf8')) as Record<string, { files?: string[] } | unknown>;
  const filesOf = (os: Os) => (config[os] as { files: string[] }).files;

  it('there is no global list (an OS list replaces it, and one of only exclusions ships everything)', () => {
    expect(config.files).toBeUndefined();
  });

  it.each(['linux', 'mac', 'win'] as const)('%s: the same list as the others but for the libnut of the other OSes', (os) => {
    const others = Object.entries(LIBNUT).filter(([o]) => o !== os).map(([, dir]) => `!**/node_modules/@nut-tree-fork/${dir}/**`);
    const common = filesOf('linux').filter((p) => !p.includes('@nut-tree-fork/libnut'));
    expect(filesOf(os)).toEqual([...common, ...others]);
    expect(common.filter((p) => !p.startsWith('!'))).toEqual([...APP_OUT.map((d) => `${d}/**`), 'package.json']);
  });
});
